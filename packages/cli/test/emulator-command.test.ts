import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { monsync } from './helpers.js';

describe('monsync emulator', () => {
  it('starts the emulator with the given flags (after an optional --), serves the API, and stops cleanly when aborted', async () => {
    const controller = new AbortController();
    const io = bufferedIo({ signal: controller.signal });
    const running = run(['emulator', '--', '--port', '0', '--seed', 'demo'], io);
    while (!io.out().includes('\n')) await sleep(10);
    const match = /^monsync emulator listening on (http:\/\/127\.0\.0\.1:\d+\/v4)\n/.exec(io.out());
    expect(match).not.toBeNull();
    const response = await fetch(`${match?.[1] ?? ''}/MonitorGroup`, { headers: { Authorization: `Basic ${Buffer.from('demo:demo-password').toString('base64')}` } });
    expect(response.status).toBe(200);
    const groups = (await response.json()) as { Description: string }[];
    expect(groups.map((group) => group.Description)).toContain('Shop');
    controller.abort();
    expect(await running).toBe(0);
  });

  it('passes the emulator its own flag errors, exit 1, pointing at the help of the command the user ran', async () => {
    const { code, err } = await monsync(['emulator', '--seed', 'demoo']);
    expect(code).toBe(1);
    expect(err).toBe('monsync emulator: --seed "demoo" must be demo or empty.\nRun \'monsync emulator --help\' for the list of options.\n');
  });
});
