import { DEFAULT_THEME, createTheme, type MantineColorsTuple } from '@mantine/core';

/** A Mantine palette with some shades replaced. */
function withShades(name: keyof typeof DEFAULT_THEME.colors, shades: Record<number, string>): MantineColorsTuple {
  return DEFAULT_THEME.colors[name].map((shade, index) => shades[index] ?? shade) as unknown as MantineColorsTuple;
}

/**
 * Text colours meet WCAG AA (4.5:1) on white and on the light grey cards: Mantine's shade 6 is the "dimmed"
 * text (gray, #868e96 is 3.3:1) and the text of red and green badges and menu items, so those shades are
 * darkened (gray 5.4:1, red 5.5:1, green 4.6:1 on white).
 */
const colors = {
  gray: withShades('gray', { 6: '#646b72' }),
  red: withShades('red', { 6: '#c92a2a' }),
  green: withShades('green', { 6: '#2b8a3e', 7: '#237032' }),
};

export const theme = createTheme({
  primaryColor: 'violet',
  // Violet 7 (#7048e8): links and buttons keep 4.5:1 on white and on the light grey of hovered rows (violet 6: 4.4:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  colors,
  // 'Inter Fallback' (index.html): Arial sized like Inter, so the page does not move when Inter arrives.
  fontFamily:
    'Inter, "Inter Fallback", system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  // Plain objects, not Menu.extend()/Modal.extend(): naming the components here would put their code (and
  // the floating and dialog libraries under them) into every screen's first load.
  components: {
    // No focusable placeholder inside role="menu" (a menu holds only its items); focus goes to the first item.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Dialog titles read as titles.
    Modal: { styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } } },
  },
});
