import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { authenticate } from './auth.js';
import { ApiRequestError, EmulatorConfigError, badRequest } from './errors.js';
import { FaultInjector, type FaultKind, type FaultSettings, type FaultSettingsInput } from './faults.js';
import { Persister, readStateFile } from './persist.js';
import { RequestLog, type RequestLogSnapshot } from './request-log.js';
import { buildRouter } from './routes.js';
import { JsonText, type Caller, type Reply, type RouteMatch, type Router, type Settings } from './router.js';
import { seedStore, type SeedName } from './seed.js';
import { Store, type EmulatorState } from './store.js';
import { formatTimestamp } from './time.js';
import { isObj } from './validate.js';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: SeedName;
  /** JSON state file: loaded at start when present, saved atomically after every write. */
  statePath?: string;
  /** The administrator's API account (default `demo` / `demo-password`). */
  user?: string;
  password?: string;
  latencyMs?: number;
  faultRate?: number;
  faultSeed?: number;
  faultKinds?: FaultKind[];
  retryAfterSeconds?: number;
  /** Default `Take` of cursor-paged lists (1..100, default 100). */
  pageSize?: number;
  log?: (line: string) => void;
  now?: () => Date;
  /** Which GET form `/OperatorGroup/{g}/Authorization` answers in (spec: both exist). */
  operatorGroupAuthorizationForm?: 'legacy' | 'announced';
}

export interface ActAsRequest {
  method: string;
  /** Path under the API root, e.g. `/Monitor/<guid>` (a leading `/v4` is accepted). */
  path: string;
  body?: unknown;
}

export interface ActAsResult {
  status: number;
  body: unknown;
}

export interface EmulatorControl {
  reset(seed?: SeedName): Promise<void>;
  dump(): EmulatorState;
  load(state: unknown): Promise<void>;
  setFaults(settings: FaultSettingsInput): FaultSettings;
  faults(): FaultSettings;
  setLatency(ms: number): void;
  requestLog(): RequestLogSnapshot;
  clearLog(): void;
  /** Performs an API request as another operator (email or GUID): drift made in the web application. */
  actAs(operator: string, request: ActAsRequest): Promise<ActAsResult>;
  /** Grants (or revokes) a non-administrator the view-data permission on monitors. */
  setMonitorView(operator: string, monitorGuids: string[], grant?: boolean): Promise<void>;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  control: EmulatorControl;
}

const MAX_BODY = 8 * 1024 * 1024;

class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';
}

const EMPTY = Buffer.alloc(0);

function readBody(req: IncomingMessage): Promise<Buffer> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112, 6.3); node discards the
  // empty message once the response is sent, so most GETs need no stream listeners at all.
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return Promise.resolve(EMPTY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new BodyTooLargeError('request body too large'));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw badRequest(`The request body is not valid JSON: ${(err as Error).message}`);
  }
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) {
    // 204 must carry no Content-Length; an empty 200 says so explicitly for keep-alive clients.
    res.writeHead(reply.status, reply.status === 204 ? headers : { ...headers, 'Content-Length': '0' });
    res.end();
    return;
  }
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

function errorReply(err: ApiRequestError): Reply {
  return { status: err.status, body: err.toBody(), headers: err.headers };
}

function destroy(socket: Socket): void {
  // A TCP RST, so clients see ECONNRESET rather than a clean close.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function checkPageSize(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new EmulatorConfigError(`page size ${n} must be an integer from 1 to 100.`);
  return n;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const creds = { user: options.user ?? 'demo', password: options.password ?? 'demo-password' };
  const log = options.log ?? ((): void => undefined);
  const settings: Settings = {
    pageSize: checkPageSize(options.pageSize ?? 100),
    now: options.now ?? ((): Date => new Date()),
    operatorGroupAuthorizationForm: options.operatorGroupAuthorizationForm ?? 'legacy',
  };
  let latencyMs = options.latencyMs ?? 0;
  const router: Router = buildRouter();
  const faults = new FaultInjector({
    rate: options.faultRate ?? 0,
    seed: options.faultSeed ?? 1,
    ...(options.faultKinds ? { kinds: options.faultKinds } : {}),
    ...(options.retryAfterSeconds !== undefined ? { retryAfterSeconds: options.retryAfterSeconds } : {}),
  });
  const requestLog = new RequestLog((ms) => formatTimestamp(new Date(ms)));

  const loaded = options.statePath ? readStateFile(options.statePath) : null;
  let store: Store = loaded ?? seedStore(options.seed ?? 'empty', creds);
  const persister = options.statePath ? new Persister(options.statePath, () => store.serialize()) : null;
  // A fresh seed is written at once, so the file exists (and is whole) from the first moment.
  if (persister && !loaded) await persister.save();

  async function persistIfDirty(): Promise<void> {
    if (!store.dirty) return;
    store.dirty = false;
    if (persister) await persister.save();
  }

  /** Runs one API request through the router for a known caller (or authenticates it). */
  function dispatch(method: string, apiPath: string, query: URLSearchParams, getBody: () => unknown, authHeader: string | undefined, actAs?: Caller, matched?: RouteMatch): { reply: Reply; route: string; write: boolean; caller?: Caller } {
    const match = matched ?? router.match(method, apiPath);
    if (match.kind === 'not-found') {
      return { reply: errorReply(new ApiRequestError(404, 'NO_ROUTE', `No API endpoint ${method} ${apiPath}.`)), route: `${method} (unmatched)`, write: false };
    }
    if (match.kind === 'method-not-allowed') {
      return {
        reply: { ...errorReply(new ApiRequestError(405, 'METHOD_NOT_ALLOWED', `${method} is not supported on ${match.template}; allowed: ${match.allow.join(', ')}.`)), headers: { Allow: match.allow.join(', ') } },
        route: `${method} ${match.template}`,
        write: false,
      };
    }
    const route = match.route.key;
    let caller: Caller | undefined = actAs;
    try {
      caller ??= authenticate(store, authHeader, match.route.auth);
      // The body is parsed after authentication, so an anonymous caller learns nothing but 401.
      const body = getBody();
      const reply = match.route.handler({ store, caller, params: match.params, query, body, settings });
      return { reply, route, write: match.route.write, caller };
    } catch (err) {
      if (err instanceof ApiRequestError) return { reply: errorReply(err), route, write: match.route.write, ...(caller ? { caller } : {}) };
      log(`internal error on ${route}: ${(err as Error).stack ?? String(err)}`);
      return { reply: { status: 500, body: { ErrorDescription: 'Internal emulator error.' } }, route, write: match.route.write };
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, apiPath: string): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const started = Date.now();
    const match = router.match(method, apiPath);
    const routeKey = match.kind === 'found' ? match.route.key : `${method} (unmatched)`;
    const entry = requestLog.start(method, url.pathname, routeKey, settings.now().getTime());
    const finish = (status: number, note = ''): void => {
      entry.status = status;
      // The line is built only when someone reads it: this runs for every request.
      if (options.log) log(`${method} ${url.pathname}${url.search} -> ${status === 0 ? 'connection reset' : status}${note} (${Date.now() - started} ms)`);
    };
    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        send(res, { status: 413, body: { ErrorDescription: `The request body exceeds ${MAX_BODY} bytes.` } });
        finish(413);
        return;
      }
      throw err;
    }
    if (latencyMs > 0) await sleep(latencyMs);
    const isWrite = match.kind === 'found' && match.route.write;
    const fault = match.kind === 'found' ? faults.decide(method, match.route.template, isWrite) : null;
    if (fault) entry.fault = fault;
    if (fault && fault !== 'applied-then-reset') {
      if (fault === 'reset') {
        destroy(req.socket);
        finish(0, ' [fault: reset]');
        return;
      }
      const status = Number(fault);
      const headers: Record<string, string> = status === 429 ? { 'Retry-After': String(faults.get().retryAfterSeconds) } : {};
      const text = status === 429 ? 'Too many requests (injected fault).' : status === 503 ? 'Service unavailable (injected fault).' : 'Internal server error (injected fault).';
      send(res, { status, headers, body: { ErrorDescription: text } });
      finish(status, ` [fault: ${fault}]`);
      return;
    }
    const result = dispatch(method, apiPath, url.searchParams, () => parseJson(raw), req.headers.authorization, undefined, match);
    if (result.caller) entry.operatorGuid = result.caller.operatorGuid;
    try {
      await persistIfDirty();
    } catch (err) {
      log(`could not save state: ${(err as Error).message}`);
      result.reply = { status: 500, body: { ErrorDescription: 'The emulator could not save its state file.' } };
    }
    if (fault === 'applied-then-reset') {
      destroy(req.socket);
      finish(0, ` [fault: applied-then-reset after ${result.reply.status}]`);
      return;
    }
    send(res, result.reply);
    finish(result.reply.status);
  }

  async function loadState(state: unknown, owned: boolean): Promise<void> {
    store = Store.fromJSON(state, 'loaded state', owned);
    store.dirty = true;
    await persistIfDirty();
  }

  const control: EmulatorControl = {
    async reset(seed) {
      store = seedStore(seed ?? options.seed ?? 'empty', creds);
      store.dirty = true;
      await persistIfDirty();
    },
    dump() {
      return store.toJSON();
    },
    async load(state) {
      await loadState(state, false);
    },
    setFaults(input) {
      return faults.set(input);
    },
    faults() {
      return faults.get();
    },
    setLatency(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new EmulatorConfigError(`latency ${ms} must be a non-negative number of milliseconds.`);
      latencyMs = ms;
    },
    requestLog() {
      return requestLog.snapshot();
    },
    clearLog() {
      requestLog.clear();
    },
    async actAs(operatorRef, request) {
      const op = store.findOperator(operatorRef);
      if (!op) throw new EmulatorConfigError(`act-as: no operator "${operatorRef}" (give an e-mail address or OperatorGuid).`);
      const operatorGuid = String(op['OperatorGuid']).toLowerCase();
      const caller: Caller = { operatorGuid, isAdmin: store.isAdmin(operatorGuid), apiUserName: '(act-as)' };
      const url = new URL(request.path.replace(/^\/v4(?=\/|$)/i, '') || '/', 'http://emulator');
      const { reply } = dispatch(request.method.toUpperCase(), url.pathname, url.searchParams, () => request.body, undefined, caller);
      await persistIfDirty();
      return { status: reply.status, body: reply.body === undefined ? null : reply.body instanceof JsonText ? (JSON.parse(reply.body.text) as unknown) : structuredClone(reply.body) };
    },
    async setMonitorView(operatorRef, monitorGuids, grant = true) {
      const op = store.findOperator(operatorRef);
      if (!op) throw new EmulatorConfigError(`monitor-view: no operator "${operatorRef}".`);
      const opKey = String(op['OperatorGuid']).toLowerCase();
      const set = store.monitorViewPermissions.get(opKey) ?? new Set<string>();
      for (const g of monitorGuids) {
        if (!store.monitors.has(g.toLowerCase())) throw new EmulatorConfigError(`monitor-view: no monitor ${g}.`);
        if (grant) set.add(g.toLowerCase());
        else set.delete(g.toLowerCase());
      }
      store.monitorViewPermissions.set(opKey, set);
      store.touch();
      await persistIfDirty();
    },
  };

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress)) {
      send(res, { status: 403, body: { ErrorDescription: 'The control API answers loopback clients only.' } });
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/\/+$/, '');
    let body: unknown;
    try {
      body = parseJson(await readBody(req));
    } catch (err) {
      const message = err instanceof ApiRequestError ? err.message : 'request body too large';
      send(res, { status: 400, body: { ErrorDescription: message } });
      return;
    }
    const obj = isObj(body) ? body : {};
    try {
      const reply = await controlRoute(method, path, obj, body);
      send(res, reply);
    } catch (err) {
      if (err instanceof EmulatorConfigError || err instanceof ApiRequestError) {
        send(res, { status: err instanceof ApiRequestError ? err.status : 400, body: { ErrorDescription: err.message } });
        return;
      }
      throw err;
    }
  }

  async function controlRoute(method: string, path: string, obj: Record<string, unknown>, body: unknown): Promise<Reply> {
    const route = `${method} ${path}`;
    switch (route) {
      case 'GET /__emulator':
        return {
          status: 200,
          body: {
            api: `${url}`,
            endpoints: ['POST reset', 'GET|PUT state', 'GET|PUT faults', 'PUT latency', 'GET|DELETE log', 'POST act-as', 'POST monitor-view'].map((e) => e.replace(/ /, ' /__emulator/')),
          },
        };
      case 'POST /__emulator/reset': {
        const seed = obj['seed'];
        if (seed !== undefined && seed !== 'demo' && seed !== 'empty') throw new EmulatorConfigError('reset: seed must be "demo" or "empty".');
        await control.reset(seed);
        return { status: 204 };
      }
      case 'GET /__emulator/state':
        // Serialised at once by send(), so the live records need no deep copy first.
        return { status: 200, body: store.snapshot() };
      case 'PUT /__emulator/state':
        // The body was parsed for this request alone: the store may keep it without a copy.
        await loadState(body, true);
        return { status: 204 };
      case 'GET /__emulator/faults':
        return { status: 200, body: control.faults() };
      case 'PUT /__emulator/faults':
      case 'POST /__emulator/faults':
        return { status: 200, body: control.setFaults(obj as FaultSettingsInput) };
      case 'PUT /__emulator/latency':
        control.setLatency(Number(obj['ms']));
        return { status: 204 };
      case 'GET /__emulator/log':
        return { status: 200, body: control.requestLog() };
      case 'DELETE /__emulator/log':
        control.clearLog();
        return { status: 204 };
      case 'POST /__emulator/act-as': {
        const { operator, method: m, path: p } = obj;
        if (typeof operator !== 'string' || typeof m !== 'string' || typeof p !== 'string') {
          throw new EmulatorConfigError('act-as: body needs "operator" (e-mail or GUID), "method", "path" and optionally "body".');
        }
        return { status: 200, body: await control.actAs(operator, { method: m, path: p, body: obj['body'] }) };
      }
      case 'POST /__emulator/monitor-view': {
        const { operator, monitorGuids, grant } = obj;
        if (typeof operator !== 'string' || !Array.isArray(monitorGuids) || !monitorGuids.every((g) => typeof g === 'string')) {
          throw new EmulatorConfigError('monitor-view: body needs "operator" and "monitorGuids" (array), optionally "grant": false to revoke.');
        }
        await control.setMonitorView(operator, monitorGuids as string[], grant !== false);
        return { status: 204 };
      }
      default:
        return { status: 404, body: { ErrorDescription: `No control endpoint ${route}; GET /__emulator lists them.` } };
    }
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    let work: Promise<void>;
    if (path === '/__emulator' || path.startsWith('/__emulator/')) work = handleControl(req, res, url);
    else if (/^\/v4(\/|$)/i.test(path)) work = handleApi(req, res, url, path.slice(3) || '/');
    else {
      send(res, { status: 404, body: { ErrorDescription: `Not found: the API root is /v4 (try GET /v4/Monitor).` } });
      return;
    }
    work.catch((err: unknown) => {
      log(`internal error: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) send(res, { status: 500, body: { ErrorDescription: 'Internal emulator error.' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}/v4`;

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    control,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await persister?.flush();
      })();
      return closing;
    },
  };
}
