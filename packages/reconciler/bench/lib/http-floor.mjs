/* global performance */
/**
 * The machine's floor for a read: the same requests as readLive makes (a sequential chain of large pages beside
 * per-parent listings, at the client's parallelism), sent by bare undici from a fresh process to a bare
 * node:http server that answers a canned body after the same latency. No client library, no emulator, no
 * parsing beyond JSON.parse. What this costs on a machine is what no client could beat there: a benchmark
 * prints it beside its own figure, so a slow or shared machine is not mistaken for a slow client.
 *
 *   import { measureHttpFloor } from './lib/http-floor.mjs';
 *   const floor = await measureHttpFloor({ latency: 10, parallelism: 8, chainPages: 100, chainBytes: 55_000, perParent: 600, perParentBytes: 11_000 });
 *   // { cold: { wallMs, clientCpuMs, serverCpuMs }, warm: { ... } }
 */
import { spawn, execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { childCpuMs } from './emulator-process.mjs';

const SELF = fileURLToPath(import.meta.url);

/** A JSON body of about `bytes` bytes: `items` objects, so parsing it allocates like a listing does. */
function body(bytes, items) {
  const pad = 'x'.repeat(Math.max(0, Math.floor(bytes / items) - 60));
  return JSON.stringify(Array.from({ length: items }, (_, i) => ({ MonitorGuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`, Pad: pad })));
}

async function serve(latency, chainBytes, perParentBytes) {
  const bodies = { chain: body(chainBytes, 100), perParent: body(perParentBytes, 20) };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.url.startsWith('/chain') ? bodies.chain : bodies.perParent);
      }, latency);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
}

async function client(options) {
  const { Agent } = createRequire(new URL('../../../client/package.json', import.meta.url))('undici');
  const server = spawn(process.execPath, [SELF, '--serve', JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const agent = new Agent({ connections: options.parallelism, keepAliveTimeout: 10_000 });
  const get = async (path) => {
    const res = await agent.request({ origin, path, method: 'GET', headers: { accept: 'application/json' } });
    return JSON.parse(await res.body.text());
  };
  // Open the connections first, as the benchmark does for its own client.
  await Promise.all(Array.from({ length: options.parallelism }, () => get('/warm')));
  const rounds = {};
  for (const round of ['cold', 'warm']) {
    const cpu = process.cpuUsage();
    const serverCpu = childCpuMs(server.pid);
    const t0 = performance.now();
    const chain = (async () => {
      for (let i = 0; i < options.chainPages; i += 1) await get(`/chain?page=${i}`);
    })();
    let next = 0;
    const parent = async () => {
      while (next < options.perParent) {
        next += 1;
        await get(`/member/${next}`);
      }
    };
    await Promise.all([chain, ...Array.from({ length: Math.max(1, options.parallelism - 1) }, parent)]);
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
  const { stdout } = await promisify(execFile)(process.execPath, [SELF, '--client', JSON.stringify(options)]);
  return JSON.parse(stdout);
}

const [mode, json] = process.argv.slice(2);
if (process.argv[1] === SELF && mode === '--serve') {
  const { latency, chainBytes, perParentBytes } = JSON.parse(json);
  await serve(latency, chainBytes, perParentBytes);
} else if (process.argv[1] === SELF && mode === '--client') {
  await client(JSON.parse(json));
}
