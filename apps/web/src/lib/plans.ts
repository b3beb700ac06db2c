/** The plans (docs/product-rules.md), shared by the home page pricing and the settings subscription tab. */
export interface PlanFeature {
  label: string;
  included: boolean;
}

export interface Plan {
  id: 'free' | 'pro';
  name: string;
  price: string;
  period: string;
  summary: string;
  features: PlanFeature[];
}

const included = (label: string): PlanFeature => ({ label, included: true });

export const FREE_PLAN: Plan = {
  id: 'free',
  name: 'Free',
  price: '$0',
  period: 'per month',
  summary: 'Everything you need to launch your first page.',
  features: [
    included('1 active page'),
    included('Basic customisation'),
    included('Email collection and export'),
    included('File delivery via links'),
    included('Plink branding included'),
    { label: 'Webhook integration', included: false },
  ],
};

export const PRO_PLAN: Plan = {
  id: 'pro',
  name: 'Pro',
  price: '$10',
  period: 'per month, cancel anytime',
  summary: '14-day free trial. No credit card required for the trial.',
  features: [
    included('Unlimited pages'),
    included('Email collection and export'),
    included('File delivery'),
    included('Embedded tracking scripts (ad pixel, web analytics)'),
    included('Remove Plink branding'),
    included('Webhook integration with your automation tools'),
  ],
};

/** The four Pro features the checkout screen lists. */
export const PRO_CHECKOUT_FEATURES: PlanFeature[] = [
  included('Unlimited landing pages'),
  included('Remove branding'),
  included('Embed tracking scripts'),
  included('Webhooks'),
];

export const TRIAL_DAYS = 14;

/** What the upgrade offers say instead of the trial to a user who cannot have it (one trial per person). */
export const TRIAL_USED_TEXT = 'Your free trial has been used. Pro starts with your first payment.';

/** Where every upgrade button leads (the checkout screen wants a query string). */
export const UPGRADE_PATH = '/checkout?plan=pro';
