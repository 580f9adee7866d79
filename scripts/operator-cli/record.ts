// A recording proxy for the operator's CLI: forwards every request to the target unchanged and
// writes one JSON line per exchange ({method, url, status}) to a file, so that the exact
// requests the CLI sends can be replayed by tests/contract/operatorCli.test.ts without Go.
// Usage: node scripts/operator-cli/record.ts <listen port> <target origin> <output .jsonl>
//   e.g. node scripts/operator-cli/record.ts 18080 http://127.0.0.1:8080 /tmp/tff-requests.jsonl

import { appendFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

const [port, target, output] = process.argv.slice(2);
if (!port || !target || !output) {
  console.error('usage: record.ts <listen port> <target origin> <output .jsonl>');
  process.exit(2);
}
const origin = new URL(target);

createServer((req, res) => {
  const upstream = request(
    { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      appendFileSync(output, JSON.stringify({ method: req.method, url: req.url, status: answer.statusCode }) + '\n');
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    res.writeHead(502).end(String(error));
  });
  req.pipe(upstream);
}).listen(Number(port), '127.0.0.1', () => console.log(`recording ${target} on 127.0.0.1:${port} into ${output}`));
