import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { TestEnvironment } from './test-environment';
import { freePort } from './test-redis';

export interface NpmStartOptions {
  /** The checkout's root (tools/start.mjs is under it). */
  root: string;
  /** The test's database, Redis prefix and mail settings, as the started app gets them. */
  env: TestEnvironment;
  /** The launcher's runtime file (where it tells `npm run plink` which app is running). */
  runtimeFile: string;
  /** Variables of this start; `undefined` removes one (e.g. `NODE_ENV: undefined` for npm start's own default). */
  vars?: Record<string, string | undefined>;
  /** How long it may take to be ready; 90 s by default (the first start runs every migration). */
  readyWithinMs?: number;
  /**
   * Also wait for `/health/ready` to answer 200 (its workers and dependencies up), not only for the launcher's
   * ready line (printed once the port is open).
   */
  healthy?: boolean;
}

export interface NpmStart {
  child: ChildProcess;
  origin: string;
  /** What the launcher itself printed so far (stderr), line by line. */
  launcher(): string[];
  /** The app's log so far (stdout). */
  log(): string;
  /** Stops it with SIGTERM, as Ctrl-C would, and waits for it to exit (nothing when it has already). */
  stop(): Promise<void>;
}

/**
 * `npm start` (tools/start.mjs: the gateway with every worker) as a developer runs it, on the built apps (the build
 * step is skipped: a test runs on what is built), on a free loopback port. Resolves once the launcher printed its
 * ready line (and, with `healthy`, once the app says it is ready); throws with the last of its output when it exits or is not ready in time (and stops it).
 */
export async function startNpmStart(options: NpmStartOptions): Promise<NpmStart> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env.vars,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_ORIGIN: origin,
    PLINK_SKIP_BUILD: '1',
    PLINK_RUNTIME_FILE: options.runtimeFile,
  };
  // jest's own markers would make the apps behave as under jest; npm start's default is every worker.
  delete childEnv.JEST_WORKER_ID;
  delete childEnv.PLINK_WORKERS;
  for (const [name, value] of Object.entries(options.vars ?? {})) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn(process.execPath, [join(options.root, 'tools/start.mjs')], { cwd: options.root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  child.stdout!.on('data', (d) => (stdout += String(d)));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const started: NpmStart = {
    child,
    origin,
    launcher: () => stderr.split('\n'),
    log: () => stdout,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + (options.readyWithinMs ?? 90_000);
  const ready = async () =>
    /\[plink\] 4\/4 ready/.test(stderr) && (!options.healthy || (await fetch(`${origin}/health/ready`).then((r) => r.status === 200, () => false)));
  while (!(await ready())) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await started.stop();
      throw new Error(`npm start did not become ready\n${(stderr + stdout).slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return started;
}
