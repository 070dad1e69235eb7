import type { DesiredState, SecretValue } from '../desired.js';
import { KINDS } from '../kinds/index.js';
import { findSecrets, fingerprintValue, secretAddress, type SecretFingerprints } from './secrets.js';

/**
 * The one place planning reveals secrets: each secret of a managed kind becomes its keyed fingerprint, passed to
 * `assemblePlan` as `options.fingerprints`, which keeps `assemblePlan` pure. An unavailable secret throws the
 * schema's `SecretUnavailableError`, which names the variable or file and never a value, unless `unavailable` is
 * given: then its address goes there (`assemblePlan`'s `unavailableSecrets`).
 */
export function fingerprintDesiredSecrets(desired: DesiredState, key: string | Uint8Array, unavailable?: Set<string>): SecretFingerprints {
  const out: Record<string, string> = {};
  for (const mod of KINDS) {
    if (desired.settings.manage[mod.section] === undefined) continue;
    for (const entry of mod.desired(desired)) {
      for (const { pointer, secret } of findSecrets(entry.fields)) {
        const address = secretAddress(entry.kind, entry.key, pointer);
        // A value is needed only where the plan sends or compares it (drafts.ts says where): without it, the address
        // is recorded, and the plan refuses only a step that would send it.
        const value = unavailable === undefined ? secret.reveal() : readable(secret);
        if (value === undefined) unavailable?.add(address);
        else out[address] = fingerprintValue(value, key);
      }
    }
  }
  return out;
}

/** The value, or undefined when it cannot be read (the schema's `SecretUnavailableError`, code SECRET_UNAVAILABLE). */
function readable(secret: SecretValue): string | undefined {
  try {
    return secret.reveal();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'SECRET_UNAVAILABLE') return undefined;
    throw error;
  }
}
