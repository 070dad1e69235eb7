import type { Dispatch } from './dispatch.js';
import { ApiRequestError, EmulatorConfigError } from './errors.js';
import type { FaultInjector, FaultSettings, FaultSettingsInput } from './faults.js';
import type { HoldMatch, RequestHolds } from './hold.js';
import type { RequestLog, RequestLogSnapshot } from './request-log.js';
import { JsonText, type Caller, type Reply } from './router.js';
import { seedStore, type SeedCredentials, type SeedName } from './seed.js';
import { Store, type EmulatorState } from './store.js';
import { isObj, type Obj } from './validate.js';

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
  /**
   * Deletes a monitor as the web application does, with its group memberships, view permissions and maintenance
   * periods: also under a profile whose API has no `DELETE /Monitor/{guid}` (lean, as the spec lists none), where
   * act-as is refused with 405 as the API is.
   */
  removeMonitor(monitorGuid: string): Promise<void>;
  /** Holds the API requests `match` names before they are carried out, until `release()`. */
  hold(match: HoldMatch): void;
  /** How many API requests are held now. */
  held(): number;
  /** Lets every held request go on and holds no more; answers how many were held. */
  release(): number;
}

/** What the control API needs of the running emulator. */
export interface ControlHost {
  store(): Store;
  /** Puts a new account in place and saves it. */
  replaceStore(store: Store): Promise<void>;
  /** Saves the account when a request changed it. */
  persist(): Promise<void>;
  /** The profile's dispatch without injected faults or rate limits: act-as is the web application, not the API. */
  dispatch: Dispatch;
  faults: FaultInjector;
  holds: RequestHolds;
  setLatency(ms: number): void;
  log: RequestLog;
  seed: SeedName;
  credentials: SeedCredentials;
}

export function createControl(host: ControlHost): EmulatorControl {
  return {
    async reset(seed) {
      await host.replaceStore(seedStore(seed ?? host.seed, host.credentials));
    },
    dump: () => host.store().toJSON(),
    async load(state) {
      await host.replaceStore(Store.fromJSON(state, 'loaded state'));
    },
    setFaults: (input) => host.faults.set(input),
    faults: () => host.faults.get(),
    setLatency(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new EmulatorConfigError(`latency ${ms} must be a non-negative number of milliseconds.`);
      host.setLatency(ms);
    },
    requestLog: () => host.log.snapshot(),
    clearLog: () => host.log.clear(),
    hold: (match) => host.holds.hold(match),
    held: () => host.holds.held(),
    release: () => host.holds.release(),
    async actAs(operatorRef, request) {
      const store = host.store();
      const op = store.findOperator(operatorRef);
      if (!op) throw new EmulatorConfigError(`act-as: no operator "${operatorRef}" (give an e-mail address or OperatorGuid).`);
      const operatorGuid = String(op['OperatorGuid']).toLowerCase();
      const caller: Caller = { operatorGuid, isAdmin: store.isAdmin(operatorGuid), apiUserName: '(act-as)' };
      const url = new URL(request.path.replace(/^\/v4(?=\/|$)/i, '') || '/', 'http://emulator');
      const { reply } = host.dispatch(store, { method: request.method.toUpperCase(), path: url.pathname, query: url.searchParams, body: () => request.body }, caller);
      await host.persist();
      const body = reply.body === undefined ? null : reply.body instanceof JsonText ? (JSON.parse(reply.body.text.toString()) as unknown) : structuredClone(reply.body);
      return { status: reply.status, body };
    },
    async removeMonitor(monitorGuid) {
      const store = host.store();
      if (!store.monitors.has(monitorGuid.toLowerCase())) throw new EmulatorConfigError(`remove-monitor: no monitor ${monitorGuid}.`);
      store.removeMonitor(monitorGuid);
      await host.persist();
    },
    async setMonitorView(operatorRef, monitorGuids, grant = true) {
      const store = host.store();
      const op = store.findOperator(operatorRef);
      if (!op) throw new EmulatorConfigError(`monitor-view: no operator "${operatorRef}".`);
      for (const g of monitorGuids) if (!store.monitors.has(g.toLowerCase())) throw new EmulatorConfigError(`monitor-view: no monitor ${g}.`);
      store.setMonitorView(String(op['OperatorGuid']).toLowerCase(), monitorGuids, grant);
      await host.persist();
    },
  };
}

type ControlRoute = (control: EmulatorControl, host: ControlHost, body: unknown, fields: Obj) => Promise<Reply> | Reply;

const noContent: Reply = { status: 204 };

/** The control API, one entry per `METHOD /path` under `/__emulator`. */
export const CONTROL_ROUTES: Readonly<Record<string, ControlRoute>> = {
  'POST /reset': async (control, _host, _body, fields) => {
    const seed = fields['seed'];
    if (seed !== undefined && seed !== 'demo' && seed !== 'empty') throw new EmulatorConfigError('reset: seed must be "demo" or "empty".');
    await control.reset(seed);
    return noContent;
  },
  // The saved JSON of unchanged monitors is reused, so a large account is not serialised again on every dump.
  'GET /state': (_control, host) => ({ status: 200, body: new JsonText(host.store().serialize()) }),
  'PUT /state': async (_control, host, body) => {
    // The body was parsed for this request alone: the store may keep it without a copy.
    await host.replaceStore(Store.fromJSON(body, 'loaded state', true));
    return noContent;
  },
  'GET /faults': (control) => ({ status: 200, body: control.faults() }),
  'PUT /faults': (control, _host, _body, fields) => ({ status: 200, body: control.setFaults(fields as FaultSettingsInput) }),
  'POST /faults': (control, _host, _body, fields) => ({ status: 200, body: control.setFaults(fields as FaultSettingsInput) }),
  'PUT /latency': (control, _host, _body, fields) => {
    control.setLatency(Number(fields['ms']));
    return noContent;
  },
  'PUT /hold': (control, _host, _body, fields) => {
    control.hold(fields as HoldMatch);
    return noContent;
  },
  'GET /hold': (control) => ({ status: 200, body: { held: control.held() } }),
  'DELETE /hold': (control) => ({ status: 200, body: { released: control.release() } }),
  'GET /log': (control) => ({ status: 200, body: control.requestLog() }),
  'DELETE /log': (control) => {
    control.clearLog();
    return noContent;
  },
  'POST /act-as': async (control, _host, _body, { operator, method, path, body }) => {
    if (typeof operator !== 'string' || typeof method !== 'string' || typeof path !== 'string') {
      throw new EmulatorConfigError('act-as: body needs "operator" (e-mail or GUID), "method", "path" and optionally "body".');
    }
    return { status: 200, body: await control.actAs(operator, { method, path, body }) };
  },
  'POST /remove-monitor': async (control, _host, _body, { monitorGuid }) => {
    if (typeof monitorGuid !== 'string') throw new EmulatorConfigError('remove-monitor: body needs "monitorGuid".');
    await control.removeMonitor(monitorGuid);
    return noContent;
  },
  'POST /monitor-view': async (control, _host, _body, { operator, monitorGuids, grant }) => {
    if (typeof operator !== 'string' || !Array.isArray(monitorGuids) || !monitorGuids.every((g) => typeof g === 'string')) {
      throw new EmulatorConfigError('monitor-view: body needs "operator" and "monitorGuids" (array), optionally "grant": false to revoke.');
    }
    await control.setMonitorView(operator, monitorGuids as string[], grant !== false);
    return noContent;
  },
};

/** Answers one control request; `path` is relative to `/__emulator` (`''` for its root). */
export async function controlReply(control: EmulatorControl, host: ControlHost, apiUrl: string, method: string, path: string, body: unknown): Promise<Reply> {
  if (method === 'GET' && path === '') {
    const endpoints = Object.keys(CONTROL_ROUTES).map((k) => k.replace(' /', ' /__emulator/'));
    return { status: 200, body: { api: apiUrl, endpoints } };
  }
  const route = CONTROL_ROUTES[`${method} ${path}`];
  if (!route) return { status: 404, body: { ErrorDescription: `No control endpoint ${method} /__emulator${path}; GET /__emulator lists them.` } };
  try {
    return await route(control, host, body, isObj(body) ? body : {});
  } catch (err) {
    if (err instanceof EmulatorConfigError || err instanceof ApiRequestError) {
      return { status: err instanceof ApiRequestError ? err.status : 400, body: { ErrorDescription: err.message } };
    }
    throw err;
  }
}
