/**
 * Contract-test harness: the real client against the emulator on a free port (docs/architecture.md, Testing). Each test file
 * starts one emulator; each test starts from a fresh seed.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { profileFromEnv, startEmulator, type EmulatorOptions, type RunningEmulator, type SeedName } from '@monsync/emulator';
import { createClient, type ClientOptions, type MonitoringClient, type ResponseEvent, type RetryEvent } from '@monsync/client';

export interface Contract {
  emulator: RunningEmulator;
  client: MonitoringClient;
  /** Responses seen by `client` since the test started. */
  responses: ResponseEvent[];
  retries: RetryEvent[];
  sleeps: number[];
  /** Another client on the same emulator (other credentials, options). */
  clientWith(options: Partial<ClientOptions>): MonitoringClient;
}

export function useEmulator(seed: SeedName = 'empty', options: Omit<EmulatorOptions, 'port' | 'seed'> = {}): Contract {
  const ctx = { responses: [], retries: [], sleeps: [] } as unknown as Contract;
  const extra: MonitoringClient[] = [];
  const make = (overrides: Partial<ClientOptions> = {}): MonitoringClient =>
    createClient({
      baseUrl: ctx.emulator.url,
      username: 'demo',
      password: 'demo-password',
      onResponse: (e) => ctx.responses.push(e),
      onRetry: (e) => ctx.retries.push(e),
      ...overrides,
      retry: {
        // Real waits would only slow the suite; the wait asked for is recorded instead.
        sleep: async (ms) => {
          ctx.sleeps.push(ms);
        },
        ...overrides.retry,
      },
    });
  beforeAll(async () => {
    ctx.emulator = await startEmulator({ profile: profileFromEnv(), ...options, port: 0, seed });
    ctx.client = make();
    ctx.clientWith = (overrides) => {
      const c = make(overrides);
      extra.push(c);
      return c;
    };
  });
  beforeEach(async () => {
    await ctx.emulator.control.reset(seed);
    ctx.emulator.control.setFaults({ rate: 0, scripted: [] });
    ctx.responses.length = 0;
    ctx.retries.length = 0;
    ctx.sleeps.length = 0;
  });
  afterAll(async () => {
    await Promise.all([ctx.client.close(), ...extra.map((c) => c.close())]);
    await ctx.emulator.close();
  });
  return ctx;
}
