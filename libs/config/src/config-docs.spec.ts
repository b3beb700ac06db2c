import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CONFIGURATION_DOC_FILE, ENV_EXAMPLE_FILE, configSections, renderConfigurationDoc, renderEnvExample } from './config-docs';
import { envSchema, loadConfig } from './config.schema';

const base = { DATABASE_URL: 'postgres://plink:secret@db:5432/plink' };

/** The `# KEY=value` lines of an .env file, uncommented, read the way `npm start` reads .env (quotes removed). */
function uncommented(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^# ([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) vars[m[1]] = m[2].startsWith('"') ? m[2].slice(1, m[2].lastIndexOf('"')) : m[2];
  }
  return vars;
}

describe('the configuration reference', () => {
  it('is committed as docs/configuration.md exactly as the config schema generates it (run `npm run build` to update it)', () => {
    expect(readFileSync(CONFIGURATION_DOC_FILE, 'utf8')).toBe(renderConfigurationDoc());
  });

  it('is committed as .env.example exactly as the config schema generates it (run `npm run build` to update it)', () => {
    expect(readFileSync(ENV_EXAMPLE_FILE, 'utf8')).toBe(renderEnvExample());
  });

  it('lists every variable of the schema once, in both files', () => {
    const doc = renderConfigurationDoc();
    const example = uncommented(renderEnvExample());
    for (const name of Object.keys(envSchema.shape)) {
      expect({ name, rows: doc.split('\n').filter((line) => line.startsWith(`| \`${name}\` |`)).length }).toEqual({ name, rows: 1 });
      expect(example).toHaveProperty(name);
    }
  });

  it('shows the defaults the apps really use: .env.example with every line uncommented changes nothing', () => {
    const example = uncommented(renderEnvExample());
    expect(example).toMatchObject({ PORT: '3000', MAIL_FROM: 'Plink <no-reply@plink.local>', TRUST_PROXY: 'false', DATABASE_URL: '' });
    expect(loadConfig({ ...example, ...base })).toEqual(loadConfig(base));
  });

  it('gives the table a default, "required" or what unset means for each variable', () => {
    const doc = renderConfigurationDoc();
    expect(doc).toContain('| `PORT` | `3000` |');
    expect(doc).toContain('| `DATABASE_URL` | required |');
    expect(doc).toContain('| `PUBLIC_ORIGIN` | same as `APP_ORIGIN` |');
    expect(doc).toContain('| `S3_BUCKET` | — |');
  });

  it('refuses a variable without a description, or one no group lists', () => {
    const groups = [{ title: 'T', variables: ['A', 'B'] }];
    const described = z.string().default('x').meta({ description: 'A thing.' });
    expect(() => configSections(z.object({ A: described, B: z.string().optional() }), groups)).toThrow('B has no description');
    expect(() => configSections(z.object({ A: described, B: described, C: described }), groups)).toThrow('missing C');
    expect(configSections(z.object({ A: described, B: described }), groups)[0].variables[0]).toEqual({
      name: 'A',
      value: 'x',
      unset: undefined,
      required: false,
      description: 'A thing.',
    });
  });
});
