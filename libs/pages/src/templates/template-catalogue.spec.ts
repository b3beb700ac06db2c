import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_LIMITS, TEMPLATE_CATEGORIES, TEMPLATE_SLUGS, createPageSchema, isExampleSlug } from '@plink/contracts';
import { contrastTextColor } from '@plink/page-render';
import { sanitizeRichText } from '../rich-text/sanitize-rich-text';
import { TEMPLATE_CATALOGUE } from './template-catalogue';

/** WCAG contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const templates = TEMPLATE_CATALOGUE.filter((entry) => !entry.example);

describe('the template catalogue', () => {
  it('has a template for each slug the editor takes, in order, the example pages first', () => {
    expect(TEMPLATE_CATALOGUE.map((entry) => entry.slug)).toEqual(TEMPLATE_SLUGS);
    expect(TEMPLATE_CATALOGUE.length).toBeGreaterThanOrEqual(12);
    expect(TEMPLATE_CATALOGUE.filter((entry) => entry.example).map((entry) => entry.slug)).toEqual(['photo-guide', 'startupwkly', 'saas-waitlist']);
    // A template that is no page leaves its slug free for creators.
    for (const entry of templates) expect(isExampleSlug(entry.slug)).toBe(false);
    expect(TEMPLATE_SLUGS).not.toContain('blank');
  });

  it('gives every category of the filter at least one template, each a name and a one-sentence description', () => {
    expect(new Set(TEMPLATE_CATALOGUE.map((entry) => entry.category))).toEqual(new Set(TEMPLATE_CATEGORIES));
    for (const entry of TEMPLATE_CATALOGUE) {
      expect(entry.name.length).toBeLessThanOrEqual(24);
      expect(entry.description).toMatch(/^[A-Z].{20,100}\.$/);
    }
  });

  it.each(templates.map((entry) => [entry.slug, entry] as const))('%s saves as a page: valid fields, rich text kept as written', (slug, entry) => {
    const parsed = createPageSchema.safeParse({ ...entry.fields, slug: 'my-page' });
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    // Written in the editor's rich-text subset: the sanitiser of every save changes nothing.
    expect(sanitizeRichText(entry.fields.subtext)).toBe(entry.fields.subtext);
    if (entry.fields.emailBody) expect(sanitizeRichText(entry.fields.emailBody)).toBe(entry.fields.emailBody);
  });

  it.each(templates.map((entry) => [entry.slug, entry.fields] as const))('%s is a whole page: copy, thank-you, sharing texts and its picture', (slug, fields) => {
    for (const text of [fields.title, fields.subtext, fields.authorName, fields.buttonText, fields.thankYouHeadline, fields.thankYouSubtext, fields.metaTitle]) {
      expect(text?.trim()).toBeTruthy();
    }
    // Not the defaults a blank page has.
    expect(fields.thankYouHeadline).not.toBe('Thank you!');
    expect(fields.buttonText).not.toBe('Submit');
    // Search engines show about 160 characters; the editor recommends 150-160.
    expect(fields.metaDescription?.length).toBeGreaterThanOrEqual(110);
    expect(fields.metaDescription?.length).toBeLessThanOrEqual(160);
    expect(fields.metaTitle!.length).toBeLessThanOrEqual(60);
    expect(fields.imageUrl).toBe(`/uploads/templates/${slug}.jpg`);
    expect(fields.metaImageUrl).toBe(fields.imageUrl);
    // A delivery e-mail, when the template has one, has both its subject and its text.
    expect(!!fields.emailSubject).toBe(!!fields.emailBody);
    expect((fields.emailSubject ?? '').length).toBeLessThanOrEqual(PAGE_LIMITS.emailSubject);
  });

  it.each(templates.map((entry) => [entry.slug, entry.fields] as const))('%s has a button whose text reads at WCAG AA contrast', (_slug, fields) => {
    const button = fields.buttonColor!;
    expect(contrast(button, contrastTextColor(button))).toBeGreaterThanOrEqual(4.5);
  });

  it.each(templates.map((entry) => entry.slug))('%s has its picture committed: a small JPEG', (slug) => {
    const file = join(__dirname, 'images', `${slug}.jpg`);
    expect(readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(statSync(file).size).toBeLessThanOrEqual(60_000);
  });
});
