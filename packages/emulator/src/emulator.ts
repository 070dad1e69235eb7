import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { controlReply, createControl, type ControlHost, type EmulatorControl } from './control.js';
import { createDispatch, errorBody, withFaults, withRateLimit, withReplyShapes, withRequestRate, type ApiRequest, type Dispatch, type Outcome } from './dispatch.js';
import { EmulatorConfigError, badRequest } from './errors.js';
import { FaultInjector, type FaultKind } from './faults.js';
import { RequestHolds } from './hold.js';
import { Persister, readStateFile } from './persist.js';
import { profileNamed, type Profile, type ProfileName, type RateLimit, type RequestRate } from './profiles.js';
import { RequestLog } from './request-log.js';
import { buildRouter } from './routes.js';
import { JsonText, type Reply, type Router, type Settings } from './router.js';
import { seedStore, type SeedName } from './seed.js';
import type { Store } from './store.js';
import { formatTimestamp } from './time.js';

export type { ActAsRequest, ActAsResult, EmulatorControl } from './control.js';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: SeedName;
  /** Which reading of the service to speak (README, Profiles); default `default`. */
  profile?: ProfileName;
  /** The `rate-limited` profile's share of 429 answers, seed and `Retry-After` (default 10%, seed 1, 1 s). */
  rateLimit?: Partial<RateLimit>;
  /**
   * Limits the request rate as a service does, in any profile: a token bucket of `burst` requests refilled at
   * `perSecond`; an empty bucket answers 429 with the Retry-After it implies. Off by default.
   */
  requestRate?: RequestRate;
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

export interface RunningEmulator {
  url: string;
  port: number;
  profile: ProfileName;
  close(): Promise<void>;
  control: EmulatorControl;
}

/** API requests are small; the control API takes whole accounts (100,000 monitors is ~60 MB of JSON). */
const MAX_API_BODY = 8 * 1024 * 1024;
/** A state is parsed as one string, and V8 strings end a little below 512 MiB: that is the ceiling, not a choice. */
const MAX_CONTROL_BODY = 511 * 1024 * 1024;

class BodyTooLargeError extends Error {
  readonly code = 'BODY_TOO_LARGE';
}

const EMPTY = Buffer.alloc(0);

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112, 6.3); node discards the
  // empty message once the response is sent, so most GETs need no stream listeners at all.
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return Promise.resolve(EMPTY);
  if (length !== undefined && Number(length) > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(`request body exceeds ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLargeError(`request body exceeds ${limit} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
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

function requestRateOf(given: RequestRate | undefined): RequestRate | undefined {
  if (given === undefined) return undefined;
  if (!(Number.isFinite(given.perSecond) && given.perSecond > 0)) throw new EmulatorConfigError(`request rate ${given.perSecond} must be a number of requests per second above 0.`);
  if (!(Number.isInteger(given.burst) && given.burst >= 1)) throw new EmulatorConfigError(`request burst ${given.burst} must be an integer from 1.`);
  return given;
}

function rateLimitOf(profile: Profile, given: Partial<RateLimit> | undefined): RateLimit | undefined {
  if (!profile.rateLimit) return undefined;
  const limit = { ...profile.rateLimit, ...given };
  if (!(limit.share >= 0 && limit.share <= 1)) throw new EmulatorConfigError(`rate-limit share ${limit.share} must be a number from 0 to 1.`);
  if (!Number.isInteger(limit.seed)) throw new EmulatorConfigError(`rate-limit seed ${limit.seed} must be an integer.`);
  if (!Number.isInteger(limit.retryAfterSeconds) || limit.retryAfterSeconds < 0) throw new EmulatorConfigError('rate-limit retryAfterSeconds must be a non-negative integer.');
  return limit;
}

/** The profile's dispatch (for act-as), and the same with rate limits and injected faults (for the API). */
function composeDispatch(router: Router, settings: Settings, profile: Profile, faults: FaultInjector, limits: { rateLimit: RateLimit | undefined; requestRate: RequestRate | undefined }, log: (line: string) => void): { profiled: Dispatch; served: Dispatch } {
  const core = createDispatch(router, settings, (route, err) => log(`internal error on ${route}: ${(err as Error).stack ?? String(err)}`));
  const profiled = withReplyShapes(profile.shapes)(core);
  const shared = limits.rateLimit ? withRateLimit(limits.rateLimit, settings.rules)(profiled) : profiled;
  const limited = limits.requestRate ? withRequestRate(limits.requestRate, settings.rules, () => settings.now().getTime())(shared) : shared;
  return { profiled, served: withFaults(faults, router, settings.rules)(limited) };
}

interface ApiDeps {
  router: Router;
  served: Dispatch;
  host: ControlHost;
  settings: Settings;
  requestLog: RequestLog;
  holds: RequestHolds;
  latencyMs: () => number;
  /** Given only when someone reads the lines: building one costs on every request. */
  log: ((line: string) => void) | undefined;
}

/** The HTTP side of one API request: read the body, wait out the latency, dispatch, save, answer (or drop). */
function apiHandler(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse, url: URL, apiPath: string) => Promise<void> {
  const { router, served, host, settings, requestLog, log } = deps;
  return async (req, res, url, apiPath) => {
    const started = Date.now();
    let raw: Buffer = EMPTY;
    const request: ApiRequest = { method: (req.method ?? 'GET').toUpperCase(), path: apiPath, query: url.searchParams, body: () => parseJson(raw), authorization: req.headers.authorization };
    const match = (request.match = router.match(request.method, apiPath));
    const entry = requestLog.start(request.method, url.pathname, match.kind === 'found' ? match.route.key : `${request.method} (unmatched)`, settings.now().getTime());
    const finish = (status: number, note = ''): void => {
      entry.status = status;
      log?.(`${request.method} ${url.pathname}${url.search} -> ${status === 0 ? 'connection reset' : status}${note} (${Date.now() - started} ms)`);
    };
    try {
      raw = await readBody(req, MAX_API_BODY);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      send(res, { status: 413, body: errorBody(settings.rules, [`The request body exceeds ${MAX_API_BODY} bytes.`]) });
      return finish(413);
    }
    const latency = deps.latencyMs();
    if (latency > 0) await sleep(latency);
    const held = deps.holds.wait(request.method, match.kind === 'found' ? match.route.template : undefined);
    if (held !== undefined) await held;
    const outcome: Outcome = served(host.store(), request);
    if (outcome.fault) entry.fault = outcome.fault;
    if (outcome.caller) entry.operatorGuid = outcome.caller.operatorGuid;
    const note = outcome.fault ? ` [fault: ${outcome.fault}]` : '';
    if (outcome.drop === 'before') {
      destroy(req.socket);
      return finish(0, note);
    }
    try {
      await host.persist();
    } catch (err) {
      log?.(`could not save state: ${(err as Error).message}`);
      outcome.reply = { status: 500, body: errorBody(settings.rules, ['The emulator could not save its state file.']) };
    }
    if (outcome.drop === 'after') {
      destroy(req.socket);
      return finish(0, ` [fault: ${outcome.fault ?? 'reset'} after ${outcome.reply.status}]`);
    }
    send(res, outcome.reply);
    finish(outcome.reply.status, note);
  };
}

/** The loopback-only control API (`/__emulator/...`). */
function controlHandler(control: EmulatorControl, host: ControlHost, apiUrl: () => string): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  return async (req, res, url) => {
    if (!isLoopback(req.socket.remoteAddress)) {
      send(res, { status: 403, body: { ErrorDescription: 'The control API answers loopback clients only.' } });
      return;
    }
    let body: unknown;
    try {
      body = parseJson(await readBody(req, MAX_CONTROL_BODY));
    } catch (err) {
      const status = err instanceof BodyTooLargeError ? 413 : 400;
      send(res, { status, body: { ErrorDescription: (err as Error).message } });
      return;
    }
    const path = url.pathname.replace(/\/+$/, '').slice('/__emulator'.length);
    send(res, await controlReply(control, host, apiUrl(), (req.method ?? 'GET').toUpperCase(), path, body));
  };
}

async function listen(server: Server, port: number, hostName: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostName, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = hostName === '0.0.0.0' || hostName === '::' ? '127.0.0.1' : hostName.includes(':') ? `[${hostName}]` : hostName;
  return `http://${shownHost}:${bound}/v4`;
}

function settingsOf(options: EmulatorOptions, profile: Profile): Settings {
  return {
    pageSize: checkPageSize(options.pageSize ?? 100),
    now: options.now ?? ((): Date => new Date()),
    operatorGroupAuthorizationForm: options.operatorGroupAuthorizationForm ?? profile.rules.operatorGroupAuthorizationForm,
    rules: profile.rules,
  };
}

function faultsOf(options: EmulatorOptions): FaultInjector {
  return new FaultInjector({
    rate: options.faultRate ?? 0,
    seed: options.faultSeed ?? 1,
    ...(options.faultKinds ? { kinds: options.faultKinds } : {}),
    ...(options.retryAfterSeconds !== undefined ? { retryAfterSeconds: options.retryAfterSeconds } : {}),
  });
}

/** Starts the emulator: an HTTP adapter around the profile's dispatch, plus the loopback-only control API. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const credentials = { user: options.user ?? 'demo', password: options.password ?? 'demo-password' };
  const log = options.log ?? ((): void => undefined);
  const profile = profileNamed(options.profile ?? 'default');
  const settings = settingsOf(options, profile);
  let latencyMs = options.latencyMs ?? 0;
  const router = buildRouter();
  const faults = faultsOf(options);
  const holds = new RequestHolds();
  const { profiled, served } = composeDispatch(router, settings, profile, faults, { rateLimit: rateLimitOf(profile, options.rateLimit), requestRate: requestRateOf(options.requestRate) }, log);
  const requestLog = new RequestLog((ms) => formatTimestamp(new Date(ms)));

  const loaded = options.statePath ? readStateFile(options.statePath) : null;
  let store: Store = loaded ?? seedStore(options.seed ?? 'empty', credentials);
  const persister = options.statePath ? new Persister(options.statePath, () => store.serialize()) : null;
  // A fresh seed is written at once, so the file exists (and is whole) from the first moment.
  if (persister && !loaded) await persister.save();

  const host: ControlHost = {
    store: () => store,
    async replaceStore(next) {
      store = next;
      await persister?.save();
    },
    async persist() {
      if (store.takeChanges()) await persister?.save();
    },
    dispatch: profiled,
    faults,
    holds,
    setLatency(ms) {
      latencyMs = ms;
    },
    log: requestLog,
    seed: options.seed ?? 'empty',
    credentials,
  };
  const control = createControl(host);
  let apiUrl = '';
  const handleApi = apiHandler({ router, served, host, settings, requestLog, holds, latencyMs: () => latencyMs, log: options.log });
  const handleControl = controlHandler(control, host, () => apiUrl);

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const path = url.pathname;
    let work: Promise<void>;
    if (path === '/__emulator' || path.startsWith('/__emulator/')) work = handleControl(req, res, url);
    else if (/^\/v4(\/|$)/i.test(path)) work = handleApi(req, res, url, path.slice(3) || '/');
    else {
      send(res, { status: 404, body: errorBody(settings.rules, ['Not found: the API root is /v4 (try GET /v4/Monitor).']) });
      return;
    }
    work.catch((err: unknown) => {
      log(`internal error: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) send(res, { status: 500, body: errorBody(settings.rules, ['Internal emulator error.']) });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  apiUrl = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');

  let closing: Promise<void> | null = null;
  return {
    url: apiUrl,
    port: Number(new URL(apiUrl).port),
    profile: profile.name,
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
