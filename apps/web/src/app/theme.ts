import { DEFAULT_THEME, createTheme, type MantineColorsTuple } from '@mantine/core';

/** A Mantine palette with some shades replaced. */
function withShades(name: keyof typeof DEFAULT_THEME.colors, shades: Record<number, string>): MantineColorsTuple {
  return DEFAULT_THEME.colors[name].map((shade, index) => shades[index] ?? shade) as unknown as MantineColorsTuple;
}

/**
 * Text colours meet WCAG AA (4.5:1) on white and on the light grey cards: Mantine's shade 6 is the "dimmed"
 * text (gray, #868e96 is 3.3:1) and the text of red and green badges and menu items, so those shades are
 * darkened (gray 5.4:1, red 5.5:1, green 4.6:1 on white).
 *
 * Red's shade 7 is the filled buttons of the dialogs that delete or leave (white on #f03e3e was 3.8:1) and
 * `c="red"` error text; 8 their hover, 9 the text of light red alerts and buttons: darker reds give 5.8:1,
 * 6.7:1 and 6.1:1 (5.1:1 hovered).
 *
 * Orange marks what a downgrade paused (badges, "Keep this page live", the lead-removal notice). Its light
 * variant writes shade 9 on shade 1 and its filled buttons white on shade 7 (hover 8): Mantine's #d9480f and
 * #f76707 gave 3.6:1 and 3.0:1. Burnt oranges keep the colour and reach 5.5:1 (4.8:1 hovered) and 5.2:1.
 *
 * Green's shade 9 is the text of light green badges ('Active', 'delivered' in the webhook panel) on shade 1:
 * #2b8a3e on #d3f9d8 was 3.8:1, #1e6b30 gives 5.7:1.
 */
const colors = {
  gray: withShades('gray', { 6: '#646b72' }),
  red: withShades('red', { 6: '#c92a2a', 7: '#c22828', 8: '#b02525', 9: '#a61e1e' }),
  green: withShades('green', { 6: '#2b8a3e', 7: '#237032', 9: '#1e6b30' }),
  orange: withShades('orange', { 7: '#c2410c', 8: '#b83d06', 9: '#a63a06' }),
};

export const theme = createTheme({
  primaryColor: 'violet',
  // Violet 7 (#7048e8): links and buttons keep 4.5:1 on white and on the light grey of hovered rows (violet 6: 4.4:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  colors,
  // 'Inter Fallback' (index.html): Arial sized like Inter, so the page does not move when Inter arrives.
  fontFamily:
    'Inter, "Inter Fallback", "Inter Fallback Roboto", system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  // Plain objects, not Menu.extend()/Modal.extend(): naming the components here would put their code (and
  // the floating and dialog libraries under them) into every screen's first load.
  components: {
    // No focusable placeholder inside role="menu" (a menu holds only its items); focus goes to the first item.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Dialog titles read as titles. Mantine's close cross has no name of its own: a screen reader would say
    // just "button".
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } },
    },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});
