import { Migration } from '@mikro-orm/migrations';

/** identity's system account for the examples (identity's migration 20261125_create_examples_account). */
const EXAMPLES_ACCOUNT_ID = 0;

/**
 * The content of the three example pages as it was first published. The pages are ordinary rows owned by
 * the examples account, marked `is_example`: visitors see them at their slugs and their views count, but a
 * submission stores nothing (leads' capture use case). Their images are stored under `examples/` by
 * TemplateImages at start. An install where a creator already held one of these slugs keeps that page.
 */
const EXAMPLES = [
  {
    slug: 'photo-guide',
    title: 'Free Photography Cheat Sheet',
    subtext:
      '<p>Sharper photos on your next shoot, from any camera or phone. One printable page with:</p>' +
      '<ul><li><strong>Exposure triangle</strong>: aperture, shutter speed and ISO for 12 common scenes</li>' +
      '<li><strong>Composition</strong>: thirds, leading lines and framing, with examples</li>' +
      '<li><strong>Golden-hour timing</strong>: when the light is at its best, and where to stand</li></ul>' +
      '<p>Join 14,000 photographers who keep it in their camera bag.</p>',
    authorName: 'Maya Lindqvist, travel photographer',
    buttonText: 'Send Me the Guide',
    buttonColor: '#c2410c',
    backgroundColor: '#fff7ed',
    textAlignment: 'center',
    titleFont: 'Playfair Display',
    descriptionFont: 'Lato',
    authorFont: 'Lato',
    thankYouHeadline: 'Your cheat sheet is on its way!',
    thankYouSubtext: 'Check your inbox in a minute for the download link. Happy shooting!',
    metaTitle: 'Free Photography Cheat Sheet',
    metaDescription:
      'A free one-page photography cheat sheet: exposure settings for 12 scenes, composition rules and golden-hour timing, ready to print and keep in your camera bag.',
  },
  {
    slug: 'startupwkly',
    title: 'Startup Weekly',
    subtext:
      '<p>The five stories founders should read, every Monday morning. Funding rounds, product launches and ' +
      'the lessons behind them, in a five-minute read.</p>' +
      '<p><em>Written by operators, not press releases.</em> No spam, unsubscribe anytime.</p>',
    authorName: 'The Startup Weekly team',
    buttonText: 'Subscribe',
    buttonColor: '#1d4ed8',
    backgroundColor: '#eff6ff',
    textAlignment: 'left',
    titleFont: 'Space Grotesk',
    descriptionFont: 'Inter',
    authorFont: 'Inter',
    thankYouHeadline: "You're in!",
    thankYouSubtext: 'Your first issue arrives next Monday. Add us to your contacts so it lands in your inbox.',
    metaTitle: 'Startup Weekly: five stories for founders, every Monday',
    metaDescription:
      'Startup Weekly is a free Monday newsletter for founders: the five stories worth reading, funding rounds, product launches and the lessons behind them.',
  },
  {
    slug: 'saas-waitlist',
    title: 'Join the Waitlist',
    subtext:
      '<p><strong>Tally</strong> turns your product data into one dashboard your whole team understands. ' +
      'No SQL, no setup: connect a source and get answers in minutes.</p>' +
      '<p>Be the first to try it when we launch this spring. Early members get three months free.</p>',
    authorName: 'Tally Analytics',
    buttonText: 'Get Early Access',
    buttonColor: '#7048e8',
    backgroundColor: '#f3f0ff',
    textAlignment: 'center',
    titleFont: 'Poppins',
    descriptionFont: 'Inter',
    authorFont: 'Inter',
    thankYouHeadline: "You're on the list!",
    thankYouSubtext: "We'll e-mail you as soon as your invitation is ready.",
    metaTitle: 'Tally: join the waitlist',
    metaDescription:
      'Tally turns your product data into one dashboard your whole team understands. Join the waitlist and get three months free when we launch this spring.',
  },
] as const;

export class CreateExamplePages20261125 extends Migration {
  override async up() {
    await this.execute('alter table pages.pages add column is_example boolean not null default false');
    for (const e of EXAMPLES) {
      const image = `/uploads/examples/${e.slug}.jpg`;
      await this.execute(
        `insert into pages.pages (user_id, slug, title, subtext, author_name, show_username, button_text, button_color,
           background_color, image_url, text_alignment, title_font, description_font, author_font,
           thank_you_headline, thank_you_subtext, meta_title, meta_description, meta_image_url, is_example)
         values (?, ?, ?, ?, ?, true, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, true)
         on conflict ((lower(slug))) do nothing`,
        [
          EXAMPLES_ACCOUNT_ID, e.slug, e.title, e.subtext, e.authorName, e.buttonText, e.buttonColor, e.backgroundColor,
          image, e.textAlignment, e.titleFont, e.descriptionFont, e.authorFont, e.thankYouHeadline, e.thankYouSubtext,
          e.metaTitle, e.metaDescription, image,
        ],
      );
    }
  }
}
