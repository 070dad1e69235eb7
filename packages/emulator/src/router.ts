import type { Rules } from './profiles.js';
import type { Store } from './store.js';
import type { Obj } from './validate.js';

export interface Caller {
  operatorGuid: string;
  /** Operators in the Administrators group have every administration privilege. */
  isAdmin: boolean;
  apiUserName: string;
}

export interface Settings {
  pageSize: number;
  now: () => Date;
  operatorGroupAuthorizationForm: 'legacy' | 'announced';
  /** The profile's rules (profiles.ts). */
  rules: Rules;
}

export interface RequestContext {
  store: Store;
  caller: Caller;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  settings: Settings;
}

export interface Reply {
  status: number;
  /** A JSON value, or `JsonText` when the handler built the text itself. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A reply body that is already JSON text (listings joined from cached per-object renderings): sent as it is,
 * and parsed only where a value is needed (act-as).
 */
export class JsonText {
  constructor(readonly text: string | Buffer) {}
}

/** `api`: an API account; `login`: the operator's own login (POST /Register only). */
export type AuthKind = 'api' | 'login';

export interface Route {
  method: string;
  template: string;
  /** `METHOD /Template/{param}`: the route's name in the request log and fault rules. */
  key: string;
  auth: AuthKind;
  write: boolean;
  handler: (ctx: RequestContext) => Reply;
  segments: Array<{ literal: string } | { param: string }>;
  literalCount: number;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[]; template: string }
  | { kind: 'not-found' };

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Router {
  private readonly bySize = new Map<number, Route[]>();

  add(method: string, template: string, handler: (ctx: RequestContext) => Reply, auth: AuthKind = 'api'): void {
    const segments = template
      .split('/')
      .filter(Boolean)
      .map((s) => (s.startsWith('{') ? { param: s.slice(1, -1) } : { literal: s.toLowerCase() }));
    const route: Route = {
      method,
      template,
      key: `${method} ${template}`,
      auth,
      write: WRITE_METHODS.has(method),
      handler,
      segments,
      literalCount: segments.filter((s) => 'literal' in s).length,
    };
    const list = this.bySize.get(segments.length) ?? [];
    list.push(route);
    // Most literal segments first, so `/Monitor/MonitorGroup/{g}` wins over a parameter in the same place.
    list.sort((a, b) => b.literalCount - a.literalCount);
    this.bySize.set(segments.length, list);
  }

  match(method: string, path: string): RouteMatch {
    let parts: string[];
    try {
      parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    } catch {
      return { kind: 'not-found' };
    }
    const candidates = this.bySize.get(parts.length) ?? [];
    let pathMatch: { template: string; literalCount: number } | undefined;
    const allow: string[] = [];
    for (const route of candidates) {
      if (pathMatch && route.literalCount < pathMatch.literalCount) break;
      const params = matchSegments(route, parts);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      pathMatch ??= { template: route.template, literalCount: route.literalCount };
      if (route.template === pathMatch.template) allow.push(route.method);
    }
    return pathMatch ? { kind: 'method-not-allowed', allow, template: pathMatch.template } : { kind: 'not-found' };
  }
}

/**
 * v4 paths are singular and "old plural paths remain accepted"; the one the spec names is `.../Members` beside
 * `.../Member` (spec, Endpoints). No other plural is invented.
 */
const FORMER_PLURALS: Readonly<Record<string, string>> = { member: 'members' };

function matchSegments(route: Route, parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i];
    const part = parts[i];
    if (seg === undefined || part === undefined) return null;
    if ('literal' in seg) {
      const lower = part.toLowerCase();
      if (lower !== seg.literal && lower !== FORMER_PLURALS[seg.literal]) return null;
    } else {
      params[seg.param] = part;
    }
  }
  return params;
}

export type { Obj };
