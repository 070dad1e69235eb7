import { badRequest, validationFailed } from './errors.js';
import type { Rules } from './profiles.js';

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireBody(body: unknown, what: string): Obj {
  if (body === undefined) throw badRequest(`A JSON object body is required (${what}).`);
  if (!isObj(body)) throw badRequest(`The request body must be a JSON object (${what}).`);
  return body;
}

const PASCAL = /^[A-Z]/;

/**
 * Collects validation messages so one response can name every problem, then throws with the
 * status the endpoint family uses for validation (400, or 403 for SLA and scheduled reports).
 */
export class Checker {
  readonly errors: string[] = [];
  constructor(private readonly status: 400 | 403 = 400) {}

  add(message: string): void {
    this.errors.push(message);
  }

  /**
   * Unknown camelCase keys are almost always a client bug (monsync's own keys leaking into a request); the spec
   * states no such rule, so only the strict profile refuses them.
   */
  pascalKeys(body: Obj, rules: Pick<Rules, 'pascalKeys'>, allowed: readonly string[] = []): void {
    if (!rules.pascalKeys) return;
    for (const key of Object.keys(body)) {
      if (!PASCAL.test(key) && !allowed.includes(key)) {
        this.add(`Unknown field "${key}": API fields are PascalCase.`);
      }
    }
  }

  string(body: Obj, key: string, opts: { required?: boolean; nonEmpty?: boolean; oneOf?: readonly string[]; pattern?: RegExp; hint?: string } = {}): string | undefined {
    const value = body[key];
    if (value === undefined || value === null) {
      if (opts.required) this.add(`${key} is required.`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.add(`${key} must be a string.`);
      return undefined;
    }
    if ((opts.required || opts.nonEmpty) && value.trim() === '') {
      this.add(`${key} must not be empty.`);
      return undefined;
    }
    if (opts.oneOf && !opts.oneOf.includes(value)) {
      this.add(`${key} "${value}" is not one of: ${opts.oneOf.join(', ')}.`);
      return undefined;
    }
    if (opts.pattern && !opts.pattern.test(value)) {
      this.add(`${key} "${value}" is not valid${opts.hint ? ` (${opts.hint})` : ''}.`);
      return undefined;
    }
    return value;
  }

  boolean(body: Obj, key: string, opts: { required?: boolean } = {}): boolean | undefined {
    const value = body[key];
    if (value === undefined || value === null) {
      if (opts.required) this.add(`${key} is required.`);
      return undefined;
    }
    if (typeof value !== 'boolean') {
      this.add(`${key} must be true or false.`);
      return undefined;
    }
    return value;
  }

  number(body: Obj, key: string, opts: { required?: boolean; integer?: boolean; min?: number; max?: number } = {}): number | undefined {
    const value = body[key];
    if (value === undefined || value === null) {
      if (opts.required) this.add(`${key} is required.`);
      return undefined;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || (opts.integer && !Number.isInteger(value))) {
      this.add(`${key} must be ${opts.integer ? 'an integer' : 'a number'}.`);
      return undefined;
    }
    if ((opts.min !== undefined && value < opts.min) || (opts.max !== undefined && value > opts.max)) {
      this.add(`${key} must be between ${opts.min ?? '-inf'} and ${opts.max ?? 'inf'}.`);
      return undefined;
    }
    return value;
  }

  done(): void {
    if (this.errors.length === 0) return;
    throw this.status === 400 ? badRequest(this.errors) : validationFailed(this.errors);
  }
}

export function sameGuid(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** Removes keys whose value is `undefined` so JSON output and equality stay clean. */
export function compact<T extends Obj>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}
