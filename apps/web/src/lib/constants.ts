export const PRODUCT_NAME = 'Plink';
export const SUPPORT_EMAIL = 'support@plink.app';
export const SUPPORT_MAILTO = `mailto:${SUPPORT_EMAIL}`;
