import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** Where tests find Redis: TEST_REDIS_URL, else the machine's server on 127.0.0.1:6379. */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** A key prefix no other run shares. */
export function uniqueRedisPrefix(): string {
  return `plinktest:${Date.now().toString(36)}${randomBytes(3).toString('hex')}:`;
}

/** Deletes every key under `prefix` (a test's cleanup). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  // No reconnecting: a client left retrying a stopped Redis would keep the test process alive.
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function freePort(): Promise<number> {
  // Below the range the system hands out for port 0 (and outgoing connections): a port found with listen(0) and
  // closed again could go to another process's listen(0) before the app took it, and with test files starting
  // apps side by side one now and then failed with EADDRINUSE. A random pick here meets only another freePort.
  const top = ephemeralPortsStart();
  const bottom = Math.max(10_000, top - 12_000);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = bottom + Math.floor(Math.random() * (top - bottom));
    if (await canListen(port)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** The first port of the system's ephemeral range (Linux's ip_local_port_range; 32768 elsewhere). */
function ephemeralPortsStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 11_000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether a server can listen on `port` on every address (as the apps do) right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

export interface ControlledRedisOptions {
  /**
   * Persist like the deployment's Redis (AOF, as in docker-compose, synced every second). Redis writes
   * each change to its AOF before it answers, so a killed redis-server (SIGKILL) loses nothing it
   * acknowledged; only a crash of the machine could lose the last second. Off: no persistence at all,
   * so a restart starts empty.
   */
  appendOnly?: boolean;
}

/**
 * A redis-server of the test's own, on a port of its own, that the test can stop (SIGKILL) and start
 * again on the same port and data folder (to show what an outage does). Needs `redis-server` on PATH.
 */
export class ControlledRedis {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'plink-redis-'));
  private constructor(
    public readonly port: number,
    private readonly options: ControlledRedisOptions,
  ) {}

  static async start(options: ControlledRedisOptions = {}): Promise<ControlledRedis> {
    const redis = new ControlledRedis(await freePort(), options);
    await redis.start();
    return redis;
  }

  /** Whether the server is running now. */
  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const persistence = this.options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', this.dir], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${this.port}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.child = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
