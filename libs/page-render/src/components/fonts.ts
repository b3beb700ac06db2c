import type { Font } from '@plink/contracts';

/**
 * The web fonts of the font choices (FONTS), self-hosted: the gateway serves their files at `/fonts/{file}`
 * from the `@fontsource/*` packages (no request to a third party, which keeps visitors private and
 * works offline). The other choices (Arial, Georgia, …) are system fonts and download nothing.
 *
 * A page loads only what it draws: the fonts chosen for its title, description and author, in the
 * weights their bold flags ask for (400 or 700), in the latin and latin-ext subsets, split by
 * `unicode-range` so a browser fetches latin-ext only for text that needs it. `font-display: swap`
 * shows the text at once in the fallback and swaps when the font arrives.
 */
export const WEB_FONT_PACKAGES: Partial<Record<Font, string>> = {
  Inter: 'inter',
  Roboto: 'roboto',
  'Open Sans': 'open-sans',
  Lato: 'lato',
  Montserrat: 'montserrat',
  Poppins: 'poppins',
  Raleway: 'raleway',
  Merriweather: 'merriweather',
  'Playfair Display': 'playfair-display',
  Nunito: 'nunito',
  Oswald: 'oswald',
  // Source Sans Pro's successor, same design; the page keeps the name creators picked.
  'Source Sans Pro': 'source-sans-3',
  Ubuntu: 'ubuntu',
  Rubik: 'rubik',
  'Work Sans': 'work-sans',
  'PT Sans': 'pt-sans',
  'Noto Sans': 'noto-sans',
  Quicksand: 'quicksand',
  'Titillium Web': 'titillium-web',
  'Fira Sans': 'fira-sans',
  'Space Grotesk': 'space-grotesk',
};

export const FONT_WEIGHTS = [400, 700] as const;
export type FontWeight = (typeof FONT_WEIGHTS)[number];

const SUBSETS = {
  latin:
    'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  'latin-ext':
    'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
} as const;
type Subset = keyof typeof SUBSETS;

/** The URL path under which the gateway serves font files. */
export const FONTS_PATH = '/fonts';

/** The file name of one font file, as the `@fontsource` package names it. */
export function fontFileName(pkg: string, subset: Subset, weight: FontWeight): string {
  return `${pkg}-${subset}-${weight}-normal.woff2`;
}

/** Every file the gateway may serve: file name → package (anything else under /fonts is a 404). */
export function webFontFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const pkg of Object.values(WEB_FONT_PACKAGES)) {
    for (const subset of Object.keys(SUBSETS) as Subset[]) {
      for (const weight of FONT_WEIGHTS) files.set(fontFileName(pkg as string, subset, weight), pkg as string);
    }
  }
  return files;
}

export interface PageFonts {
  titleFont: Font;
  titleBold: boolean;
  descriptionFont: Font;
  descriptionBold: boolean;
  authorFont: Font;
  authorBold: boolean;
}

/** The (web font, weight) pairs a page draws, without repeats, in a stable order. */
export function usedWebFonts(page: PageFonts): { font: Font; pkg: string; weight: FontWeight }[] {
  const wanted: [Font, FontWeight[]][] = [
    [page.titleFont, [page.titleBold ? 700 : 400]],
    // The description's rich text may hold <strong> and headings, so a regular one needs the bold face too.
    [page.descriptionFont, page.descriptionBold ? [700] : [400, 700]],
    [page.authorFont, [page.authorBold ? 700 : 400]],
  ];
  const seen = new Set<string>();
  const used: { font: Font; pkg: string; weight: FontWeight }[] = [];
  for (const [font, weights] of wanted) {
    const pkg = WEB_FONT_PACKAGES[font];
    if (!pkg) continue;
    for (const weight of weights) {
      const key = `${pkg}:${weight}`;
      if (seen.has(key)) continue;
      seen.add(key);
      used.push({ font, pkg, weight });
    }
  }
  return used;
}

function faces(fonts: { font: Font; pkg: string; weight: FontWeight }[], base: string): string {
  return fonts
    .flatMap(({ font, pkg, weight }) =>
      (Object.keys(SUBSETS) as Subset[]).map(
        (subset) =>
          `@font-face{font-family:'${font}';font-style:normal;font-display:swap;font-weight:${weight};` +
          `src:url(${base}/${fontFileName(pkg, subset, weight)}) format('woff2');unicode-range:${SUBSETS[subset]}}`,
      ),
    )
    .join('\n');
}

/** `@font-face` rules for the fonts a page draws ('' when it uses system fonts only). */
export function fontFaceCss(page: PageFonts, base = FONTS_PATH): string {
  return faces(usedWebFonts(page), base);
}

/**
 * `@font-face` rules for every web font (the editor: its font menu and live preview). Declaring a
 * face downloads nothing; a browser fetches a file only when text on screen uses it.
 */
export function allFontFacesCss(base = FONTS_PATH): string {
  const all = (Object.entries(WEB_FONT_PACKAGES) as [Font, string][]).flatMap(([font, pkg]) =>
    FONT_WEIGHTS.map((weight) => ({ font, pkg, weight })),
  );
  return faces(all, base);
}

/** The latin files of the title's font, worth a `<link rel="preload">`: the headline is seen first. */
export function preloadFontUrls(page: PageFonts, base = FONTS_PATH): string[] {
  const pkg = WEB_FONT_PACKAGES[page.titleFont];
  if (!pkg) return [];
  return [`${base}/${fontFileName(pkg, 'latin', page.titleBold ? 700 : 400)}`];
}
