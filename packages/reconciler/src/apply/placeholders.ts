/**
 * A plan refers to objects it creates by placeholder: `{{monitorGroup:Shop}}` (a GUID-valued field) and
 * `{{vault:Web/shop-login}}` (a monitor variable referring to a new vault item). Apply learns each GUID when the
 * create is done and substitutes it in the steps that depend on it.
 */
import { placeholder } from '../kinds/contract.js';
import { kindModule } from '../kinds/index.js';
import type { Plan, StepKind } from '../plan/types.js';
import { isPlainObject } from '../plan/values.js';

const TOKEN = /\{\{[A-Za-z]+:[^{}]*\}\}/g;

export class Placeholders {
  /** Every placeholder that names an object this plan creates, and the create step behind it. */
  readonly #pending = new Map<string, string>();
  readonly #learned = new Map<string, string>();

  constructor(plan: Plan) {
    for (const step of plan.steps) {
      if (step.action !== 'create') continue;
      for (const token of tokensFor(step.kind, step.key)) this.#pending.set(token, step.id);
    }
  }

  learn(kind: StepKind, key: string, guid: string): void {
    this.#learned.set(placeholder(kind, key), guid);
    const inline = kindModule(kind).inlinePlaceholder;
    if (inline !== undefined) this.#learned.set(inline.of(key), inline.resolved(guid));
  }

  /** The GUID learned for a created object, if it is done. */
  guidOf(kind: StepKind, key: string): string | undefined {
    return this.#learned.get(placeholder(kind, key));
  }

  /**
   * A copy with every known placeholder substituted. A placeholder of a create that is not done yet is an error
   * (the dependency order should have prevented it); text that merely looks like one is left as written.
   */
  substitute<T>(value: T): T {
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') {
      if (!value.includes('{{')) return value;
      return value.replace(TOKEN, (token) => {
        const learned = this.#learned.get(token);
        if (learned !== undefined) return learned;
        const waitingFor = this.#pending.get(token);
        if (waitingFor !== undefined) throw new Error(`${token} refers to ${waitingFor}, which has not created its object`);
        return token;
      });
    }
    if (Array.isArray(value)) return value.map((child) => this.#walk(child));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(value)) out[k] = this.#walk(child);
      return out;
    }
    return value;
  }
}

function tokensFor(kind: StepKind, key: string): string[] {
  const inline = kindModule(kind).inlinePlaceholder;
  return inline === undefined ? [placeholder(kind, key)] : [placeholder(kind, key), inline.of(key)];
}
