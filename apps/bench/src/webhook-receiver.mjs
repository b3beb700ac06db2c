// The webhook part's receiver: a stand-in for a creator's automation tool, which runs on someone else's machine.
// A process of its own, started by bench.mjs at idle priority where the OS has one (Linux SCHED_IDLE, through
// `chrt --idle 0`): it runs only on CPU that Plink's processes leave, as a remote receiver takes none of
// theirs, and it still answers every webhook (its CPU is measured and printed like the others').
//
// It answers 204 at once and notes each webhook's id, address, lead creation time and arrival time. The parent
// asks over IPC ({ type: 'sync' }) and gets the notes made since its last ask ({ type: 'records', records }).
import { createServer } from 'node:http';

let pending = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(204).end();
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString());
      pending.push({ id: req.headers['webhook-id'], email: event.data.email, createdAt: Date.parse(event.data.createdAt), at });
    } catch {
      pending.push({ id: req.headers['webhook-id'], email: null, createdAt: NaN, at });
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));

process.on('message', (message) => {
  if (message?.type !== 'sync') return;
  const records = pending;
  pending = [];
  process.send({ type: 'records', records });
});
process.on('disconnect', () => process.exit(0));
