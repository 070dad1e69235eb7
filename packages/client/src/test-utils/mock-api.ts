/** Test harness: a client wired to an undici MockAgent (no network), with a recorded sleep. */
import { MockAgent, type Dispatcher } from 'undici';
import { createClient, type ClientOptions, type MonitoringClient } from '../client.js';

export const ORIGIN = 'http://api.test';
export const BASE_URL = `${ORIGIN}/v4`;
/** Canary password: tests search for it in every output an error can produce. */
export const CANARY_PASSWORD = 'CANARY-7f3a9c-password';

export interface RecordedCall {
  method: string;
  /** Path and raw query below the origin, e.g. `/v4/Alert/Monitor/g?PresetPeriod=Previous%20Day`. */
  url: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined. */
  body: unknown;
}

type ReplyBody = string | object | undefined;

/** The part of undici's MockScope the tests use (the class is not exported by name). */
export interface Scope {
  times(repeat: number): Scope;
  persist(): Scope;
  delay(ms: number): Scope;
}

export interface MockApi {
  agent: MockAgent;
  client: MonitoringClient;
  /** Every delay the client slept for, in order. */
  sleeps: number[];
  /** Answers the next request with this method and path (below `/v4`, query ignored). */
  reply(method: string, path: string, status: number, body?: ReplyBody, headers?: Record<string, string>): Scope;
  /** Fails the next request with this method and path with a socket error carrying `code`. */
  fail(method: string, path: string, code: string): void;
  calls(): RecordedCall[];
  last(): RecordedCall;
}

export function mockApi(overrides: Partial<ClientOptions> = {}): MockApi {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const sleeps: number[] = [];
  const client = createClient({
    baseUrl: BASE_URL,
    username: 'demo',
    password: CANARY_PASSWORD,
    dispatcher: agent as Dispatcher,
    ...overrides,
    retry: {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      ...overrides.retry,
    },
  });
  const matches = (path: string) => (p: string) => p.split('?')[0] === `/v4${path}`;
  const calls = (): RecordedCall[] =>
    (agent.getCallHistory()?.calls() ?? []).map((c) => ({
      method: c.method,
      url: c.fullUrl.slice(ORIGIN.length),
      headers: c.headers as Record<string, string>,
      body: typeof c.body === 'string' && c.body !== '' ? (JSON.parse(c.body) as unknown) : undefined,
    }));
  return {
    agent,
    client,
    sleeps,
    reply: (method, path, status, body, headers = {}) => {
      const json = body !== undefined && typeof body !== 'string';
      return pool
        .intercept({ method, path: matches(path) })
        .reply(status, body ?? '', { headers: json ? { 'content-type': 'application/json', ...headers } : headers });
    },
    fail: (method, path, code) => {
      pool.intercept({ method, path: matches(path) }).replyWithError(Object.assign(new Error(`socket failure ${code}`), { code }));
    },
    calls,
    last: () => {
      const all = calls();
      const call = all[all.length - 1];
      if (!call) throw new Error('no request was made');
      return call;
    },
  };
}
