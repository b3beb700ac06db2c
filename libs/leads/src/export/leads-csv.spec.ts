import { csvColumns, exportFilename, leadsCopySql, neutraliseCell } from './leads-csv';

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

  it('puts only an integer page id into the COPY statement (COPY takes no bind parameters)', () => {
    expect(leadsCopySql(42, "'my-page'", { signupIp: true })).toContain('where page_id = 42 order by id');
    expect(() => leadsCopySql(Number('1; drop table leads.leads'), "'x'", { signupIp: true })).toThrow('is not an integer');
    expect(() => leadsCopySql(1.5, "'x'", { signupIp: false })).toThrow('is not an integer');
  });

  it('always has the consent version, and the sign-up IP address only where the install keeps it', () => {
    const sources = ['source', 'referrer', 'ref', 'source_param', 'utm_source', 'utm_medium', 'utm_campaign', 'device'];
    expect(csvColumns({ signupIp: true })).toEqual(['email', 'created_at', 'consent_at', 'page_slug', 'status', 'confirmed_at', 'consent_version', 'signup_ip', ...sources]);
    expect(csvColumns({ signupIp: false })).toEqual(['email', 'created_at', 'consent_at', 'page_slug', 'status', 'confirmed_at', 'consent_version', ...sources]);
    expect(leadsCopySql(42, "'p'", { signupIp: false })).not.toContain('signup_ip');
    expect(leadsCopySql(42, "'p'", { signupIp: true })).toContain('host(signup_ip) as signup_ip');
  });
});
