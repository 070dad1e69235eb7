import { EmulatorConfigError } from './errors.js';
import { matchesRoute } from './hold.js';

export const FAULT_KINDS = ['500', '503', '429', 'reset', 'applied-then-reset', 'applied-then-500'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Scripted only: the request is not carried out and is answered 200 with the fault's `body`, as written (a listing of
 * `[null]`, a monitor without its GUID): what a client does with an answer the service should never give.
 */
export const ANSWER_FAULT = 'answer';
export type ScriptedFaultKind = FaultKind | typeof ANSWER_FAULT;

/** "The next `count` requests matching method and route fail with `kind`" (route: the path template, e.g. `/Monitor/{monitorGuid}`). */
export interface ScriptedFault {
  method?: string;
  route?: string;
  count: number;
  kind: ScriptedFaultKind;
  /** The answer's JSON body, for kind `answer` (required there, refused elsewhere). */
  body?: unknown;
}

/** What `decide` drew for a request: a fault kind, and the body an `answer` fault answers with. */
export interface FaultDecision {
  kind: ScriptedFaultKind;
  body?: unknown;
}

export interface FaultSettings {
  rate: number;
  seed: number;
  kinds: FaultKind[];
  retryAfterSeconds: number;
  scripted: ScriptedFault[];
}

export type FaultSettingsInput = Partial<FaultSettings>;

/** mulberry32: tiny, fast and deterministic for a seed, which is all fault injection needs. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkKind(kind: unknown, where: string): FaultKind {
  if (typeof kind === 'string' && (FAULT_KINDS as readonly string[]).includes(kind)) return kind as FaultKind;
  throw new EmulatorConfigError(`${where}: fault kind ${JSON.stringify(kind)} is not one of ${FAULT_KINDS.join(', ')}.`);
}

function checkScripted(input: unknown, i: number): ScriptedFault {
  if (typeof input !== 'object' || input === null) throw new EmulatorConfigError(`scripted[${i}] must be an object { method?, route?, count, kind, body? }.`);
  const s = input as Partial<ScriptedFault>;
  if (typeof s.count !== 'number' || !Number.isInteger(s.count) || s.count < 1) throw new EmulatorConfigError(`scripted[${i}].count must be a positive integer.`);
  const answer = s.kind === ANSWER_FAULT;
  if (answer !== Object.hasOwn(s, 'body')) {
    throw new EmulatorConfigError(`scripted[${i}]: "body" goes with kind "${ANSWER_FAULT}" (the JSON the request is answered with), and only with it.`);
  }
  const out: ScriptedFault = answer ? { count: s.count, kind: ANSWER_FAULT, body: structuredClone(s.body) } : { count: s.count, kind: checkKind(s.kind, `scripted[${i}]`) };
  if (s.method !== undefined) out.method = String(s.method).toUpperCase();
  if (s.route !== undefined) out.route = String(s.route);
  return out;
}

export class FaultInjector {
  private settings: FaultSettings;
  private random: () => number;

  constructor(input: FaultSettingsInput = {}) {
    // applied-then-500 is asked for by name: the sequences of seeds drawn from the first five kinds stay as they were.
    this.settings = { rate: 0, seed: 1, kinds: FAULT_KINDS.filter((k) => k !== 'applied-then-500'), retryAfterSeconds: 1, scripted: [] };
    this.random = mulberry32(1);
    this.set(input);
  }

  /** Replaces the given settings; a new seed (or rate) restarts the deterministic sequence. */
  set(input: FaultSettingsInput): FaultSettings {
    const next: FaultSettings = { ...this.settings, scripted: [...this.settings.scripted] };
    if (input.rate !== undefined) {
      if (typeof input.rate !== 'number' || !(input.rate >= 0 && input.rate <= 1)) {
        throw new EmulatorConfigError(`fault rate ${JSON.stringify(input.rate)} must be a number from 0 to 1.`);
      }
      next.rate = input.rate;
    }
    if (input.seed !== undefined) {
      if (!Number.isInteger(input.seed)) throw new EmulatorConfigError(`fault seed ${JSON.stringify(input.seed)} must be an integer.`);
      next.seed = input.seed;
    }
    if (input.kinds !== undefined) {
      if (!Array.isArray(input.kinds) || input.kinds.length === 0) throw new EmulatorConfigError('fault kinds must be a non-empty array.');
      next.kinds = input.kinds.map((k) => checkKind(k, 'kinds'));
    }
    if (input.retryAfterSeconds !== undefined) {
      if (!Number.isInteger(input.retryAfterSeconds) || input.retryAfterSeconds < 0) {
        throw new EmulatorConfigError('retryAfterSeconds must be a non-negative integer.');
      }
      next.retryAfterSeconds = input.retryAfterSeconds;
    }
    if (input.scripted !== undefined) {
      if (!Array.isArray(input.scripted)) throw new EmulatorConfigError('scripted faults must be an array.');
      next.scripted = input.scripted.map((s: unknown, i) => checkScripted(s, i));
    }
    if (input.seed !== undefined || input.rate !== undefined) this.random = mulberry32(next.seed);
    this.settings = next;
    return this.get();
  }

  get(): FaultSettings {
    return structuredClone(this.settings);
  }

  /** The scripted fault the last `decide` took, as one entry that `putBack` can return. */
  private lastScripted: ScriptedFault | undefined;

  /**
   * Returns the scripted fault the last `decide` took, first in line again: the request it was meant for never
   * reached the service (the rate-limited profile refused it), so the next one like it gets it.
   */
  putBack(): void {
    if (this.lastScripted === undefined) return;
    this.settings.scripted = [this.lastScripted, ...this.settings.scripted];
    this.lastScripted = undefined;
  }

  /** Decides the fault for one API request, if any. `template` is the matched route template. */
  decide(method: string, template: string, isWrite: boolean): FaultDecision | null {
    const scripted = this.settings.scripted.find((s) => matchesRoute(s, method, template));
    this.lastScripted = undefined;
    if (scripted) {
      const taken: ScriptedFault = { method, route: template, count: 1, kind: scripted.kind };
      if (scripted.kind === ANSWER_FAULT) taken.body = scripted.body;
      this.lastScripted = taken;
      scripted.count -= 1;
      if (scripted.count <= 0) this.settings.scripted = this.settings.scripted.filter((s) => s !== scripted);
      return scripted.kind === ANSWER_FAULT ? { kind: ANSWER_FAULT, body: structuredClone(scripted.body) } : { kind: scripted.kind };
    }
    if (this.settings.rate <= 0) return null;
    if (this.random() >= this.settings.rate) return null;
    const usable = this.settings.kinds.filter((k) => isWrite || !k.startsWith('applied-then-'));
    if (usable.length === 0) return null;
    const kind = usable[Math.floor(this.random() * usable.length)];
    return kind === undefined ? null : { kind };
  }
}
