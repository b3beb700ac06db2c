import { runPlinkCommand } from '@plink/billing';
import { IDENTITY_SCHEMA, IdentityUserDirectoryModule } from '@plink/identity';
import { assertNodeVersion } from '@plink/platform';
import { initLogger } from '@plink/observability';
import { runMigrate } from './migrate-command';
import { withNpmStartSettings } from './npm-start-settings';

/**
 * `npm run plink -- <command>`: the operator's commands (see `npm run plink -- help`). The result line goes
 * to stdout, problems to stderr, logs (JSON, no e-mail addresses) to stderr; the exit code says how it went.
 */
assertNodeVersion();
const argv = process.argv.slice(2);
const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  // Beside a running `npm start`, its database, Redis and key prefix (see npm-start-settings.ts).
  env: withNpmStartSettings(process.env),
  missingDatabase:
    'plink: DATABASE_URL is not set and no npm start runs in this checkout: run the command while npm start runs, or set DATABASE_URL, REDIS_URL and REDIS_PREFIX as the app has them.',
  onConfig: (config: { logLevel: string }) => initLogger({ level: config.logLevel, pretty: false, name: 'plink', destination: process.stderr }),
};

function migrate(): Promise<number> {
  if (argv.length > 1) {
    io.err('plink: migrate takes no arguments.');
    return Promise.resolve(2);
  }
  return runMigrate(io);
}

/** The operator's plan commands find users by e-mail address in identity, composed here with billing. */
const users = { module: IdentityUserDirectoryModule, schemas: [IDENTITY_SCHEMA] };

void (argv[0] === 'migrate' ? migrate() : runPlinkCommand(argv, io, users)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`plink: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
