import { afterEach } from 'vitest';
import { SEEDED, startEmulator, type EmulatorOptions, type RunningEmulator } from '../src/index.js';

export type Obj = Record<string, unknown>;

export function asObj(value: unknown, what = 'value'): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not a JSON object: ${JSON.stringify(value)}`);
  return value as Obj;
}

export function asList(value: unknown, what = 'value'): Obj[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not a JSON array: ${JSON.stringify(value)}`);
  return value as Obj[];
}

export class ApiResponse {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly text: string,
    readonly json: unknown,
  ) {}

  /** The body as an object (throws when it is not one). */
  get body(): Obj {
    return asObj(this.json, `body of a ${this.status} response`);
  }

  /** The body as an array of objects. */
  get list(): Obj[] {
    return asList(this.json, `body of a ${this.status} response`);
  }

  /** The items of a list: a bare array, or `Data` of an enveloped one. */
  get data(): Obj[] {
    if (Array.isArray(this.json)) return this.json as Obj[];
    return asList(this.body['Data'], 'Data');
  }

  /** `Cursors` of an enveloped list, when present. */
  get cursors(): { Next?: string; Self?: string } | undefined {
    const c = this.body['Cursors'];
    return c === undefined ? undefined : (asObj(c, 'Cursors') as { Next?: string; Self?: string });
  }

  /** The error text (an array of texts when there are several), from a `{Messages}` or `{ErrorDescription}` body. */
  get error(): unknown {
    const messages = this.body['Messages'];
    if (!Array.isArray(messages)) return this.body['ErrorDescription'];
    const texts = messages.map((m) => asObj(m, 'Messages[]')['Message']);
    return texts.length === 1 ? texts[0] : texts;
  }
}

export type Credentials = { user: string; password: string } | null;

export const ADMIN: Credentials = { user: 'demo', password: 'demo-password' };
export const VIEWER: Credentials = { user: SEEDED.viewer.apiUser, password: SEEDED.viewer.apiPassword };

const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** An emulator on a free port, closed after the test. */
export async function emulator(options: EmulatorOptions = {}): Promise<Api> {
  const emu = await startEmulator({ port: 0, ...options });
  running.push(emu);
  return new Api(emu);
}

export function basic(creds: { user: string; password: string }): string {
  return `Basic ${Buffer.from(`${creds.user}:${creds.password}`).toString('base64')}`;
}

export class Api {
  constructor(readonly emu: RunningEmulator) {}

  get url(): string {
    return this.emu.url;
  }

  get control(): RunningEmulator['control'] {
    return this.emu.control;
  }

  async request(method: string, path: string, body?: unknown, creds: Credentials = ADMIN, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const h: Record<string, string> = { ...headers };
    if (creds) h['authorization'] = basic(creds);
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] = 'application/json';
    }
    const target = path.startsWith('http') ? path : `${this.url}${path}`;
    const res = await fetch(target, { method, headers: h, ...(payload !== undefined ? { body: payload } : {}) });
    const text = await res.text();
    let json: unknown = undefined;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return new ApiResponse(res.status, res.headers, text, json);
  }

  get(path: string, creds: Credentials = ADMIN): Promise<ApiResponse> {
    return this.request('GET', path, undefined, creds);
  }
  post(path: string, body?: unknown, creds: Credentials = ADMIN): Promise<ApiResponse> {
    return this.request('POST', path, body, creds);
  }
  put(path: string, body?: unknown, creds: Credentials = ADMIN): Promise<ApiResponse> {
    return this.request('PUT', path, body, creds);
  }
  patch(path: string, body?: unknown, creds: Credentials = ADMIN): Promise<ApiResponse> {
    return this.request('PATCH', path, body, creds);
  }
  delete(path: string, creds: Credentials = ADMIN): Promise<ApiResponse> {
    return this.request('DELETE', path, undefined, creds);
  }

  /** The control API over HTTP (no credentials). */
  async controlRequest(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const base = this.url.replace(/\/v4$/, '');
    return this.request(method, `${base}/__emulator${path}`, body, null);
  }

  async createMonitor(fields: Obj = {}): Promise<Obj> {
    const res = await this.post('/Monitor', { Name: `m-${Math.random().toString(36).slice(2, 8)}`, MonitorType: 'Https', ...fields });
    if (res.status !== 201) throw new Error(`create monitor failed: ${res.status} ${res.text}`);
    return res.body;
  }

  async listAllMonitors(path = '/Monitor', creds: Credentials = ADMIN): Promise<{ items: Array<Record<string, unknown>>; requests: number }> {
    const items: Array<Record<string, unknown>> = [];
    let requests = 0;
    let next: string | undefined;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res = await this.get(next ? `${path}${sep}Cursor=${encodeURIComponent(next)}` : path, creds);
      requests++;
      if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
      items.push(...res.data);
      next = Array.isArray(res.json) ? undefined : res.cursors?.Next;
    } while (next);
    return { items, requests };
  }
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
