import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../lib/constants';
import type { LegalDocument } from './legal.types';

export const PRIVACY: LegalDocument = {
  title: 'Privacy Policy',
  effective: 'Effective 2025',
  intro: `This policy explains what ${PRODUCT_NAME} stores about account holders, and about visitors who sign up on their pages, and how it is handled.`,
  sections: [
    {
      heading: 'Account data',
      paragraphs: [
        'For your account we store your name (username), your email address and your password in hashed form. We never store your password itself.',
      ],
    },
    {
      heading: 'Visitors who sign up on a page',
      paragraphs: [
        'When you leave your email address on a page made with Plink, we store it for the page’s creator, together with a record of how you gave it: the consent text the page showed you (word for word), the privacy link beside it, when you ticked the box and when you signed up.',
        'Unless the server is set to keep minimal records, that record also holds your IP address and your browser’s name and version (its user agent) at the moment you signed up, and, on a page that asks you to confirm your email address, at the moment you pressed Confirm. These are never written to our logs.',
        'A page may ask you to confirm your email address: you then get an email with a Confirm button, and nothing is sent to you (nor to the creator’s other tools) until you press it. If you never confirm, you get one reminder after two days, and your address is deleted after seven days.',
        'The record exists so that the creator can prove, to you or to an authority, that you agreed and how. It is kept exactly as long as your address is, and removed with it, for example when the creator deletes the page or their account.',
      ],
    },
    {
      heading: 'Payments',
      paragraphs: [
        'Payment details are entered with and held by our card payment provider. We do not see or store your card number.',
      ],
    },
    {
      heading: 'Cookies',
      paragraphs: ['We use essential cookies only, for example to keep you signed in.'],
    },
    {
      heading: 'Deleting your account',
      paragraphs: [
        'Deleting your account removes your pages and the data collected through them, including the email addresses of your leads.',
      ],
    },
    {
      heading: 'Contact',
      paragraphs: [`Questions about your data? Write to ${SUPPORT_EMAIL}.`],
    },
  ],
};
