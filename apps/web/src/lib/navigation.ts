/** The home page anchors linked from the navbar and the footer. */
export const PRODUCT_ANCHORS = [
  { label: 'Features', href: '/#features' },
  { label: 'Pricing', href: '/#pricing' },
  { label: 'Examples', href: '/#examples' },
] as const;
