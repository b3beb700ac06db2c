import { createIsbotFromList, isbotPatterns, list } from 'isbot';
import { LRUCache } from 'lru-cache';

/**
 * Clients Plink counts although isbot calls them bots: headless browsers (automated tests, the editor's own
 * previews) and command-line or script clients (curl, wget, Node, Python). A visit by one of them is a view.
 * The isbot patterns that match these are left out.
 */
const COUNTED_CLIENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'curl/8.5.0',
  'Wget/1.21.3',
  'python-requests/2.31.0',
  'node',
  'undici',
  'autocannon',
];

/**
 * Crawlers and link previewers that isbot recognises only by their full user agent, also sent as a bare
 * name (`Name/1.0`): matched by name anywhere in the user agent.
 */
const EXTRA_NAMES = [
  'slurp',
  'meta-externalfetcher',
  'embedly',
  'pinterest',
  'vkshare',
  'tumblr',
  'flipboard',
  'nuzzel',
  'iframely',
  'mastodon',
  'bluesky',
  'cardyb',
  'baidu',
  'duckduck',
  'semrush',
  'ahrefs',
  'mj12',
  'chatgpt-user',
  'claude-web',
  'anthropic-ai',
  'perplexity',
  'qwantify',
  'seznam',
  'headlessshell',
  'prerender',
];

const left = new Set(COUNTED_CLIENTS.flatMap((ua) => isbotPatterns(ua)));
const matchesCrawler = createIsbotFromList([...list.filter((pattern) => !left.has(pattern)), ...EXTRA_NAMES]);

/**
 * The answers for recent user agents: visitors send few distinct ones, and isbot's pattern (a few hundred
 * alternatives) takes microseconds per test on the page path.
 */
const answers = new LRUCache<string, boolean>({ max: 2_000 });

/**
 * User agents that are not people: search crawlers, SEO and AI crawlers, and the link previewers of chat and
 * social apps (they fetch a page when someone pastes its link). Their visits are not views. isbot's list
 * decides, except that ordinary browsers (headless ones included) and unknown clients (curl, scripts) are
 * counted.
 */
export function isCrawler(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  let crawler = answers.get(userAgent);
  if (crawler === undefined) {
    crawler = matchesCrawler(userAgent);
    // Long ones (real user agents are a few hundred characters) are tested each time, never kept.
    if (userAgent.length <= 512) answers.set(userAgent, crawler);
  }
  return crawler;
}
