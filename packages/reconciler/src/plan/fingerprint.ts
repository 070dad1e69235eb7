import type { DesiredState } from '../desired.js';
import { KINDS } from '../kinds/index.js';
import { findSecrets, fingerprintValue, secretAddress, type SecretFingerprints } from './secrets.js';

/**
 * The one place planning reveals secrets: each secret of a managed kind becomes its keyed fingerprint, passed to
 * `assemblePlan` as `options.fingerprints`, which keeps `assemblePlan` pure. An unavailable secret throws the
 * schema's `SecretUnavailableError`, which names the variable or file and never a value.
 */
export function fingerprintDesiredSecrets(desired: DesiredState, key: string | Uint8Array): SecretFingerprints {
  const out: Record<string, string> = {};
  for (const mod of KINDS) {
    if (desired.settings.manage[mod.section] === undefined) continue;
    for (const entry of mod.desired(desired)) {
      for (const { pointer, secret } of findSecrets(entry.fields)) {
        out[secretAddress(entry.kind, entry.key, pointer)] = fingerprintValue(secret.reveal(), key);
      }
    }
  }
  return out;
}
