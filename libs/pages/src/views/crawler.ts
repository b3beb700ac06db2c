/**
 * User agents that are not people: search crawlers, SEO and AI crawlers, and the link previewers of chat and
 * social apps (they fetch a page when someone pastes its link). Their visits are not views.
 * Ordinary browsers (headless ones included) and unknown clients (curl, scripts) are counted.
 */
const CRAWLER =
  /bot\b|bot\/|bot;|robot|crawl|spider|slurp|facebookexternalhit|facebookcatalog|facebot|meta-externalagent|meta-externalfetcher|whatsapp|telegrambot|slackbot|slack-imgproxy|linkedinbot|discordbot|twitterbot|skypeuripreview|embedly|quora link preview|pinterest|vkshare|redditbot|tumblr|flipboard|bitlybot|nuzzel|iframely|mastodon|bluesky|cardyb|w3c_validator|validator\.nu|google-inspectiontool|googleother|google-pagerenderer|google-read-aloud|google web preview|feedfetcher|mediapartners-google|apis-google|adsbot|bingpreview|yandex|baidu|duckduck|sogou|exabot|ia_archiver|archive\.org|semrush|ahrefs|mj12|dotbot|petalbot|bytespider|gptbot|chatgpt-user|oai-searchbot|claudebot|claude-web|anthropic-ai|ccbot|perplexity|amazonbot|applebot|qwantify|seznam|chrome-lighthouse|pagespeed|headlessshell|prerender|preview/i;

export function isCrawler(userAgent: string | undefined): boolean {
  return !!userAgent && CRAWLER.test(userAgent);
}
