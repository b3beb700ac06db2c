import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../lib/constants';
import type { LegalDocument } from './legal.types';

export const TERMS: LegalDocument = {
  title: 'Terms of Service',
  effective: 'Effective 2025',
  intro: `These terms govern your use of ${PRODUCT_NAME}, a service for building landing pages that collect email addresses. By creating an account or publishing a page you agree to them.`,
  sections: [
    {
      heading: 'Your content',
      paragraphs: [
        `${PRODUCT_NAME} does not moderate the pages, files or links its users publish.`,
        'You are responsible for the content of your pages and for the data you collect through them, including obtaining any consent your visitors must give and complying with the laws that apply to you.',
      ],
    },
    {
      heading: 'Suspension and removal',
      paragraphs: [
        `${PRODUCT_NAME} may suspend or remove pages or accounts at its discretion, for example when a page is used for spam, fraud or unlawful content.`,
      ],
    },
    {
      heading: 'Fees',
      paragraphs: [
        'The Free plan costs nothing. The Pro plan is billed monthly and can be cancelled at any time; it starts with a 14-day free trial that needs no credit card.',
        'Fees are non-refundable unless the law requires otherwise.',
      ],
    },
    {
      heading: 'Limitation of liability',
      paragraphs: [
        `To the extent the law allows, the total liability of ${PRODUCT_NAME} for any claim is capped at the amount you paid for the service in the 12 months before the claim.`,
      ],
    },
    {
      heading: 'Contact',
      paragraphs: [`Questions about these terms? Write to ${SUPPORT_EMAIL}.`],
    },
  ],
};
