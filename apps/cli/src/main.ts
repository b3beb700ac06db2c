import { runPlinkCommand } from '@plink/billing';
import { assertNodeVersion, initLogger } from '@plink/platform';

/**
 * `npm run plink -- <command>`: the operator's commands (see `npm run plink -- help`). The result line goes
 * to stdout, problems to stderr, logs (JSON, no e-mail addresses) to stderr; the exit code says how it went.
 */
assertNodeVersion();
void runPlinkCommand(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  onConfig: (config) => initLogger({ level: config.logLevel, pretty: false, name: 'plink', destination: process.stderr }),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`plink: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
