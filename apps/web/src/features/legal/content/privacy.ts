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
        'A page made with Plink belongs to its creator, who collects your email address. Plink stores and processes it for them and on their behalf: the creator decides what it is used for. When the creator gives their own privacy policy, the page’s consent line names them and links to it (“I agree to the privacy policy of …”); read it to learn what they do with your address.',
        'When you leave your email address on a page, we store it for the page’s creator, together with a record of how you gave it: the consent text the page showed you (word for word), the privacy link beside it, when you ticked the box and when you signed up, and where you came from (the referring site and campaign tags of the page’s address, and whether you used a phone, tablet or computer).',
        'Unless the server is set to keep minimal records, that record also holds your IP address and your browser’s name and version (its user agent) at the moment you signed up, and, on a page that asks you to confirm your email address, at the moment you pressed Confirm. These are never written to our logs.',
        'A page may ask you to confirm your email address: you then get an email with a Confirm button, and nothing is sent to you (nor to the creator’s other tools) until you press it. If you never confirm, you get one reminder after two days, and your address is deleted after seven days.',
        'The record exists so that the creator can prove, to you or to an authority, that you agreed and how. It is kept exactly as long as your address is, and removed with it.',
        'How long your address is kept: until the creator deletes it, or deletes the page (14 days later, when the page leaves the Trash) or their account (at once). If the creator’s paid plan ends, the addresses collected by their paused pages are deleted 30 days later.',
        'To have your address deleted, ask the creator: they can delete any lead at any time, and it is then gone from their list, their exports and their statistics, and no longer sent to their other tools. Their contact is in their privacy policy, or write to us and we will pass your request on.',
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
      heading: 'What is deleted when',
      paragraphs: [
        'A page you delete goes to the Trash: its address stops working at once, and you can restore it from Settings for 14 days. Then the page is removed for good, with its leads, its statistics and the images uploaded for it. “Delete forever” in the Trash does this at once.',
        'You can delete any lead of your pages at any time, one by one or several at once. It is removed at once from your list, your exports and your statistics, and it is not sent to your webhook any more.',
        'Deleting your account is immediate: your pages, their leads, statistics and uploaded images, and your webhook delivery logs are removed at once.',
        'If your account took the free Pro trial, one thing stays after it is deleted: a scrambled code made from your email address with a secret key (not the address itself, and nothing else about you), so that the free trial is not offered again to a new account with the same address.',
        'An export of your account’s data is offered as a download link that works for 24 hours.',
      ],
    },
    {
      heading: 'Contact',
      paragraphs: [`Questions about your data? Write to ${SUPPORT_EMAIL}.`],
    },
  ],
};
