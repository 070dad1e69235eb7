/* global performance */
/**
 * The machine's floor for a read: the same requests as readLive makes (a sequential chain of large pages beside
 * per-parent listings, at the client's parallelism), sent by bare undici from a fresh process to a bare
 * node:http server that answers a canned body after the same latency. No client library, no emulator, no
 * parsing beyond JSON.parse. What this costs on a machine is what no client could beat there: a benchmark
 * prints it beside its own figure, so a slow or shared machine is not mistaken for a slow client.
 *
 * The server answers with the bodies it is given (the benchmark passes real ones: a monitor page, a member
 * listing, an exclusion-period listing), so the floor parses what the client parses.
 *
 *   import { measureHttpFloor } from './lib/http-floor.mjs';
 *   const floor = await measureHttpFloor({ latency: 10, parallelism: 8, chain: { count: 100, body }, perParent: [{ count: 500, body }, { count: 100, body }] });
 *   // { cold: { wallMs, clientCpuMs, serverCpuMs }, warm: { ... } }
 *
 * An apply's floor instead: `levels`, each a number of writes (`method`, the JSON `request` sent, the `body` answered
 * with `status`) sent at the parallelism, a level only once the one before it is done, as applyPlan's dependency levels.
 *
 *   const floor = await measureHttpFloor({ latency: 10, parallelism: 8, levels: [{ count: 21, method: 'POST', request, status: 201, body }, …] });
 */
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { childCpuMs } from './emulator-process.mjs';

const SELF = fileURLToPath(import.meta.url);

function serve(options) {
  const kinds = options.levels ?? [{ body: options.chain.body }, ...options.perParent];
  const bodies = kinds.map((kind) => Buffer.from(kind.body));
  const server = createServer((req, res) => {
    const received = [];
    req.on('data', (chunk) => received.push(chunk));
    req.on('end', () => {
      // The server reads what a write sends, as a service would.
      if (received.length > 0) JSON.parse(Buffer.concat(received).toString('utf8'));
      setTimeout(() => {
        // /0/... is the chain (or the first level), /1/... and on the per-parent kinds (or the next levels); anything
        // else (the warm-up) gets the last.
        const k = Number(/^\/(\d+)\//.exec(req.url ?? '')?.[1] ?? bodies.length - 1);
        const body = bodies[k] ?? bodies[0];
        res.writeHead(kinds[k]?.status ?? 200, { 'content-type': 'application/json' });
        res.end(body);
      }, options.latency);
    });
  });
  // Node closes a keep-alive connection idle for 5 s; the client keeps its own for 10 s and, at --scale on a busy
  // machine, sent a request on a connection the server was closing ("other side closed").
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
}

async function client(optionsFile) {
  const options = JSON.parse(readFileSync(optionsFile, 'utf8'));
  const { Agent } = createRequire(new URL('../../../client/package.json', import.meta.url))('undici');
  const server = spawn(process.execPath, [SELF, '--serve', optionsFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Whatever ends this process ends the server: left running, it would hold the benchmark's pipe to this process's
  // stderr open, and the benchmark would wait for ever instead of reporting the failure.
  process.once('exit', () => server.kill('SIGTERM'));
  const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const agent = new Agent({ connections: options.parallelism, keepAliveTimeout: 10_000 });
  const get = async (path) => {
    const res = await agent.request({ origin, path, method: 'GET', headers: { accept: 'application/json' } });
    const text = await res.body.text();
    return text === '' ? undefined : JSON.parse(text);
  };
  // Open the connections first, as the benchmark does for its own client.
  await Promise.all(Array.from({ length: options.parallelism }, () => get('/warm')));
  const write = async (path, level) => {
    const res = await agent.request({ origin, path, method: level.method, headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(level.request) });
    const text = await res.body.text();
    return text === '' ? undefined : JSON.parse(text);
  };
  const pool = async (queue, send) => {
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) await send(path);
    };
    await Promise.all(Array.from({ length: options.parallelism }, worker));
  };
  const read = async () => {
    const chain = (async () => {
      for (let i = 0; i < options.chain.count; i += 1) await get(`/0/page?n=${i}`);
    })();
    const queue = options.perParent.flatMap((kind, k) => Array.from({ length: kind.count }, (_, i) => `/${k + 1}/parent/${i}`));
    const parent = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) await get(path);
    };
    // Once the chain is done its connection takes per-parent listings too, as readLive gives the chain's slot back.
    await Promise.all([chain.then(parent), ...Array.from({ length: Math.max(1, options.parallelism - 1) }, parent)]);
  };
  const apply = async () => {
    for (const [k, level] of options.levels.entries()) await pool(Array.from({ length: level.count }, (_, i) => `/${k}/write/${i}`), (path) => write(path, level));
  };
  const rounds = {};
  for (const round of ['cold', 'warm']) {
    const cpu = process.cpuUsage();
    const serverCpu = childCpuMs(server.pid);
    const t0 = performance.now();
    await (options.levels === undefined ? read() : apply());
    const wallMs = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    rounds[round] = { wallMs, clientCpuMs: (used.user + used.system) / 1000, serverCpuMs: childCpuMs(server.pid) - serverCpu };
  }
  server.kill('SIGTERM');
  await agent.close();
  console.log(JSON.stringify(rounds));
}

/** Runs the floor in a fresh process (its code as cold as a fresh `monsync plan`), then once more warm. */
export async function measureHttpFloor(options) {
  // The bodies are too large for a command line: both children read them from a file.
  const dir = mkdtempSync(join(tmpdir(), 'monsync-floor-'));
  const file = join(dir, 'options.json');
  writeFileSync(file, JSON.stringify(options));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SELF, '--client', file]);
    return JSON.parse(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, file] = process.argv.slice(2);
if (process.argv[1] === SELF && mode === '--serve') serve(JSON.parse(readFileSync(file, 'utf8')));
else if (process.argv[1] === SELF && mode === '--client') await client(file);
