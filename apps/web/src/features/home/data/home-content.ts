import {
  IconBolt,
  IconChart,
  IconDeviceMobile,
  IconFile,
  IconLink,
  IconMail,
} from '../../../components/icons';
import { PRODUCT_NAME } from '../../../lib/constants';

export const FEATURES = [
  {
    icon: IconBolt,
    title: 'Instant setup',
    description: 'Pick a headline, add a description and an image, and your page is live in under a minute.',
  },
  {
    icon: IconMail,
    title: 'Email collection',
    description: 'Every signup lands in your dashboard, ready to export whenever you need it.',
  },
  {
    icon: IconFile,
    title: 'File delivery',
    description: 'Offer a guide, an ebook or a template: subscribers receive your file link by email.',
  },
  {
    icon: IconLink,
    title: 'Instant share links',
    description: 'Each page gets a short, memorable URL you can share anywhere right away.',
  },
  {
    icon: IconDeviceMobile,
    title: 'Mobile-friendly pages',
    description: 'Your pages look great on every screen, from phones to wide desktop monitors.',
  },
  {
    icon: IconChart,
    title: 'Simple analytics',
    description: 'See views and conversions for every page at a glance, without extra tools.',
  },
] as const;

export const STEPS = [
  {
    title: 'Create your page',
    description: 'Write a headline and a short description, and add an image that fits your offer.',
  },
  {
    title: 'Add a file or just collect emails',
    description: 'Link a file your subscribers receive after signing up, or simply grow your list.',
  },
  {
    title: 'Share your custom URL',
    description: 'Post your link on social media, in your bio or in a newsletter and watch the signups come in.',
  },
] as const;

export const FAQ = [
  {
    question: 'Do I need a credit card to start?',
    answer: `No. The Free plan is free forever, and the 14-day Pro trial doesn't need a credit card either.`,
  },
  {
    question: 'How do subscribers receive my file?',
    answer: `Add a link to your file (hosted on any service you like). When a visitor signs up, ${PRODUCT_NAME} emails them the link.`,
  },
  {
    question: 'Can I export the emails I collect?',
    answer: 'Yes. On every plan you can download the leads of each page as a file and import them into your email tool.',
  },
  {
    question: 'Can I cancel Pro at any time?',
    answer: 'Yes. Pro is billed monthly and you can cancel anytime; your account returns to the Free plan.',
  },
] as const;
