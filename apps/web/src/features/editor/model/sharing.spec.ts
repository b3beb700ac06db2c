import { metaDescriptionHint } from './sharing';

describe('meta description hint', () => {
  it('guides towards 150-160 characters', () => {
    expect(metaDescriptionHint('')).toEqual({ text: 'the page text is used when empty', tone: 'neutral' });
    expect(metaDescriptionHint('x'.repeat(149)).text).toBe('1 more for the recommended length');
    expect(metaDescriptionHint('x'.repeat(150))).toEqual({ text: 'a good length', tone: 'good' });
    expect(metaDescriptionHint('x'.repeat(160)).tone).toBe('good');
    expect(metaDescriptionHint('x'.repeat(161)).text).toBe('1 over the recommended length; search engines may cut it');
  });
});
