import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Module, type INestApplicationContext, type ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { ConfigError, JobQueue, Outbox, PlatformModule, getLogger, loadConfig, runWithCorrelation, withOrmContext, type AppConfig, type ServiceSchema } from '@plink/platform';
import { BillingOperatorModule } from '../billing.module';
import { BILLING_SCHEMA } from '../billing.schema';
import { OperatorCommandError, OperatorPlansService, type OperatorResult } from '../use-cases/operator-plans.service';

export const PLINK_USAGE = `Usage: npm run plink -- <command>

Commands:
  migrate                       Apply every pending database migration (a cluster runs it before a rollout;
                                apps started with MIGRATE_ON_START=false refuse to start until it has run).
  grant-pro <email> [--days N]  Make the user with this e-mail address Pro, for N days (1-3650) or without end.
                                A running grant is replaced. The user gets a "Welcome to Pro" e-mail.
  revoke-pro <email>            End the user's operator grant now. The user gets a "Your Pro plan has ended" e-mail.
  help                          Show this help.

Uses DATABASE_URL and REDIS_URL (see .env.example). When Redis is not reachable the change is still
recorded, and applied once a Plink process reaches Redis again.`;

export interface PlinkCommandIo {
  /** The one-line result (and the help). */
  out(line: string): void;
  /** Problems. */
  err(line: string): void;
  /** The environment (process.env by default). */
  env?: NodeJS.ProcessEnv;
  /** Called once the configuration is read, before anything else (the CLI sets its logger up here). */
  onConfig?(config: AppConfig): void;
  /** The clock (tests). */
  now?: Date;
}

/**
 * Where the command finds users by e-mail address: a module providing the platform's `UserDirectory` port
 * globally, and the schemas it reads. Billing does not know users; the process that runs the command
 * composes the identity service for it (`apps/cli`).
 */
export interface PlinkCommandUsers {
  module: NonNullable<ModuleMetadata['imports']>[number];
  schemas: ServiceSchema[];
}

type Parsed = { command: 'help' } | { command: 'grant-pro'; email: string; days: number | null } | { command: 'revoke-pro'; email: string };

class UsageError extends Error {}

const MAX_DAYS = 3650;
/** How long the command waits for its jobs to reach Redis before saying they are recorded and will follow. */
const RELAY_WAIT_MS = 3_000;

/**
 * The operator's command line (`npm run plink -- …`). Answers the exit code: 0 done, 1 could not be done
 * (unknown e-mail, configuration, database), 2 bad arguments. It boots only what it needs: the `users`
 * directory it is given and billing's plan changes, on the configured database (migrating it like any
 * Plink process).
 */
export async function runPlinkCommand(argv: string[], io: PlinkCommandIo, users: PlinkCommandUsers): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`plink: ${(err as Error).message}`);
    io.err('Run "npm run plink -- help" for the commands.');
    return 2;
  }
  if (parsed.command === 'help') {
    io.out(PLINK_USAGE);
    return 0;
  }

  let config: AppConfig;
  try {
    config = loadConfig(io.env ?? process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`plink: ${err.message}`);
    return 1;
  }
  io.onConfig?.(config);

  let app: INestApplicationContext | undefined;
  const correlationId = `plink-${randomUUID()}`;
  try {
    app = await createOperatorContext(config, users);
    const operator = app.get(OperatorPlansService);
    const now = io.now ?? new Date();
    const orm: Parameters<typeof withOrmContext>[0] = app.get(MikroORM);
    const line = await runWithCorrelation(correlationId, () => withOrmContext(orm, async () => {
      if (parsed.command === 'grant-pro') {
        const result = await operator.grantPro(parsed.email, parsed.days, now);
        getLogger().info(
          { userId: result.user.id, days: parsed.days, expiresAt: result.expiresAt?.toISOString() ?? null, changed: result.changed },
          'operator granted Pro',
        );
        return grantLine(parsed.email, result);
      }
      const result = await operator.revokePro(parsed.email, now);
      getLogger().info({ userId: result.user.id, changed: result.changed }, 'operator revoked Pro');
      return result.changed ? `Revoked Pro from ${parsed.email} (user ${result.user.id}).` : `${parsed.email} (user ${result.user.id}) is not Pro; nothing changed.`;
    }));
    io.out(line);
    // Still waiting, or relayed by another process (the command itself cannot reach Redis): say so either way.
    if ((await relayOwnJobs(app, correlationId)) > 0 || !app.get(JobQueue).ready()) {
      io.err('plink: Redis is not reachable now: the change is recorded and is applied as soon as a Plink process reaches Redis again.');
    }
    return 0;
  } catch (err) {
    if (err instanceof OperatorCommandError) {
      io.err(`plink: ${err.message}`);
      return 1;
    }
    getLogger().error({ err }, 'plink command failed');
    io.err(`plink: ${(err as Error).message}`);
    return 1;
  } finally {
    await app?.close();
  }
}

function grantLine(email: string, result: OperatorResult): string {
  const until = result.expiresAt ? `until ${result.expiresAt.toISOString()}` : 'without end';
  return result.changed ? `Granted Pro to ${email} (user ${result.user.id}) ${until}.` : `${email} (user ${result.user.id}) was already Pro; the grant now runs ${until}.`;
}

function parse(argv: string[]): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('no command given.');
  if (command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (command !== 'grant-pro' && command !== 'revoke-pro') throw new UsageError(`unknown command "${command}".`);
  let values: { days?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: command === 'grant-pro' ? { days: { type: 'string' } } : {},
      allowPositionals: true,
      strict: true,
    }) as { values: { days?: string }; positionals: string[] });
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (positionals.length !== 1) throw new UsageError(`${command} takes one e-mail address (got ${positionals.length}).`);
  const email = positionals[0].trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`"${email}" is not an e-mail address.`);
  if (command === 'revoke-pro') return { command, email };
  let days: number | null = null;
  if (values.days !== undefined) {
    if (!/^\d+$/.test(values.days) || Number(values.days) < 1 || Number(values.days) > MAX_DAYS) {
      throw new UsageError(`--days must be a whole number of days from 1 to ${MAX_DAYS} (got "${values.days}").`);
    }
    days = Number(values.days);
  }
  return { command, email, days };
}

async function createOperatorContext(config: AppConfig, users: PlinkCommandUsers): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformModule.forRoot({ config, schemas: [...users.schemas, BILLING_SCHEMA] }), users.module, BillingOperatorModule] })
  class PlinkCommandModule {}
  // Nest's own boot lines would bury the result; problems still throw.
  const app = await NestFactory.createApplicationContext(PlinkCommandModule, { logger: false, abortOnError: false });
  await app.init();
  return app;
}

/**
 * Moves the command's own jobs (its outbox rows) to Redis before it exits; answers how many are still
 * waiting (Redis away), which another Plink process's relay sends later.
 */
async function relayOwnJobs(app: INestApplicationContext, correlationId: string): Promise<number> {
  const outbox = app.get(Outbox);
  const deadline = Date.now() + RELAY_WAIT_MS;
  for (;;) {
    const waiting = await outbox.countWaiting(correlationId);
    if (waiting === 0 || Date.now() > deadline) return waiting;
    await outbox.relayOnce().catch(() => 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
