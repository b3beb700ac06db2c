/**
 * Leaving the SPA for another site (Stripe Checkout, the Billing Portal) or reloading it. One object,
 * so that jsdom tests, which cannot navigate, can replace its methods with `jest.spyOn`.
 */
export const browserLocation = {
  /** A full page load of `url` (a page outside the SPA). */
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Loads the current address again (a 'Try Again' that starts the screen afresh). */
  reload(): void {
    window.location.reload();
  },
};
