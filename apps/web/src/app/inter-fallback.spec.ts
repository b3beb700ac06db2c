import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFontStack } from '@capsizecss/core';
import arial from '@capsizecss/metrics/arial';
import inter from '@capsizecss/metrics/inter';
import roboto from '@capsizecss/metrics/roboto';
import { theme } from './theme';

/**
 * The bold faces' average widths (capsize's xWidthAvg, in 2048ths of an em), read with @capsizecss/unpack from
 * @fontsource/inter's inter-latin-700-normal.woff2, from Liberation Sans Bold (Arial Bold's metric twin) and from
 * Roboto Bold (Debian's fonts-roboto-unhinted, Roboto-Bold.ttf): @capsizecss/metrics measures the regulars only.
 * Their heights are the regulars'.
 */
const bold = <T extends typeof inter | typeof arial | typeof roboto>(metrics: T, xWidthAvg: number): T => ({
  ...metrics,
  xWidthAvg,
  subsets: { ...metrics.subsets, latin: { xWidthAvg } },
});
const INTER_BOLD = bold(inter, 1008);
const ARIAL_BOLD = bold(arial, 983);
const ROBOTO_BOLD = bold(roboto, 927);

/** The descriptors of the shell's `@font-face` rules of a family, by weight. */
function fallbackFaces(family = 'Inter Fallback'): Map<string, Record<string, string>> {
  const shell = readFileSync(join(__dirname, '../../index.html'), 'utf8');
  const faces = new Map<string, Record<string, string>>();
  for (const [, body] of shell.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const descriptors = Object.fromEntries(
      body
        .split(';')
        .map((part) => part.split(/:(.*)/s).map((text) => text.trim()))
        .filter(([name, value]) => name && value),
    );
    if (descriptors['font-family'] === `'${family}'`) faces.set(descriptors['font-weight'], descriptors);
  }
  return faces;
}

/** What capsize computes for a fallback drawn in place of `font`, as CSS descriptors. */
function overrides(font: typeof inter, fallback: typeof arial | typeof roboto): Record<string, string> {
  const [face] = createFontStack([font, fallback], { fontFaceFormat: 'styleObject' }).fontFaces;
  const { ascentOverride, descentOverride, lineGapOverride, sizeAdjust } = face['@font-face'];
  return {
    'size-adjust': String(sizeAdjust),
    'ascent-override': String(ascentOverride),
    'descent-override': String(descentOverride),
    // capsize leaves it out when the fallback has no line gap of its own (Roboto): the same as 0 %.
    'line-gap-override': String(lineGapOverride ?? '0%'),
  };
}

describe("the text shown until Inter arrives ('Inter Fallback', index.html)", () => {
  it('comes right after Inter in the app’s font stack, Arial first, then Roboto', () => {
    const families = theme.fontFamily!.split(',').map((family) => family.trim());
    expect(families.slice(0, 3)).toEqual(['Inter', '"Inter Fallback"', '"Inter Fallback Roboto"']);
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

  it('is Roboto, sized and spaced like Inter, where Arial and its twins are missing (Android)', () => {
    const faces = fallbackFaces('Inter Fallback Roboto');
    expect([...faces.keys()].sort()).toEqual(['400', '700']);
    expect(faces.get('400')!.src).toContain("local('Roboto')");
    expect(faces.get('700')!.src).toContain("local('Roboto Bold')");
    expect(faces.get('400')).toMatchObject(overrides(inter, roboto));
    expect(faces.get('700')).toMatchObject(overrides(INTER_BOLD, ROBOTO_BOLD));
  });
});
