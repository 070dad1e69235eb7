/**
 * The plan holds no secrets: each one is `{ sensitive: true, fingerprint }` in a step's body. Apply reads the
 * values again from the config's sources, checks each against its planned fingerprint (all of them, before any
 * write), and fills them in only at the moment a request is built.
 */
import type { DesiredEntry } from '../kinds/contract.js';
import { kindModule } from '../kinds/index.js';
import { findSecrets, fingerprintValue } from '../plan/secrets.js';
import type { Plan, StepKind } from '../plan/types.js';
import { escapePointer, isPlainObject } from '../plan/values.js';
import { SecretChangedError, SecretSourceError, type SecretMismatch } from './errors.js';
import type { SecretSource } from './types.js';

export interface SensitiveSlot {
  pointer: string;
  fingerprint: string;
}

export function isSensitiveSlot(value: unknown): value is { sensitive: true; fingerprint: string } {
  return isPlainObject(value) && value.sensitive === true && typeof value.fingerprint === 'string' && Object.keys(value).length === 2;
}

/** Every `{ sensitive, fingerprint }` placeholder in a body, by JSON pointer. */
export function sensitiveSlots(body: unknown): SensitiveSlot[] {
  const found: SensitiveSlot[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (isSensitiveSlot(value)) found.push({ pointer, fingerprint: value.fingerprint });
    else if (Array.isArray(value)) value.forEach((child, i) => walk(child, `${pointer}/${i}`));
    else if (isPlainObject(value)) for (const [k, child] of Object.entries(value)) walk(child, `${pointer}/${escapePointer(k)}`);
  };
  walk(body, '');
  return found;
}

/** Secret values per step id and pointer, checked against the plan; `values` feeds redaction. */
export interface ResolvedSecrets {
  forStep(stepId: string): ReadonlyMap<string, string> | undefined;
  /** Every revealed value, so any message can be scrubbed of them. */
  values: readonly string[];
}

export function resolveSecrets(plan: Plan, source: SecretSource | undefined): ResolvedSecrets {
  const byStep = new Map<string, Map<string, string>>();
  const values = new Set<string>();
  const mismatches: SecretMismatch[] = [];
  const entries = new Map<StepKind, Map<string, DesiredEntry>>();
  const entryOf = (kind: StepKind, key: string): DesiredEntry | undefined => {
    let byKey = entries.get(kind);
    if (byKey === undefined) {
      byKey = new Map();
      if (source !== undefined) for (const entry of kindModule(kind).desired(source.desired)) byKey.set(entry.key, entry);
      entries.set(kind, byKey);
    }
    return byKey.get(key);
  };

  for (const step of plan.steps) {
    const slots = sensitiveSlots(step.desired);
    if (slots.length === 0) continue;
    if (source === undefined) {
      throw new SecretSourceError(`step ${step.id} writes ${slots.map((s) => s.pointer).join(', ')}, a secret; apply needs the config tree the plan was made from to read it (nothing was applied)`);
    }
    const entry = entryOf(step.kind, step.key);
    const declared = new Map((entry === undefined ? [] : findSecrets(entry.fields)).map((s) => [s.pointer, s.secret]));
    const resolved = new Map<string, string>();
    for (const slot of slots) {
      const secret = declared.get(slot.pointer);
      if (secret === undefined) {
        throw new SecretSourceError(
          `step ${step.id} writes the secret ${slot.pointer}, which the config tree no longer declares; make a new plan (nothing was applied)`,
        );
      }
      // Throws the schema's SecretUnavailableError, which names the variable or file and never a value.
      const value = secret.reveal();
      if (fingerprintValue(value, source.key) !== slot.fingerprint) mismatches.push({ stepId: step.id, pointer: slot.pointer, source: secret.describe() });
      resolved.set(slot.pointer, value);
      if (value !== '') values.add(value);
    }
    byStep.set(step.id, resolved);
  }
  if (mismatches.length > 0) throw new SecretChangedError(mismatches);
  return { forStep: (id) => byStep.get(id), values: [...values] };
}

/** A copy of `body` with each sensitive placeholder replaced by its value. */
export function fillSecrets(body: unknown, values: ReadonlyMap<string, string>, pointer = ''): unknown {
  if (isSensitiveSlot(body)) return values.get(pointer) ?? body;
  if (Array.isArray(body)) return body.map((child, i) => fillSecrets(child, values, `${pointer}/${i}`));
  if (isPlainObject(body)) {
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(body)) out[k] = fillSecrets(child, values, `${pointer}/${escapePointer(k)}`);
    return out;
  }
  return body;
}
