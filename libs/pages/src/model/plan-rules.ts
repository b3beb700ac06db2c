import type { PageFields } from '@plink/contracts';

/** Who is saving a page, as far as the plan rules care. */
export interface Saver {
  isPremium: boolean;
}

/**
 * The plan rules on saved fields (docs/product-rules.md; the server's rules, the SPA only mirrors them). A Free page
 * always carries the branding and has neither a webhook nor custom code. The API does not refuse a Free
 * request that asks otherwise: it saves the Free values (the SPA resets those controls for Free users
 * anyway, and a downgraded Pro user can still edit their page). This runs on every save, so a page saved
 * after a downgrade drops its Pro settings.
 */
export function applyPlanRules<F extends Partial<PageFields>>(fields: F, saver: Saver): F {
  if (saver.isPremium) return fields;
  return { ...fields, showBranding: true, webhookUrl: null, customCodeSnippet: null };
}
