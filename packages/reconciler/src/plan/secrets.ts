/**
 * Write-only secrets (docs/architecture.md, Identity, ownership and secrets). The service never returns them, so they are compared by keyed fingerprint.
 * Values are revealed only in `fingerprintDesiredSecrets` (planning) and by apply when it writes them.
 */
import { createHash, createHmac } from 'node:crypto';
import { isSecretValue, type SecretValue } from '../desired.js';
import type { StepKind } from './types.js';
import { compareStrings, escapePointer, isPlainObject } from './values.js';

/** Fingerprint (HMAC-SHA-256 hex) per secret address (`<kind>:<key>#<pointer>`). */
export type SecretFingerprints = Readonly<Record<string, string>>;

export interface SecretAt {
  pointer: string;
  secret: SecretValue;
}

export function secretAddress(kind: StepKind, key: string, pointer: string): string {
  return `${kind}:${key}#${pointer}`;
}

/** Whether any secret is inside a value; cheap (builds no pointers). */
export function hasSecret(value: unknown): boolean {
  // Scalars are most of what this walks, and hold nothing.
  if (typeof value !== 'object' || value === null) return false;
  if (isSecretValue(value)) return true;
  if (Array.isArray(value)) return value.some(hasSecret);
  if (isPlainObject(value)) {
    for (const key in value) if (hasSecret(value[key])) return true;
  }
  return false;
}

/** Every secret in declared fields, in pointer order (the fixed order combined fingerprints use). */
export function findSecrets(value: unknown, pointer = ''): SecretAt[] {
  if (!hasSecret(value)) return [];
  const found: SecretAt[] = [];
  const walk = (v: unknown, p: string): void => {
    if (isSecretValue(v)) found.push({ pointer: p, secret: v });
    else if (Array.isArray(v)) v.forEach((child, i) => walk(child, `${p}/${i}`));
    else if (isPlainObject(v)) for (const [k, child] of Object.entries(v)) walk(child, `${p}/${escapePointer(k)}`);
  };
  walk(value, pointer);
  return found.length < 2 ? found : found.sort((a, b) => compareStrings(a.pointer, b.pointer));
}

/** Same algorithm as the schema package's `fingerprintSecret`: HMAC-SHA-256 of the value, hex. */
export function fingerprintValue(value: string, key: string | Uint8Array): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

/** One fingerprint for an object holding several secrets: their fingerprints in pointer order. */
export function combineFingerprints(parts: readonly { pointer: string; fingerprint: string }[]): string {
  const lines = [...parts].sort((a, b) => compareStrings(a.pointer, b.pointer)).map((p) => `${p.pointer}=${p.fingerprint}`);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/**
 * Deep copy of declared fields with every secret replaced by `replace(pointer)`; a replacement of `undefined`
 * drops the field, and an object left empty by that is dropped too.
 */
export function replaceSecrets(value: unknown, replace: (pointer: string) => unknown, pointer = ''): unknown {
  if (!hasSecret(value)) return value;
  if (isSecretValue(value)) return replace(pointer);
  if (Array.isArray(value)) return value.map((child, i) => replaceSecrets(child, replace, `${pointer}/${i}`)).filter((c) => c !== undefined);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    let hadSecret = false;
    for (const [k, child] of Object.entries(value)) {
      const replaced = replaceSecrets(child, replace, `${pointer}/${escapePointer(k)}`);
      if (isSecretValue(child) || (isPlainObject(child) && replaced === undefined)) hadSecret = true;
      if (replaced !== undefined) out[k] = replaced;
    }
    if (hadSecret && Object.keys(out).length === 0) return undefined;
    return out;
  }
  return value;
}
