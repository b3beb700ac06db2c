import { exportFilename, leadsCsvStream, neutraliseCell } from './leads-csv';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('leads CSV', () => {
  it.each([
    ['=cmd|"/c calc"!A1', `'=cmd|"/c calc"!A1`],
    ['+cmd@example.com', `'+cmd@example.com`],
    ['-2+3@example.com', `'-2+3@example.com`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tx', `'\tx`],
    ['\rx', `'\rx`],
    ['ada@example.com', 'ada@example.com'],
    ['', ''],
  ])('neutralises %j', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  it('names the file after the sanitised title, else the slug', () => {
    expect(exportFilename('My Great Guide!', 'x')).toBe('leads-my-great-guide.csv');
    expect(exportFilename('  ~~Ünïcode & "quotes"/..\\  ', 'x')).toBe('leads-n-code-quotes.csv');
    expect(exportFilename('', 'photo-guide')).toBe('leads-photo-guide.csv');
    expect(exportFilename('!!!', 'photo-guide')).toBe('leads-photo-guide.csv');
    expect(exportFilename('a'.repeat(300), 's')).toBe(`leads-${'a'.repeat(80)}.csv`);
  });

  it('writes a header and one row per lead with ISO UTC times, quoting what needs it', async () => {
    async function* batches() {
      yield [{ email: 'ada@example.com', createdAt: new Date('2026-01-02T03:04:05.678Z'), consentAt: new Date('2026-01-02T03:04:05.000Z') }];
      yield [{ email: '+x,y@example.com', createdAt: new Date('2026-01-03T00:00:00Z'), consentAt: null }];
    }
    const csv = await text(leadsCsvStream(batches(), 'my-page'));
    expect(csv).toBe(
      'email,created_at,consent_at,page_slug\n' +
        'ada@example.com,2026-01-02T03:04:05.678Z,2026-01-02T03:04:05.000Z,my-page\n' +
        `"'+x,y@example.com",2026-01-03T00:00:00.000Z,,my-page\n`,
    );
  });

  it('writes only the header for a page without leads', async () => {
    async function* none() {}
    expect(await text(leadsCsvStream(none(), 's'))).toBe('email,created_at,consent_at,page_slug\n');
  });
});
