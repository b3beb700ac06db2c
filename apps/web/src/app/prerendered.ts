/** The class of the brand loader the HTML shell draws inside #root until the app runs (index.html). */
export const BOOT_LOADER_CLASS = 'plink-boot';

/**
 * Whether #root holds a prerendered screen (home, terms, privacy for signed-out visitors), which the app
 * hydrates, rather than the shell's brand loader, which the app replaces.
 */
export function isPrerendered(root: Element): boolean {
  const first = root.firstElementChild;
  return first !== null && !first.classList.contains(BOOT_LOADER_CLASS);
}
