import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../lib/constants';
import type { LegalDocument } from './legal.types';

export const PRIVACY: LegalDocument = {
  title: 'Privacy Policy',
  effective: 'Effective 2025',
  intro: `This policy explains what ${PRODUCT_NAME} stores about account holders and how it is handled.`,
  sections: [
    {
      heading: 'Account data',
      paragraphs: [
        'For your account we store your name (username), your email address and your password in hashed form. We never store your password itself.',
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
