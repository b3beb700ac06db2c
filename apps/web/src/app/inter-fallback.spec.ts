import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFontStack } from '@capsizecss/core';
import arial from '@capsizecss/metrics/arial';
import inter from '@capsizecss/metrics/inter';
import { theme } from './theme';

/**
 * The bold faces' average widths (capsize's xWidthAvg, in 2048ths of an em), read with @capsizecss/unpack from
 * @fontsource/inter's inter-latin-700-normal.woff2 and from Liberation Sans Bold (Arial Bold's metric twin):
 * @capsizecss/metrics measures the regulars only. Their heights are the regulars'.
 */
const bold = <T extends typeof inter | typeof arial>(metrics: T, xWidthAvg: number): T => ({
  ...metrics,
  xWidthAvg,
  subsets: { ...metrics.subsets, latin: { xWidthAvg } },
});
const INTER_BOLD = bold(inter, 1008);
const ARIAL_BOLD = bold(arial, 983);

/** The descriptors of the shell's `@font-face` rules for 'Inter Fallback', by weight. */
function fallbackFaces(): Map<string, Record<string, string>> {
  const shell = readFileSync(join(__dirname, '../../index.html'), 'utf8');
  const faces = new Map<string, Record<string, string>>();
  for (const [, body] of shell.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const descriptors = Object.fromEntries(
      body
        .split(';')
        .map((part) => part.split(/:(.*)/s).map((text) => text.trim()))
        .filter(([name, value]) => name && value),
    );
    if (descriptors['font-family'] === "'Inter Fallback'") faces.set(descriptors['font-weight'], descriptors);
  }
  return faces;
}

/** What capsize computes for a fallback drawn in place of `font`, as CSS descriptors. */
function overrides(font: typeof inter, fallback: typeof arial): Record<string, string> {
  const [face] = createFontStack([font, fallback], { fontFaceFormat: 'styleObject' }).fontFaces;
  const { ascentOverride, descentOverride, lineGapOverride, sizeAdjust } = face['@font-face'];
  return {
    'size-adjust': String(sizeAdjust),
    'ascent-override': String(ascentOverride),
    'descent-override': String(descentOverride),
    'line-gap-override': String(lineGapOverride),
  };
}

describe("the text shown until Inter arrives ('Inter Fallback', index.html)", () => {
  it('comes right after Inter in the app’s font stack', () => {
    const families = theme.fontFamily!.split(',').map((family) => family.trim());
    expect(families.slice(0, 2)).toEqual(['Inter', '"Inter Fallback"']);
  });

  it('is Arial or a metric twin, sized and spaced like Inter, regular and bold', () => {
    const faces = fallbackFaces();
    expect([...faces.keys()].sort()).toEqual(['400', '700']);
    const regular = faces.get('400')!;
    const boldFace = faces.get('700')!;
    for (const name of ['Arial', 'Liberation Sans', 'Arimo']) expect(regular.src).toContain(`local('${name}')`);
    for (const name of ['Arial Bold', 'Liberation Sans Bold', 'Arimo Bold']) expect(boldFace.src).toContain(`local('${name}')`);
    expect(regular).toMatchObject(overrides(inter, arial));
    expect(boldFace).toMatchObject(overrides(INTER_BOLD, ARIAL_BOLD));
  });
});
