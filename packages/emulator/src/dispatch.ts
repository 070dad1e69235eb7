import { authenticate } from './auth.js';
import { ApiRequestError } from './errors.js';
import { ANSWER_FAULT, mulberry32, type FaultInjector } from './faults.js';
import type { RateLimit, ReplyShapes, RequestRate, Rules } from './profiles.js';
import { JsonText, type Caller, type Reply, type RouteMatch, type Router, type Settings } from './router.js';
import type { Store } from './store.js';
import { isObj } from './validate.js';

/** One API request, as the HTTP adapter (or act-as) hands it over. */
export interface ApiRequest {
  method: string;
  /** Path under the API root (`/Monitor/<guid>`). */
  path: string;
  query: URLSearchParams;
  /** The parsed body; called only once the caller is authenticated, so an anonymous caller learns nothing but 401. */
  body: () => unknown;
  authorization?: string | undefined;
  /** The router's answer, kept once asked (the request log, the fault wrapper and dispatch share one match). */
  match?: RouteMatch;
}

export interface Outcome {
  reply: Reply;
  /** `METHOD /Template/{param}`, or `METHOD (unmatched)`: the request's name in the log. */
  route: string;
  write: boolean;
  caller?: Caller;
  /** Set by the fault wrapper: the connection drops before the request is carried out, or after. */
  drop?: 'before' | 'after';
  /** The injected fault or rate limit, for the request log. */
  fault?: string;
}

/** Runs one API request against a store: no I/O, so act-as, the HTTP adapter and tests share it. */
export type Dispatch = (store: Store, request: ApiRequest, caller?: Caller) => Outcome;
export type DispatchWrapper = (next: Dispatch) => Dispatch;

export function matchOf(router: Router, request: ApiRequest): RouteMatch {
  return (request.match ??= router.match(request.method, request.path));
}

export function routeName(request: ApiRequest, match: RouteMatch): string {
  if (match.kind === 'found') return match.route.key;
  return match.kind === 'method-not-allowed' ? `${request.method} ${match.template}` : `${request.method} (unmatched)`;
}

/** The error body the profile speaks. */
export function errorBody(rules: Rules, messages: readonly string[]): unknown {
  if (rules.errorBody === 'messages') return { Messages: messages.map((Message) => ({ Message })) };
  return { ErrorDescription: messages.length === 1 ? (messages[0] ?? '') : [...messages] };
}

export function errorReply(rules: Rules, err: ApiRequestError): Reply {
  return { status: err.status, body: errorBody(rules, err.descriptions), headers: err.headers };
}

function refusal(request: ApiRequest, match: RouteMatch, absent: readonly string[]): ApiRequestError | undefined {
  if (match.kind === 'not-found') return new ApiRequestError(404, 'NO_ROUTE', `No API endpoint ${request.method} ${request.path}.`);
  if (match.kind === 'method-not-allowed') {
    const allow = match.allow.join(', ');
    return new ApiRequestError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported on ${match.template}; allowed: ${allow}.`, { Allow: allow });
  }
  if (!absent.includes(match.route.key)) return undefined;
  return new ApiRequestError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported on ${match.route.template}.`);
}

/** The one dispatch every profile wraps: route, authenticate, then run the handler. */
export function createDispatch(router: Router, settings: Settings, internalError: (route: string, err: unknown) => void): Dispatch {
  return (store, request, given) => {
    const match = matchOf(router, request);
    const route = routeName(request, match);
    const write = match.kind === 'found' && match.route.write;
    let caller = given;
    try {
      // Unknown paths and methods are answered after authentication: an anonymous caller cannot map the API.
      caller ??= authenticate(store, request.authorization, match.kind === 'found' ? match.route.auth : 'api');
      const refused = refusal(request, match, settings.rules.absentRoutes);
      if (refused || match.kind !== 'found') throw refused;
      const reply = match.route.handler({ store, caller, params: match.params, query: request.query, body: request.body(), settings });
      return { reply, route, write, caller };
    } catch (err) {
      if (err instanceof ApiRequestError) return { reply: errorReply(settings.rules, err), route, write, ...(caller ? { caller } : {}) };
      internalError(route, err);
      return { reply: { status: 500, body: errorBody(settings.rules, ['Internal emulator error.']) }, route, write };
    }
  };
}

function bodyOf(reply: Reply): unknown {
  return reply.body instanceof JsonText ? (JSON.parse(reply.body.text.toString()) as unknown) : reply.body;
}

/** Puts the profile's status and body shape on successful replies (creates answering 201, writes answering 204, ...). */
export function withReplyShapes(shapes: ReplyShapes): DispatchWrapper {
  return (next) => (store, request, caller) => {
    const outcome = next(store, request, caller);
    const { reply } = outcome;
    if (reply.status < 200 || reply.status > 299) return outcome;
    const shape = shapes.routes[outcome.route] ?? shapes.methods[request.method];
    if (!shape) return outcome;
    const headers = reply.headers ? { headers: reply.headers } : {};
    if (shape.body === 'none') return { ...outcome, reply: { status: shape.status, ...headers } };
    if (shape.body === 'object') return { ...outcome, reply: { ...reply, status: shape.status } };
    const body = bodyOf(reply);
    const id = isObj(body) && shape.idField ? body[shape.idField] : undefined;
    return { ...outcome, reply: { status: shape.status, body: id, ...headers } };
  };
}

/** A share of requests refused with 429 and `Retry-After`, from a seeded sequence (the same seed, the same refusals). */
export function withRateLimit(limit: RateLimit, rules: Rules): DispatchWrapper {
  const random = mulberry32(limit.seed);
  return (next) => (store, request, caller) => {
    if (random() >= limit.share) return next(store, request, caller);
    const route = request.match?.kind === 'found' ? request.match.route.key : `${request.method} (unmatched)`;
    return {
      reply: { status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) }, body: errorBody(rules, ['Too many requests: the rate limit of the account was reached.']) },
      route,
      write: false,
      fault: 'rate-limit',
    };
  };
}

/**
 * A rate as a service limits one: a token bucket of `burst` tokens refilled at `perSecond`, one token a request.
 * An empty bucket answers 429 with the Retry-After the bucket implies (the seconds until a token is back, rounded up:
 * the header carries whole seconds), and the refused request costs no token.
 */
export function withRequestRate(rate: RequestRate, rules: Rules, nowMs: () => number): DispatchWrapper {
  let tokens = rate.burst;
  let filledAt = nowMs();
  return (next) => (store, request, caller) => {
    const now = nowMs();
    tokens = Math.min(rate.burst, tokens + ((now - filledAt) / 1000) * rate.perSecond);
    filledAt = now;
    if (tokens >= 1) {
      tokens -= 1;
      return next(store, request, caller);
    }
    const retryAfter = Math.max(1, Math.ceil((1 - tokens) / rate.perSecond));
    const route = request.match?.kind === 'found' ? request.match.route.key : `${request.method} (unmatched)`;
    return {
      reply: { status: 429, headers: { 'Retry-After': String(retryAfter) }, body: errorBody(rules, ['Too many requests: the rate limit of the account was reached.']) },
      route,
      write: false,
      fault: 'rate-limit',
    };
  };
}

const FAULT_TEXT: Record<string, string> = {
  '429': 'Too many requests (injected fault).',
  '503': 'Service unavailable (injected fault).',
  '500': 'Internal server error (injected fault).',
};

/** Injected faults: an error status, a connection reset before the request, or one after it was carried out. */
export function withFaults(faults: FaultInjector, router: Router, rules: Rules): DispatchWrapper {
  return (next) => (store, request, caller) => {
    const match = matchOf(router, request);
    if (match.kind !== 'found') return next(store, request, caller);
    const decision = faults.decide(request.method, match.route.template, match.route.write);
    if (!decision) return next(store, request, caller);
    const fault = decision.kind;
    const route = match.route.key;
    // Not carried out: what a request gets from a service that answers what it should not.
    if (fault === ANSWER_FAULT) return { reply: { status: 200, headers: {}, body: decision.body }, route, write: match.route.write, fault };
    if (fault === 'applied-then-reset' || fault === 'applied-then-500') {
      const outcome = next(store, request, caller);
      // Refused by the rate limit, the request was never carried out: its answer stands, and the scripted fault
      // waits for the next request like it (a fault "after the write" with no write would be a lost create that
      // was never made).
      if (outcome.fault === 'rate-limit') {
        faults.putBack();
        return outcome;
      }
      if (fault === 'applied-then-reset') return { ...outcome, drop: 'after', fault };
      // The write is carried out, and the answer is a 500 all the same: the client cannot tell it from one not applied.
      return { ...outcome, reply: { status: 500, headers: {}, body: errorBody(rules, [FAULT_TEXT['500'] ?? '']) }, fault };
    }
    if (fault === 'reset') return { reply: { status: 0 }, route, write: match.route.write, drop: 'before', fault };
    const headers: Record<string, string> = fault === '429' ? { 'Retry-After': String(faults.get().retryAfterSeconds) } : {};
    return { reply: { status: Number(fault), headers, body: errorBody(rules, [FAULT_TEXT[fault] ?? 'Injected fault.']) }, route, write: match.route.write, fault };
  };
}
