/**
 * Where each lead came from: `source` by precedence (`ref` > `source` > `utm_source` > referrer domain), then
 * each value as it arrived (`source_param`: the address's `?source=`).
 */
export const LEAD_SOURCE_COLUMNS = ['source', 'referrer', 'ref', 'source_param', 'utm_source', 'utm_medium', 'utm_campaign', 'device'] as const;

/** The columns of an export, in order (the header row); `signup_ip` only with LEAD_EVIDENCE=full. */
export const CSV_COLUMNS = [
  'email',
  'created_at',
  'consent_at',
  'page_slug',
  'status',
  'confirmed_at',
  'consent_version',
  'signup_ip',
  ...LEAD_SOURCE_COLUMNS,
] as const;

/** What an export holds beyond the lead itself. */
export interface CsvOptions {
  /** The install keeps full evidence (LEAD_EVIDENCE=full): the visitor's IP address at sign-up, `signup_ip`. */
  signupIp: boolean;
}

/** The header row's columns of an export made with `options`. */
export function csvColumns(options: CsvOptions): string[] {
  return CSV_COLUMNS.filter((column) => column !== 'signup_ip' || options.signupIp);
}

/** The characters that make a spreadsheet run a cell as a formula when the cell starts with one. */
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];

/**
 * A cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return)
 * gets a leading single quote, so it is shown as text.
 */
export function neutraliseCell(value: string): string {
  return FORMULA_STARTS.includes(value.charAt(0)) ? `'${value}` : value;
}

/** {@link neutraliseCell} in SQL, for the text column `column`. */
export function neutraliseCellSql(column: string): string {
  const starts = FORMULA_STARTS.map((c) => `chr(${c.charCodeAt(0)})`).join(', ');
  return `case when left(${column}, 1) in (${starts}) then '''' || ${column} else ${column} end`;
}

/** A timestamptz column as `Date.toISOString()` writes it: UTC, milliseconds, `Z` (null stays null). */
export function isoTimestampSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The `COPY … TO STDOUT` statement of a page's export: the header row, then one CSV row per lead in the
 * order they came (id order). PostgreSQL writes the CSV itself (quoting what needs it, an empty cell for
 * a missing consent). One statement, so one snapshot: a lead stored meanwhile is in it entirely or not at
 * all. COPY takes no bind parameters: `pageId` must be an integer and `slugLiteral` a literal already
 * escaped by the driver (`client.escapeLiteral`).
 */
export function leadsCopySql(pageId: number, slugLiteral: string, options: CsvOptions): string {
  if (!Number.isSafeInteger(pageId)) throw new Error(`leadsCopySql: page id ${pageId} is not an integer`);
  const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
    email: neutraliseCellSql('email'),
    created_at: isoTimestampSql('created_at'),
    consent_at: isoTimestampSql('consent_at'),
    page_slug: `${slugLiteral}::text`,
    // `pending` or `confirmed`; when the visitor confirmed by e-mail (double opt-in), empty otherwise.
    status: 'status',
    confirmed_at: isoTimestampSql('confirmed_at'),
    // The SHA-256 of the consent text shown (hex: never a formula); empty when none was shown or recorded.
    consent_version: 'consent_version',
    // host(): the address alone, without the /32 or /128 an inet would print.
    signup_ip: 'host(signup_ip)',
    // Visitor-chosen text (the page address's query): neutralised like the e-mail.
    source: neutraliseCellSql('coalesce(ref, ref_source, utm_source, referrer)'),
    referrer: neutraliseCellSql('referrer'),
    ref: neutraliseCellSql('ref'),
    source_param: neutraliseCellSql('ref_source'),
    utm_source: neutraliseCellSql('utm_source'),
    utm_medium: neutraliseCellSql('utm_medium'),
    utm_campaign: neutraliseCellSql('utm_campaign'),
    device: 'device',
  };
  return `copy (
    select ${csvColumns(options)
      .map((column) => `${cells[column as keyof typeof cells]} as ${column}`)
      .join(',\n           ')}
      from leads.leads where page_id = ${pageId} order by id
  ) to stdout with (format csv, header)`;
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
