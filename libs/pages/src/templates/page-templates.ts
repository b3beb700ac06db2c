import { Injectable } from '@nestjs/common';
import { createPageSchema, type PageTemplateDto, type PageTemplateEntryDto } from '@plink/contracts';
import { templateFieldsOf, toPageTemplate, withEveryField } from '../model/page.dto';
import type { Page } from '../model/page.entity';
import { PagesRepository } from '../model/pages.repository';
import { sanitizeRichText } from '../rich-text/sanitize-rich-text';
import { TEMPLATE_CATALOGUE, type CatalogueEntry, type TemplateFields } from './template-catalogue';

/**
 * Fields as a saved page would store them: the create schema's defaults for what is left out, the rich texts
 * through the page text's sanitiser. A template that would not save fails here, at the first request.
 */
function asSaved(fields: TemplateFields): Record<string, unknown> {
  const parsed: Record<string, unknown> = createPageSchema.parse({ ...fields, slug: 'template' });
  for (const rich of ['subtext', 'emailBody'] as const) {
    if (parsed[rich] !== undefined) parsed[rich] = sanitizeRichText(parsed[rich] as string | null);
  }
  return parsed;
}

/** A catalogue template that is no page: its own fields over the defaults. */
const dataTemplate = (entry: CatalogueEntry): PageTemplateDto => templateFieldsOf(withEveryField(asSaved(entry.fields)));

/** An example page's template: its row as visitors see it, with the catalogue's additions (never shown on the page). */
function exampleTemplate(entry: CatalogueEntry, row: Page): PageTemplateDto {
  const additions = Object.keys(entry.fields);
  const saved = asSaved(entry.fields);
  return { ...toPageTemplate(row), ...Object.fromEntries(additions.map((field) => [field, saved[field] ?? null])) };
}

/**
 * The page templates a new page starts from (the editor's gallery): Plink's example pages, read from their
 * rows, and the catalogue's other templates, which are data. An example whose row is not there (a creator held
 * its slug first) is left out.
 */
@Injectable()
export class PageTemplates {
  private readonly data = new Map<string, PageTemplateDto>();

  constructor(private readonly pages: PagesRepository) {}

  async list(): Promise<PageTemplateEntryDto[]> {
    const examples = new Map((await this.pages.findExamples()).map((row) => [row.slug.toLowerCase(), row]));
    return TEMPLATE_CATALOGUE.flatMap((entry) => {
      const page = this.templateOf(entry, examples.get(entry.slug));
      if (!page) return [];
      const { slug, name, category, description } = entry;
      return [{ slug, name, category, description, imageUrl: page.imageUrl ?? null, page }];
    });
  }

  /** The template of a slug (any case), or null. */
  async find(slug: string): Promise<PageTemplateDto | null> {
    const entry = TEMPLATE_CATALOGUE.find((e) => e.slug === slug.toLowerCase());
    if (!entry) return null;
    const row = entry.example ? await this.pages.findBySlug(entry.slug) : undefined;
    return this.templateOf(entry, row?.isExample ? row : undefined);
  }

  private templateOf(entry: CatalogueEntry, exampleRow: Page | undefined): PageTemplateDto | null {
    if (entry.example) return exampleRow ? exampleTemplate(entry, exampleRow) : null;
    let template = this.data.get(entry.slug);
    if (!template) {
      template = dataTemplate(entry);
      this.data.set(entry.slug, template);
    }
    return template;
  }
}
