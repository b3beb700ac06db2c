import { DEFAULT_THEME, defaultCssVariablesResolver, luminance, mergeMantineTheme } from '@mantine/core';
import { theme } from '../app/theme';

/** The app theme's CSS variables in the light scheme, as MantineProvider writes them to the page. */
const cssVariables: Record<string, string> = (() => {
  const { variables, light } = defaultCssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme));
  return { ...variables, ...light };
})();

/** The colour a CSS value such as var(--mantine-color-orange-light-color) comes to. */
function resolveColor(value: string): string {
  const name = /^var\((--[\w-]+)\)$/.exec(value.trim())?.[1];
  if (!name) return value;
  if (!(name in cssVariables)) throw new Error(`No CSS variable ${name}`);
  return resolveColor(cssVariables[name]);
}

/**
 * The WCAG contrast ratio between two of the colours Mantine paints a component with. Mantine sets them on
 * the element as CSS variables (--badge-color, --button-bg, --button-hover, --alert-bg, ...); jsdom has no
 * stylesheet to compute the rest.
 */
export function contrast(element: HTMLElement, foreground: string, background: string): number {
  const [a, b] = [foreground, background].map((variable) => luminance(resolveColor(element.style.getPropertyValue(variable))));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
