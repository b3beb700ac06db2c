import type { CreatePageRequest, PageTemplateExcluded, TemplateCategory } from '@plink/contracts';

/** Where a template's picture is stored (`/uploads/templates/{slug}.jpg`): see TemplateImages. */
export const templateImageKey = (slug: string) => `templates/${slug}.jpg`;
const image = (slug: string) => `/uploads/${templateImageKey(slug)}`;

/** What a template sets: page fields as a create request takes them; the rest take their defaults. */
export type TemplateFields = Omit<CreatePageRequest, 'slug' | PageTemplateExcluded>;

export interface CatalogueEntry {
  slug: string;
  name: string;
  category: TemplateCategory;
  description: string;
  /**
   * One of Plink's example pages: its content is its row's, as visitors see it at its slug; `fields` only
   * adds what a visitor never sees (the delivery e-mail).
   */
  example?: true;
  fields: TemplateFields;
}

/** The fields every file-giving template shares: the thank-you texts point to the inbox. */
const deliveryEmail = (subject: string, body: string) => ({ emailSubject: subject, emailBody: body });

/**
 * The page templates, in the gallery's order (the slugs are TEMPLATE_SLUGS of the contracts). Copy is
 * written in the editor's rich-text subset (paragraphs, headings, bold, italic, underline, lists, links),
 * fonts are from FONTS, and every button colour keeps its text at WCAG AA contrast (the page picks
 * black or white text). Names, places and numbers are made up, for the creator to replace.
 */
export const TEMPLATE_CATALOGUE: readonly CatalogueEntry[] = [
  {
    slug: 'photo-guide',
    name: 'Cheat sheet',
    category: 'downloads',
    description: 'Give away a one-page guide or printable in exchange for an e-mail address.',
    example: true,
    fields: deliveryEmail(
      'Your Photography Cheat Sheet',
      '<p>Hi there,</p><p>Here is your <strong>Photography Cheat Sheet</strong>. Print it, fold it in two and keep it in your camera bag.</p>' +
        '<p>Try the golden-hour tips on your next shoot, then reply and tell me how it went.</p><p>Maya</p>',
    ),
  },
  {
    slug: 'startupwkly',
    name: 'Weekly newsletter',
    category: 'newsletters',
    description: 'Grow the readership of a newsletter with a clear promise of what arrives and when.',
    example: true,
    fields: {},
  },
  {
    slug: 'saas-waitlist',
    name: 'Product waitlist',
    category: 'waitlists',
    description: 'Collect early sign-ups for a product before it launches, with a reason to join now.',
    example: true,
    fields: {},
  },
  {
    slug: 'ebook-download',
    name: 'Ebook download',
    category: 'downloads',
    description: 'Offer a free ebook or PDF guide; the delivery e-mail sends the file.',
    fields: {
      title: 'The No-Spreadsheet Budget',
      subtext:
        '<p>A free 42-page ebook for people who hate budgeting. Learn the three-account system that pays your bills, ' +
        'grows your savings and still leaves money for fun, in 30 minutes a month.</p>' +
        '<ul><li><strong>Chapter 1</strong>: why most budgets fail by week three</li>' +
        '<li><strong>Chapter 4</strong>: the three-account system, step by step</li>' +
        '<li><strong>Bonus</strong>: a one-page plan to fill in tonight</li></ul>' +
        '<p>Read it on your phone, tablet or e-reader.</p>',
      authorName: 'Priya Shah, money coach',
      buttonText: 'Download the Free Ebook',
      buttonColor: '#0f766e',
      backgroundColor: '#f0fdfa',
      imageUrl: image('ebook-download'),
      textAlignment: 'left',
      titleFont: 'Merriweather',
      descriptionFont: 'Source Sans Pro',
      authorFont: 'Source Sans Pro',
      thankYouHeadline: 'Your ebook is on its way!',
      thankYouSubtext: "We've sent the download link to your inbox. Not there in five minutes? Check your promotions or spam folder.",
      metaTitle: 'Free ebook: The No-Spreadsheet Budget',
      metaDescription:
        'A free 42-page ebook for people who hate budgeting: the three-account system that pays your bills and grows your savings in 30 minutes a month.',
      metaImageUrl: image('ebook-download'),
      ...deliveryEmail(
        'Your free ebook: The No-Spreadsheet Budget',
        '<p>Hi there,</p><p>Thanks for asking for <strong>The No-Spreadsheet Budget</strong>. Your copy is one click away: use the button below to download it.</p>' +
          '<p>Only have ten minutes tonight? Start with chapter 4.</p><p>Priya</p>',
      ),
    },
  },
  {
    slug: 'free-checklist',
    name: 'Free checklist',
    category: 'downloads',
    description: 'A printable step-by-step checklist: a small, quick win readers sign up for.',
    fields: {
      title: "The First-Home Buyer's Checklist",
      subtext:
        "<p>Buying your first home? Don't miss a step. This free, printable checklist takes you from mortgage approval to moving day:</p>" +
        '<ol><li>Budget and mortgage approval</li><li>Viewings: 25 questions to ask</li><li>Offer, survey and closing</li>' +
        '<li>Your first week in the new home</li></ol>',
      authorName: 'Dana Ortiz, Ortiz Realty',
      buttonText: 'Get the Checklist',
      buttonColor: '#1d4ed8',
      backgroundColor: '#f8fafc',
      imageUrl: image('free-checklist'),
      textAlignment: 'left',
      titleFont: 'Montserrat',
      descriptionFont: 'Open Sans',
      authorFont: 'Open Sans',
      thankYouHeadline: 'Check your inbox!',
      thankYouSubtext: 'Your checklist is on its way. Print it out and tick off each step as you go.',
      metaTitle: "Free printable: The First-Home Buyer's Checklist",
      metaDescription:
        'A free printable checklist for first-time home buyers: budget and mortgage approval, 25 questions for viewings, the offer, the survey and moving day.',
      metaImageUrl: image('free-checklist'),
      ...deliveryEmail(
        "Your First-Home Buyer's Checklist",
        "<p>Hi there,</p><p>Here is your <strong>First-Home Buyer's Checklist</strong>. Print it and take it to every viewing.</p>" +
          '<p>Questions along the way? Just reply to this e-mail.</p><p>Dana</p>',
      ),
    },
  },
  {
    slug: 'webinar-signup',
    name: 'Webinar registration',
    category: 'events',
    description: 'Fill the seats of a live online session: what, when, and what people will learn.',
    fields: {
      title: 'Free Live Webinar: Price Your Freelance Work With Confidence',
      subtext:
        '<p><strong>Thursday, 6 pm CET · 45 minutes + live Q&amp;A</strong></p>' +
        "<p>Stop guessing your rates. In this free session you'll learn:</p>" +
        '<ul><li>How to turn an hourly rate into a project price</li><li>The three-option proposal clients say yes to</li>' +
        '<li>What to say when a client asks for a discount</li></ul>' +
        "<p>Can't make it live? Register anyway and you'll get the recording.</p>",
      authorName: 'Hosted by Leo Martin, freelance designer for 12 years',
      buttonText: 'Save My Seat',
      buttonColor: '#6d28d9',
      backgroundColor: '#f5f3ff',
      imageUrl: image('webinar-signup'),
      textAlignment: 'left',
      titleFont: 'Poppins',
      descriptionFont: 'Nunito',
      authorFont: 'Nunito',
      thankYouHeadline: 'Your seat is saved!',
      thankYouSubtext: "We'll e-mail you the link to join the day before, and again an hour before we go live.",
      metaTitle: 'Free webinar: Price Your Freelance Work With Confidence',
      metaDescription:
        'A free 45-minute live webinar for freelancers: turn an hourly rate into a project price, write proposals clients accept and handle discount requests.',
      metaImageUrl: image('webinar-signup'),
    },
  },
  {
    slug: 'local-meetup',
    name: 'Meetup or event',
    category: 'events',
    description: 'Invite people to a recurring meetup or a one-off event and send them the details.',
    fields: {
      title: 'Design & Coffee: Lisbon Meetup',
      subtext:
        '<p>Once a month, designers, developers and the design-curious meet for coffee, a short talk and honest feedback on each other\u2019s work.</p>' +
        '<p><strong>Next meetup:</strong> first Saturday of the month, 10 am, at Café Alma, Rua da Rosa 12.</p>' +
        '<p>Places are limited to 30. Join the list to get the invitation and the RSVP link first.</p>',
      authorName: 'Organised by the Lisbon Design Circle',
      buttonText: 'Get the Invitation',
      buttonColor: '#be185d',
      backgroundColor: '#fdf2f8',
      imageUrl: image('local-meetup'),
      textAlignment: 'left',
      titleFont: 'Space Grotesk',
      descriptionFont: 'Work Sans',
      authorFont: 'Work Sans',
      thankYouHeadline: 'See you there!',
      thankYouSubtext: 'The next invitation lands in your inbox a week before the meetup.',
      metaTitle: 'Design & Coffee: a monthly design meetup in Lisbon',
      metaDescription:
        'Designers, developers and the design-curious meet once a month in Lisbon for coffee, a short talk and honest feedback. Join the list for the next invitation.',
      metaImageUrl: image('local-meetup'),
    },
  },
  {
    slug: 'podcast-updates',
    name: 'Podcast',
    category: 'creators',
    description: 'Turn listeners into subscribers who hear about every new episode.',
    fields: {
      title: 'The Long Table Podcast',
      subtext:
        '<p>Conversations with cooks, farmers and food writers about the stories behind what we eat. New episodes every other Tuesday.</p>' +
        '<p>Join the list for each new episode, the recipes we talk about and listener questions: one short e-mail, twice a month.</p>',
      authorName: 'Hosted by Sam Okafor',
      buttonText: 'Get New Episodes',
      buttonColor: '#b45309',
      backgroundColor: '#fffbeb',
      imageUrl: image('podcast-updates'),
      textAlignment: 'left',
      titleFont: 'Oswald',
      descriptionFont: 'Lato',
      authorFont: 'Lato',
      titleBold: false,
      thankYouHeadline: 'Welcome to the table!',
      thankYouSubtext: 'Your first e-mail arrives with the next episode. Until then, the latest one is waiting in your podcast app.',
      metaTitle: 'The Long Table Podcast: new episodes by e-mail',
      metaDescription:
        'Conversations with cooks, farmers and food writers about the stories behind what we eat. Get every new episode and its recipes by e-mail, twice a month.',
      metaImageUrl: image('podcast-updates'),
    },
  },
  {
    slug: 'music-fan-list',
    name: 'Music fan list',
    category: 'creators',
    description: 'Give fans a free track and be first in their inbox with tickets and releases.',
    fields: {
      title: 'Hear the New Album First',
      subtext:
        '<p><strong>Northern Lights</strong>, the second album by Juno &amp; the Tides, is out this autumn. Join the fan list and get:</p>' +
        '<ul><li>An unreleased demo, free, today</li><li>Pre-sale tickets 48 hours before everyone else</li>' +
        '<li>Tour dates in your city, and nothing else</li></ul>',
      authorName: 'Juno & the Tides',
      buttonText: 'Send Me the Demo',
      buttonColor: '#7c3aed',
      backgroundColor: '#1e1b4b',
      imageUrl: image('music-fan-list'),
      textAlignment: 'center',
      titleFont: 'Rubik',
      descriptionFont: 'Rubik',
      authorFont: 'Rubik',
      thankYouHeadline: 'The demo is in your inbox',
      thankYouSubtext: 'Turn it up. Pre-sale codes arrive by e-mail before tickets go on sale.',
      metaTitle: 'Juno & the Tides: hear the new album first',
      metaDescription:
        'Join the Juno & the Tides fan list: a free unreleased demo today, pre-sale tickets 48 hours early and tour dates in your city.',
      metaImageUrl: image('music-fan-list'),
      ...deliveryEmail(
        'Your free demo from Juno & the Tides',
        '<p>Hey,</p><p>Thanks for joining the fan list. Here is the demo of <strong>Northern Lights</strong>, the title song of the new album, before anyone else hears it.</p>' +
          '<p>Headphones on, volume up.</p><p>Juno</p>',
      ),
    },
  },
  {
    slug: 'course-waitlist',
    name: 'Course waitlist',
    category: 'waitlists',
    description: 'Build demand for an online course before enrolment opens, with a free sample lesson.',
    fields: {
      title: 'Watercolour for Complete Beginners',
      subtext:
        "<p>An eight-week online course that takes you from your first brushstroke to paintings you'll want to frame. " +
        'Short video lessons, a project every week and friendly feedback from a working artist.</p>' +
        '<p><strong>Enrolment opens in March</strong> and places are limited. Join the waitlist for a 20% early-bird discount and a free sample lesson today.</p>',
      authorName: 'Taught by Elena Rossi, illustrator',
      buttonText: 'Join the Waitlist',
      buttonColor: '#0e7490',
      backgroundColor: '#ecfeff',
      imageUrl: image('course-waitlist'),
      textAlignment: 'center',
      titleFont: 'Raleway',
      descriptionFont: 'Lato',
      authorFont: 'Lato',
      thankYouHeadline: "You're on the waitlist!",
      thankYouSubtext: "Your sample lesson is on its way. We'll e-mail you the early-bird code the day enrolment opens.",
      metaTitle: 'Watercolour for Complete Beginners: join the waitlist',
      metaDescription:
        'An eight-week online watercolour course for complete beginners. Join the waitlist for a free sample lesson and a 20% early-bird discount.',
      metaImageUrl: image('course-waitlist'),
      ...deliveryEmail(
        'Your free watercolour lesson',
        "<p>Hi there,</p><p>Welcome to the waitlist! Here is your free sample lesson: <em>Painting a sky in three washes</em>. You'll need one brush, two colours and a sheet of paper.</p>" +
          "<p>When enrolment opens in March, you'll hear from me first, with your 20% early-bird code.</p><p>Elena</p>",
      ),
    },
  },
  {
    slug: 'app-beta',
    name: 'App beta signup',
    category: 'waitlists',
    description: 'Recruit beta testers for a mobile or web app and invite them in batches.',
    fields: {
      title: 'Sprout: Habits That Stick',
      subtext:
        '<p>Sprout is a habit tracker that rewards progress, not streaks. Miss a day and your plant keeps growing, just a little slower.</p>' +
        "<p>We're opening the <strong>private beta on iOS and Android</strong> to 500 testers. Get in early, help shape the app and keep Sprout Plus free for life.</p>",
      authorName: 'The Sprout team',
      buttonText: 'Request Beta Access',
      buttonColor: '#15803d',
      backgroundColor: '#f0fdf4',
      imageUrl: image('app-beta'),
      textAlignment: 'center',
      titleFont: 'Nunito',
      descriptionFont: 'Nunito',
      authorFont: 'Nunito',
      thankYouHeadline: 'Request received!',
      thankYouSubtext: 'We send invitations in small batches. Watch your inbox for your link to the beta.',
      metaTitle: 'Sprout beta: the habit tracker that rewards progress',
      metaDescription:
        'Join the private beta of Sprout, the habit tracker for iOS and Android that rewards progress, not streaks. Beta testers keep Sprout Plus free for life.',
      metaImageUrl: image('app-beta'),
    },
  },
  {
    slug: 'recipe-newsletter',
    name: 'Recipe newsletter',
    category: 'newsletters',
    description: 'A weekly newsletter with a welcome gift: a recipe pack, sent as soon as people join.',
    fields: {
      title: 'Sunday Supper',
      subtext:
        '<p>One seasonal recipe every Sunday morning: tested three times, ready in under an hour, with a shopping list you can screenshot.</p>' +
        '<p>Subscribe and get <em>10 Weeknight Dinners</em>, our free recipe card pack, straight away.</p>',
      authorName: 'From the kitchen of Clara Dubois',
      buttonText: "Get Sunday's Recipe",
      buttonColor: '#9a3412',
      backgroundColor: '#fefce8',
      imageUrl: image('recipe-newsletter'),
      textAlignment: 'center',
      titleFont: 'Playfair Display',
      descriptionFont: 'Noto Sans',
      authorFont: 'Noto Sans',
      thankYouHeadline: 'Welcome to Sunday Supper!',
      thankYouSubtext: 'Your recipe card pack is in your inbox. The first Sunday recipe arrives this weekend.',
      metaTitle: 'Sunday Supper: a seasonal recipe every Sunday',
      metaDescription:
        'A free newsletter with one seasonal recipe every Sunday, ready in under an hour. Subscribe and get the 10 Weeknight Dinners recipe card pack.',
      metaImageUrl: image('recipe-newsletter'),
      ...deliveryEmail(
        'Your 10 Weeknight Dinners recipe pack',
        '<p>Hello and welcome!</p><p>Here is <strong>10 Weeknight Dinners</strong>, ten recipe cards for busy evenings. Start with the lemon chicken traybake: it is the readers\u2019 favourite.</p>' +
          '<p>See you on Sunday,</p><p>Clara</p>',
      ),
    },
  },
  {
    slug: 'shop-discount',
    name: 'Discount coupon',
    category: 'businesses',
    description: 'Welcome new customers of a shop with a code shown as soon as they sign up.',
    fields: {
      title: 'Take 15% Off Your First Order',
      subtext:
        '<p>Fresh sourdough, pastries and seasonal cakes from <strong>Harbour Bakery</strong>, baked every morning on Quay Street.</p>' +
        '<p>Join our list for your 15% welcome code, plus first word on new bakes and weekend specials. Use it in the shop or online.</p>',
      authorName: 'Harbour Bakery, since 1998',
      buttonText: 'Get My 15% Code',
      buttonColor: '#be123c',
      backgroundColor: '#fff1f2',
      imageUrl: image('shop-discount'),
      textAlignment: 'center',
      titleFont: 'Quicksand',
      descriptionFont: 'PT Sans',
      authorFont: 'PT Sans',
      thankYouHeadline: 'Your code: WELCOME15',
      thankYouSubtext: 'Show this screen in the shop, or enter the code at checkout online. It is good for 30 days.',
      metaTitle: 'Harbour Bakery: 15% off your first order',
      metaDescription:
        'Fresh sourdough, pastries and seasonal cakes, baked every morning on Quay Street. Join the Harbour Bakery list for 15% off your first order.',
      metaImageUrl: image('shop-discount'),
    },
  },
  {
    slug: 'free-consultation',
    name: 'Consultation booking',
    category: 'businesses',
    description: 'Offer a free first call to potential clients and follow up with a booking link.',
    fields: {
      title: 'Book a Free 20-Minute Garden Consultation',
      subtext:
        "<p>Not sure where to start with your garden? Leave your e-mail address and we'll send you a link to pick a time for a free video call with a garden designer.</p>" +
        '<ul><li>Talk through your space, style and budget</li><li>Get three ideas you can start on this weekend</li><li>No obligation, no sales pitch</li></ul>',
      authorName: 'Greenhouse Garden Design',
      buttonText: 'Book My Free Call',
      buttonColor: '#166534',
      backgroundColor: '#f7fee7',
      imageUrl: image('free-consultation'),
      textAlignment: 'left',
      titleFont: 'Fira Sans',
      descriptionFont: 'Fira Sans',
      authorFont: 'Fira Sans',
      thankYouHeadline: "Thanks! Let's find a time",
      thankYouSubtext: "We'll e-mail you within one working day with a link to choose a time that suits you.",
      metaTitle: 'Free 20-minute garden consultation',
      metaDescription:
        'Book a free 20-minute video call with a garden designer: talk through your space, style and budget and get three ideas to start on this weekend.',
      metaImageUrl: image('free-consultation'),
    },
  },
  {
    slug: 'volunteer-signup',
    name: 'Volunteer signup',
    category: 'nonprofits',
    description: 'Gather volunteers for a cause and tell them when and where to help.',
    fields: {
      title: 'Volunteer With Green Streets',
      subtext:
        '<p>Green Streets plants and cares for trees in the neighbourhoods that need shade the most. Since 2016, 1,400 volunteers have planted over 9,000 trees.</p>' +
        '<p>Join the volunteer list to hear about planting days near you. Come for one morning or every month: no experience needed, gloves and tools provided.</p>',
      authorName: 'Green Streets, a community charity',
      buttonText: 'Count Me In',
      buttonColor: '#047857',
      backgroundColor: '#ecfdf5',
      imageUrl: image('volunteer-signup'),
      textAlignment: 'center',
      titleFont: 'Poppins',
      descriptionFont: 'Inter',
      authorFont: 'Inter',
      thankYouHeadline: 'Thank you for joining!',
      thankYouSubtext: "We'll e-mail you the dates of the next planting days near you. See you with a spade!",
      metaTitle: 'Volunteer with Green Streets: plant trees near you',
      metaDescription:
        'Green Streets volunteers plant and care for trees where shade is needed most. Join the list to hear about planting days near you; no experience needed.',
      metaImageUrl: image('volunteer-signup'),
    },
  },
  {
    slug: 'petition',
    name: 'Petition',
    category: 'nonprofits',
    description: 'Collect names for a petition and keep signers posted on what happens next.',
    fields: {
      title: 'Safe Streets to School',
      subtext:
        '<p>Every morning, 600 children cross Elm Road on their way to school, with no crossing and cars passing at 40 mph.</p>' +
        '<p>We are asking the city council for a <strong>zebra crossing and a 20 mph zone</strong> before the new school year. ' +
        'Add your name: at 1,000 signatures, we present the petition at the council meeting.</p>',
      authorName: "Elm Road Parents' Association",
      buttonText: 'Add My Name',
      buttonColor: '#b91c1c',
      backgroundColor: '#fff7ed',
      imageUrl: image('petition'),
      textAlignment: 'left',
      titleFont: 'Roboto',
      descriptionFont: 'Roboto',
      authorFont: 'Roboto',
      thankYouHeadline: 'Thank you for signing!',
      thankYouSubtext: "We'll e-mail you when we present the petition, and tell you what the council decides.",
      metaTitle: 'Petition: Safe Streets to School on Elm Road',
      metaDescription:
        'Ask the city council for a zebra crossing and a 20 mph zone on Elm Road, where 600 children cross every morning. Add your name to the petition.',
      metaImageUrl: image('petition'),
    },
  },
];
