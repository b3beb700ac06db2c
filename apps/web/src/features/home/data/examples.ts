/** Static example pages shown on the home page as cards. */
export interface ExamplePage {
  id: number;
  title: string;
  subtext: string;
  buttonText: string;
  slug: string;
  image: string;
  align: 'center' | 'left';
}

export const EXAMPLE_PAGES: ExamplePage[] = [
  {
    id: 1,
    title: 'Free Photography Cheat Sheet',
    subtext: 'Master exposure, composition and light with a one-page guide for every shoot.',
    buttonText: 'Send Me the Guide',
    slug: 'photo-guide',
    image: '/uploads/examples/photo-guide.jpg',
    align: 'center',
  },
  {
    id: 2,
    title: 'Startup Weekly',
    subtext: 'The five stories founders should read, every Monday. No spam, unsubscribe anytime.',
    buttonText: 'Subscribe',
    slug: 'startupwkly',
    image: '/uploads/examples/startupwkly.jpg',
    align: 'left',
  },
  {
    id: 3,
    title: 'Join the Waitlist',
    subtext: 'Be the first to try our new analytics tool for small teams when it launches.',
    buttonText: 'Get Early Access',
    slug: 'saas-waitlist',
    image: '/uploads/examples/saas-waitlist.jpg',
    align: 'center',
  },
];
