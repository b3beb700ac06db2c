// The baseline: a bare node:http server answering the same page bytes from memory. With a second file (the
// page as the gateway sends it brotli-compressed), a request whose Accept-Encoding names br gets those bytes.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const brotli = process.argv[3] ? readFileSync(process.argv[3]) : undefined;
const server = createServer((req, res) => {
  if (brotli && req.headers['accept-encoding']?.includes('br')) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br', vary: 'Accept-Encoding', 'content-length': brotli.length });
    res.end(brotli);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
