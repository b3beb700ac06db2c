import { FONTS } from '@plink/contracts';
import { existsSync } from 'node:fs';
import { resolveFontFile } from '../server/font-files';
import { WEB_FONT_PACKAGES, allFontFacesCss, fontFaceCss, preloadFontUrls, usedWebFonts, webFontFiles, type PageFonts } from './fonts';

const page = (fields: Partial<PageFonts> = {}): PageFonts => ({
  titleFont: 'Inter',
  titleBold: true,
  descriptionFont: 'Inter',
  descriptionBold: false,
  authorFont: 'Inter',
  authorBold: false,
  ...fields,
});

describe('landing page fonts', () => {
  it('has a file on disk for every web font, subset and weight it may name', () => {
    const files = [...webFontFiles().keys()];
    expect(files).toHaveLength(Object.keys(WEB_FONT_PACKAGES).length * 2 * 2);
    for (const file of files) expect(existsSync(resolveFontFile(file) as string)).toBe(true);
  });

  it('treats every font a creator can choose either as a web font or as a system font', () => {
    const system = FONTS.filter((font) => !WEB_FONT_PACKAGES[font]);
    expect(system).toEqual([
      'Arial', 'Helvetica', 'Times New Roman', 'Georgia', 'Verdana', 'Tahoma', 'Trebuchet MS', 'Courier New',
      'Lucida Console', 'Palatino Linotype', 'Impact',
    ]);
  });

  it('asks once for a font shared by title, description and author', () => {
    expect(usedWebFonts(page()).map(({ pkg, weight }) => `${pkg}:${weight}`)).toEqual(['inter:700', 'inter:400']);
  });

  it('asks for the bold face only when a bold flag needs it', () => {
    const used = usedWebFonts(page({ titleFont: 'Oswald', titleBold: false, descriptionFont: 'Lato', descriptionBold: true, authorFont: 'Rubik', authorBold: true }));
    expect(used.map(({ pkg, weight }) => `${pkg}:${weight}`)).toEqual(['oswald:400', 'lato:700', 'rubik:700']);
  });

  it('writes a swap face per subset with its unicode range, and nothing for system fonts', () => {
    const css = fontFaceCss(page({ titleFont: 'Source Sans Pro', descriptionFont: 'Arial', authorFont: 'Georgia' }));
    expect(css.split('\n')).toHaveLength(2);
    expect(css).toContain("font-family:'Source Sans Pro'");
    expect(css).toContain('src:url(/fonts/source-sans-3-latin-700-normal.woff2)');
    expect(css).toContain('src:url(/fonts/source-sans-3-latin-ext-700-normal.woff2)');
    expect(css).toMatch(/font-display:swap/);
    expect(css).toMatch(/unicode-range:U\+0000-00FF/);
    expect(fontFaceCss(page({ titleFont: 'Arial', descriptionFont: 'Arial', authorFont: 'Impact' }))).toBe('');
  });

  it('preloads the headline font only when it is a web font', () => {
    expect(preloadFontUrls(page({ titleFont: 'Poppins', titleBold: false }))).toEqual(['/fonts/poppins-latin-400-normal.woff2']);
    expect(preloadFontUrls(page({ titleFont: 'Impact' }))).toEqual([]);
  });

  it('declares every web font for the editor, both weights and subsets', () => {
    const css = allFontFacesCss();
    expect(css.split('\n')).toHaveLength(Object.keys(WEB_FONT_PACKAGES).length * 4);
    for (const file of webFontFiles().keys()) expect(css).toContain(`/fonts/${file}`);
  });

  it('refuses any file name outside the list', () => {
    expect(resolveFontFile('../package.json')).toBeNull();
    expect(resolveFontFile('inter-latin-400-normal.woff')).toBeNull();
    expect(resolveFontFile('inter-cyrillic-400-normal.woff2')).toBeNull();
  });
});
