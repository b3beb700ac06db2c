import { PageMessages } from '@plink/contracts';
import type { PageFormValues } from './page-form';

/**
 * The editor's side of the plan rules (docs/product-rules.md). The server enforces them on save; the editor
 * explains them where the creator acts.
 */

export const PlanTexts = {
  premiumTitle: 'Premium Feature',
  premiumDescription: 'Webhooks and custom code are available on the Pro plan.',
  brandingRequiresPro: PageMessages.brandingRequiresPro,
  trackingProOnly: 'Tracking runs on the public page of Pro users only.',
} as const;

/**
 * The branding switch: a Free user may not turn it off (it returns on, with the message);
 * anyone may turn it on, Pro users may turn it off.
 */
export function brandingAfterToggle(isPremium: boolean, wanted: boolean): { showBranding: boolean; refused: boolean } {
  if (!wanted && !isPremium) return { showBranding: true, refused: true };
  return { showBranding: wanted, refused: false };
}

/** What a Free user's page is saved with, whatever the form holds (the server does the same). */
export function applyFreePlan(values: PageFormValues, isPremium: boolean): PageFormValues {
  if (isPremium) return values;
  return { ...values, showBranding: true, webhookUrl: '', customCodeSnippet: '' };
}
