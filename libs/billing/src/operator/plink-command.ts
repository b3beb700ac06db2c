import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Module, type INestApplicationContext, type ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { QueueName, UserDirectory } from '@plink/contracts';
import { PlatformModule } from '@plink/platform';
import { ConfigError, loadConfig, type AppConfig } from '@plink/config';
import { JobQueue, Outbox } from '@plink/queue';
import { getLogger, runWithCorrelation } from '@plink/observability';
import { withOrmContext, type ServiceSchema } from '@plink/data';
import { BillingOperatorModule } from '../billing.module';
import { BILLING_SCHEMA } from '../billing.schema';
import { OperatorCommandError, OperatorPlansService, type OperatorResult } from '../use-cases/operator-plans.service';

const MAX_DAYS = 3650;
/** How long a plan command waits, by default, for the running app to show the change (`--wait`). */
const DEFAULT_WAIT_S = 30;
const MAX_WAIT_S = 3600;
/** Exit code of a change recorded but not applied within the wait. */
export const EXIT_QUEUED = 3;

export const PLINK_USAGE = `Usage: npm run plink -- <command>

Commands:
  migrate                       Apply every pending database migration (a cluster runs it before a rollout;
                                apps started with MIGRATE_ON_START=false refuse to start until it has run).
  grant-pro <email> [--days N] [--wait S]
                                Make the user with this e-mail address Pro, for N days (1-3650) or without end.
                                A running grant is replaced. The user gets a "Welcome to Pro" e-mail.
  revoke-pro <email> [--wait S] End the user's operator grant now. The user gets a "Your Pro plan has ended" e-mail.
  help                          Show this help.

A plan command returns once every part of the running app has the new plan (the account, the pages, the
lead capture), waiting at most S seconds (--wait, 0-3600, default ${DEFAULT_WAIT_S}). Where no Plink worker runs, the change stays queued and applies when one does.

Settings: in a checkout where npm start runs, none (the command takes the database npm start gave the app).
Otherwise DATABASE_URL as the app has it (see .env.example). The change is recorded in the database and the
running app passes it on to its workers: the command itself puts nothing into Redis.

Exit codes: 0 done; 1 could not be done (unknown e-mail address, configuration, database); 2 bad arguments;
3 recorded but not applied within the wait: queued, it applies when a Plink worker runs.`;

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
  /** The one line said when DATABASE_URL is not set (the CLI says where it looked). */
  missingDatabase?: string;
}

/**
 * Where the command finds users by e-mail address: a module providing the `UserDirectory` port of the contracts
 * globally, and the schemas it reads. Billing does not know users; the process that runs the command
 * composes the identity service for it (`apps/cli`).
 */
export interface PlinkCommandUsers {
  module: NonNullable<ModuleMetadata['imports']>[number];
  schemas: ServiceSchema[];
}

type Parsed =
  | { command: 'help' }
  | { command: 'grant-pro'; email: string; days: number | null; waitS: number }
  | { command: 'revoke-pro'; email: string; waitS: number };

class UsageError extends Error {}


/**
 * The operator's command line (`npm run plink -- …`). Answers the exit code: 0 done, 1 could not be done
 * (unknown e-mail, configuration, database), 2 bad arguments, {@link EXIT_QUEUED} recorded but not applied
 * within the wait (no Plink worker took it: it applies when one runs). It boots only what it needs: the `users`
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

  const env = io.env ?? process.env;
  if (!env.DATABASE_URL?.trim()) {
    io.err(io.missingDatabase ?? 'plink: DATABASE_URL is not set.');
    return 1;
  }
  let config: AppConfig;
  try {
    config = loadConfig(env);
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
    app.get(Outbox).follow(correlationId);
    const { line, result, recorded } = await runWithCorrelation(correlationId, () => withOrmContext(orm, async () => {
      if (parsed.command === 'grant-pro') {
        const result = await operator.grantPro(parsed.email, parsed.days, now);
        getLogger().info(
          { userId: result.user.id, days: parsed.days, expiresAt: result.expiresAt?.toISOString() ?? null, changed: result.changed },
          'operator granted Pro',
        );
        return { line: grantLine(parsed.email, result), result, recorded: true };
      }
      const result = await operator.revokePro(parsed.email, now);
      getLogger().info({ userId: result.user.id, changed: result.changed }, 'operator revoked Pro');
      return result.changed
        ? { line: `Revoked Pro from ${parsed.email} (user ${result.user.id}).`, result, recorded: true }
        : { line: `${parsed.email} (user ${result.user.id}) is not Pro; nothing changed.`, result, recorded: false };
    }));
    io.out(line);
    if (!recorded) return 0;
    const outcome = await untilApplied(app, correlationId, result, parsed.waitS * 1000);
    if (outcome === 'applied') return 0;
    const where =
      outcome === 'in-database'
        ? 'it waits in the database until a running Plink process on it passes it on'
        : 'a running Plink process passed it on to Redis, where it waits for a worker';
    io.err(`plink: queued; will apply when a Plink worker runs (not applied within ${parsed.waitS} s; ${where}).`);
    return EXIT_QUEUED;
  } catch (err) {
    if (err instanceof OperatorCommandError) {
      io.err(`plink: ${err.message}`);
      return 1;
    }
    getLogger().error({ err }, 'plink command failed');
    io.err(`plink: ${oneLine(err)}`);
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
  let values: { days?: string; wait?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: command === 'grant-pro' ? { days: { type: 'string' }, wait: { type: 'string' } } : { wait: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }) as { values: { days?: string; wait?: string }; positionals: string[] });
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message.split('\n')[0]}`);
  }
  if (positionals.length !== 1) throw new UsageError(`${command} takes one e-mail address (got ${positionals.length}).`);
  const email = positionals[0].trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`"${email}" is not an e-mail address.`);
  let waitS = DEFAULT_WAIT_S;
  if (values.wait !== undefined) {
    if (!/^\d+$/.test(values.wait) || Number(values.wait) > MAX_WAIT_S) {
      throw new UsageError(`--wait must be a whole number of seconds from 0 to ${MAX_WAIT_S} (got "${values.wait}").`);
    }
    waitS = Number(values.wait);
  }
  if (command === 'revoke-pro') return { command, email, waitS };
  let days: number | null = null;
  if (values.days !== undefined) {
    if (!/^\d+$/.test(values.days) || Number(values.days) < 1 || Number(values.days) > MAX_DAYS) {
      throw new UsageError(`--days must be a whole number of days from 1 to ${MAX_DAYS} (got "${values.days}").`);
    }
    days = Number(values.days);
  }
  return { command, email, days, waitS };
}

async function createOperatorContext(config: AppConfig, users: PlinkCommandUsers): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformModule.forRoot({ config, schemas: [...users.schemas, BILLING_SCHEMA] }), users.module, BillingOperatorModule] })
  class PlinkCommandModule {}
  // Nest's own boot lines would bury the result; problems still throw.
  const app = await NestFactory.createApplicationContext(PlinkCommandModule, { logger: false, abortOnError: false });
  // The change reaches the workers through the running app's relay, on the app's own key prefix.
  app.get(Outbox).leaveRelayToOthers();
  await app.init();
  return app;
}

/**
 * Waits until the running app has the change everywhere: every message the command recorded (billing's
 * 'plan.changed' to identity, pages and leads, and the plan e-mail) has left the outbox and been run by a
 * worker on this database and key prefix, whoever relayed it (a running Plink process's relay: this command
 * leaves every row to them). So once it returns, the user's requests, their pages and the lead capture all
 * go by the new plan: no lead captured afterwards is judged by the old one.
 *
 * A command that cannot reach Redis itself (the app's Redis is not the one it was given) cannot see the jobs
 * run: it then waits until its messages have left the outbox and identity's copy of the user shows the plan,
 * the part of the change it can see.
 */
async function untilApplied(
  app: INestApplicationContext,
  correlationId: string,
  result: OperatorResult,
  waitMs: number,
): Promise<'applied' | 'in-redis' | 'in-database'> {
  const outbox = app.get(Outbox);
  const jobs = app.get(JobQueue);
  const users = app.get(UserDirectory);
  const messages = outbox.recordedUnder(correlationId);
  const redisReachable = await Promise.race([
    jobs.ping().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref()),
  ]);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const inDatabase = (await outbox.countWaiting(correlationId)) > 0;
    if (!inDatabase) {
      if (redisReachable) {
        // Each message's job has the message's id; one no longer in its queue has run (completed jobs are trimmed).
        const states = await Promise.all(messages.map((m) => jobs.queue(m.queue as QueueName).getJobState(m.id)));
        if (states.every((state) => state === 'completed' || state === 'unknown')) return 'applied';
      } else {
        const shown = await users.isPremiumNow(result.user.id);
        if (shown === null || shown === result.isPremium) return 'applied';
      }
    }
    if (Date.now() >= deadline) return inDatabase ? 'in-database' : 'in-redis';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An unexpected error as one line: a contract's validation issues by field, never the raw dump. */
function oneLine(err: unknown): string {
  const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
  if (Array.isArray(issues)) return `invalid data: ${issues.map((i) => `${i.path.map(String).join('.') || '(value)'}: ${i.message}`).join('; ')}`;
  return String((err as Error).message ?? err).replace(/\s*\n\s*/g, ' ');
}
