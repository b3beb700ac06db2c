import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** The columns of an export, in order (the header row). */
export const CSV_COLUMNS = ['email', 'created_at', 'consent_at', 'page_slug'] as const;

export interface CsvLead {
  email: string;
  createdAt: Date;
  consentAt: Date | null;
}

/**
 * A cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return)
 * gets a leading single quote, so it is shown as text.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** `leads-{title}.csv`: the title lower-cased, other characters as '-', the slug when nothing is left. */
export function exportFilename(title: string, slug: string): string {
  const clean = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '');
  return `leads-${clean(title) || clean(slug) || 'page'}.csv`;
}

/** The CSV text of the leads that `batches` yields (a stream: one batch in memory at a time). */
export function leadsCsvStream(batches: AsyncIterable<CsvLead[]>, pageSlug: string): Readable {
  async function* rows() {
    for await (const batch of batches) {
      for (const lead of batch) {
        yield [
          neutraliseCell(lead.email),
          lead.createdAt.toISOString(),
          lead.consentAt ? lead.consentAt.toISOString() : '',
          neutraliseCell(pageSlug),
        ];
      }
    }
  }
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], eof: true, record_delimiter: 'unix' });
  const source = Readable.from(rows());
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
