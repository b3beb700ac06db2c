// Two (or N) gateway processes behind one port, with Node's cluster module: the primary accepts each
// connection and hands it to a worker process in turn (round robin), so the workers share PORT.
// Usage: node gateway-cluster.mjs <gateway main.js> <processes>. The first process starts (and migrates)
// alone; the others follow once it listens. SIGTERM stops them all, and this process after them.
import cluster from 'node:cluster';

const [main, count = '2'] = process.argv.slice(2);
cluster.setupPrimary({ exec: main });
const wanted = Number(count);
let stopping = false;

const first = cluster.fork();
first.once('listening', () => {
  for (let i = 1; i < wanted; i += 1) cluster.fork();
});
const listening = new Set();
cluster.on('listening', (worker) => {
  listening.add(worker.id);
  if (listening.size === wanted) process.send?.({ listening: wanted });
});
cluster.on('exit', (worker, code, signal) => {
  if (!stopping) console.error(`gateway process ${worker.process.pid} exited (${signal ?? code})`);
  if (Object.keys(cluster.workers).length === 0) process.exit(stopping ? 0 : 1);
});
process.on('SIGTERM', () => {
  stopping = true;
  for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
});
