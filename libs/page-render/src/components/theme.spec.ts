import { FONTS } from '@plink/contracts';
import { LANDING_PAGE_CSS } from './styles';
import { contrastTextColor, cssUrl, fontStack, safeColor, safeUrl, thankYouButton } from './theme';

describe('theme helpers', () => {
  it('gives every font a creator can choose a family list ending in a generic family', () => {
    for (const font of FONTS) {
      const stack = fontStack(font);
      expect(stack.startsWith(`${font},`)).toBe(true);
      expect(stack).toMatch(/(sans-serif|serif|monospace)$/);
      expect(stack).not.toMatch(/["';{}<>]/);
    }
    expect(fontStack('Evil"};body{x:y')).toBe('Evilbodyxy,system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif');
    expect(fontStack(null)).toMatch(/^system-ui/);
    expect(fontStack('3D')).toMatch(/^system-ui/);
  });

  it('picks black or white text for contrast', () => {
    expect(contrastTextColor('#000000')).toBe('#ffffff');
    expect(contrastTextColor('#ffffff')).toBe('#000000');
    expect(contrastTextColor('#1d4ed8')).toBe('#ffffff');
    expect(contrastTextColor('#fde047')).toBe('#000000');
    expect(contrastTextColor('#ff0000')).toBe('#000000');
    expect(contrastTextColor('not a colour')).toBe('#ffffff');
  });

  it('keeps colours in #rrggbb form', () => {
    expect(safeColor('#aBc123', '#000000')).toBe('#aBc123');
    expect(safeColor('red;position:fixed', '#000000')).toBe('#000000');
    expect(safeColor(null, '#ffffff')).toBe('#ffffff');
  });

  it('allows only http(s) URLs and paths on this site', () => {
    expect(safeUrl('https://example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeUrl('http://example.com')).toBe('http://example.com');
    expect(safeUrl('/uploads/a.png')).toBe('/uploads/a.png');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:image/png;base64,AA', '//evil.example', '/\\evil.example', 'https:///x', '', '  ', null, undefined]) {
      expect(safeUrl(bad)).toBeNull();
    }
  });

  it('escapes CSS url() values', () => {
    expect(cssUrl('https://a.example/x.png')).toBe('url("https://a.example/x.png")');
    expect(cssUrl('https://a.example/x"),url(evil')).toBe('url("https://a.example/x\\22 ),url(evil")');
    expect(cssUrl('https://a.example/\\x')).toBe('url("https://a.example/\\5c x")');
  });

  it('makes a thank-you button only when both text and URL are set', () => {
    expect(thankYouButton({ thankYouButtonText: 'Go', thankYouButtonUrl: 'https://a.example' })).toEqual({ text: 'Go', url: 'https://a.example' });
    expect(thankYouButton({ thankYouButtonText: 'Go', thankYouButtonUrl: null })).toBeNull();
    expect(thankYouButton({ thankYouButtonText: null, thankYouButtonUrl: 'https://a.example' })).toBeNull();
    expect(thankYouButton({ thankYouButtonText: 'Go', thankYouButtonUrl: 'javascript:alert(1)' })).toBeNull();
  });

  it('scopes every CSS rule to plk- classes', () => {
    const selectors = LANDING_PAGE_CSS.split('}')
      .map((rule) => rule.split('{')[0].trim())
      .filter(Boolean);
    for (const selector of selectors) {
      for (const part of selector.split(',')) expect(part.trim()).toMatch(/^\.plk-/);
    }
    expect(LANDING_PAGE_CSS).toContain('max-width:420px');
    expect(LANDING_PAGE_CSS).toContain('height:260px');
  });
});
