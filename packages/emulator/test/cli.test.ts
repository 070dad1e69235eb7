import { describe, expect, it } from 'vitest';
import { parseEmulatorArgs, runEmulatorCli } from '../src/index.js';

function capture(): { out: string[]; err: string[]; io: { stdout: (t: string) => void; stderr: (t: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) } };
}

describe('monsync-emulator command line', () => {
  it('parses every flag, in both --flag value and --flag=value forms', () => {
    const parsed = parseEmulatorArgs([
      '--port', '8080', '--host=0.0.0.0', '--state', 's.json', '--seed', 'demo', '--user', 'u', '--password=p',
      '--latency', '25', '--fault-rate', '0.1', '--fault-seed', '9', '--page-size', '10', '--verbose',
    ]);
    expect(parsed.verbose).toBe(true);
    expect(parsed.options).toEqual({
      port: 8080, host: '0.0.0.0', statePath: 's.json', seed: 'demo', user: 'u', password: 'p',
      latencyMs: 25, faultRate: 0.1, faultSeed: 9, pageSize: 10,
    });
  });

  it.each([
    [['--port', 'abc'], /--port "abc" must be an integer/],
    [['--port', '70000'], /out of range/],
    [['--seed', 'full'], /--seed "full" must be demo or empty/],
    [['--fault-rate', '1.5'], /--fault-rate "1.5" must be a number from 0 to 1/],
    [['--page-size', '101'], /--page-size 101 is out of range/],
    [['--bogus'], /Unknown option --bogus/],
    [['--state'], /--state needs a value/],
  ])('rejects %j with a clear error and exit code 1', async (argv, message) => {
    const c = capture();
    const code = await runEmulatorCli(argv, c.io);
    expect(code).toBe(1);
    expect(c.err.join('')).toMatch(message);
    expect(c.err.join('')).toMatch(/--help/);
    expect(c.out).toEqual([]);
  });

  it('ignores one leading -- (pnpm emulator -- --port 0 passes it through)', () => {
    expect(parseEmulatorArgs(['--', '--port', '8080', '--seed', 'demo']).options).toEqual({ port: 8080, seed: 'demo' });
    expect(parseEmulatorArgs(['--']).options).toEqual({ port: 0 });
  });

  it.each([
    [['--', '--', '--port', '0']],
    [['--port', '0', '--']],
  ])('rejects a -- that is not the single leading one: %j', async (argv) => {
    const c = capture();
    expect(await runEmulatorCli(argv, c.io)).toBe(1);
    expect(c.err.join('')).toMatch(/Unexpected "--": only one, before every option, is accepted/);
  });

  it('starts and serves after a leading --', async () => {
    const c = capture();
    const controller = new AbortController();
    let url = '';
    const done = runEmulatorCli(['--', '--port', '0', '--seed', 'demo'], { ...c.io, signal: controller.signal, onListening: (u) => void (url = u) });
    while (!url) await new Promise((r) => setTimeout(r, 5));
    expect(c.err).toEqual([]);
    expect(c.out[0]).toMatch(/^monsync emulator listening on http:\/\/127\.0\.0\.1:\d+\/v4\n$/);
    const res = await fetch(`${url}/MonitorGroup`, { headers: { authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(1);
    controller.abort();
    expect(await done).toBe(0);
  });

  it('prints usage for --help and exits 0', async () => {
    const c = capture();
    expect(await runEmulatorCli(['--help'], c.io)).toBe(0);
    expect(c.out.join('')).toMatch(/Usage: monsync-emulator/);
  });

  it('prints the listening line first, serves requests, and closes when aborted', async () => {
    const c = capture();
    const controller = new AbortController();
    let url = '';
    const done = runEmulatorCli(['--port', '0', '--seed', 'demo', '--verbose'], {
      ...c.io,
      signal: controller.signal,
      onListening: (u) => {
        url = u;
      },
    });
    while (!url) await new Promise((r) => setTimeout(r, 5));
    expect(c.out[0]).toMatch(/^monsync emulator listening on http:\/\/127\.0\.0\.1:\d+\/v4\n$/);
    expect(c.out.join('')).toMatch(/viewer \/ viewer-password/);
    const res = await fetch(`${url}/Monitor`, { headers: { authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}` } });
    expect(res.status).toBe(200);
    controller.abort();
    expect(await done).toBe(0);
    await expect(fetch(`${url}/Monitor`)).rejects.toThrow();
  });

  it('exits 1 with a message when the port is taken', async () => {
    const c1 = capture();
    const controller = new AbortController();
    let url = '';
    const first = runEmulatorCli(['--port', '0'], { ...c1.io, signal: controller.signal, onListening: (u) => void (url = u) });
    while (!url) await new Promise((r) => setTimeout(r, 5));
    const port = new URL(url).port;
    const c2 = capture();
    expect(await runEmulatorCli(['--port', port], c2.io)).toBe(1);
    expect(c2.err.join('')).toMatch(/cannot start/);
    controller.abort();
    await first;
  });
});
