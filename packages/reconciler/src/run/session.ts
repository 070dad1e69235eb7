import { createClient, type ClientOptions, type MonitoringClient } from '@monsync/client';
import { deriveFingerprintKey } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import type { LiveSnapshot } from '../live/types.js';
import { assemblePlan } from '../plan/assemble.js';
import { fingerprintDesiredSecrets } from '../plan/fingerprint.js';
import type { SecretFingerprints } from '../plan/secrets.js';
import type { Plan } from '../plan/types.js';

/** Steps at once an apply may be asked for: more would only queue in the client and crowd the service. */
export const MAX_PARALLELISM = 64;

export interface SessionOptions {
  /** Complete client options: credentials, hooks, parallelism. */
  client: ClientOptions;
  /** `MONSYNC_FINGERPRINT_KEY`; derived one-way from the credentials when unset or empty. */
  fingerprintKey?: string | undefined;
  /** `MONSYNC_OPERATOR`: the API account's operator (GUID or e-mail), whose own changes are not drift. */
  operator?: string | undefined;
}

/** A validated tree with what plan and apply need to talk to the account: the client, the fingerprint key and fingerprints. */
export interface PlanSession {
  readonly desired: DesiredState;
  /** The fingerprint key, for `applyPlan`'s `secrets` and `resolveSecrets`. */
  readonly key: string;
  readonly fingerprints: SecretFingerprints;
  readonly client: MonitoringClient;
  /** The API root the client talks to. */
  readonly apiUrl: string;
  /** Closes the client, once however often it is called (a failed read closes it early). */
  close(): Promise<void>;
  /** Assembles the plan of the tree against `live` (pure), attributing drift to anyone but the session's operator. */
  plan(live: LiveSnapshot, targets?: readonly string[], options?: { dedupe?: boolean }): Plan;
}

/**
 * The API account's own operator, so that objects it changed last are not reported as drift. The API has no
 * "who am I", so it is given (a GUID or an e-mail) and looked up among the operators read; unset, every change whose
 * last editor is known is attributed.
 */
export function selfOperatorGuid(live: Pick<LiveSnapshot, 'operators'>, wanted: string | undefined): string | undefined {
  const trimmed = wanted?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  const match = (live.operators ?? []).find(
    (operator) => operator['OperatorGuid'] === trimmed || (typeof operator['Email'] === 'string' && operator['Email'].toLowerCase() === trimmed.toLowerCase()),
  );
  const guid = match?.['OperatorGuid'];
  return typeof guid === 'string' ? guid : trimmed;
}

/**
 * Credentials, then secrets, then the client: every secret is read before any request, so a missing variable fails
 * fast and offline (an unavailable secret throws the schema's `SecretUnavailableError`, which names no value).
 */
export function openSession(desired: DesiredState, options: SessionOptions): PlanSession {
  const key = deriveFingerprintKey({ fingerprintKey: options.fingerprintKey, apiUser: options.client.username, apiPassword: options.client.password });
  const fingerprints = fingerprintDesiredSecrets(desired, key);
  const client = createClient(options.client);
  let closing: Promise<void> | undefined;
  return {
    desired,
    key,
    fingerprints,
    client,
    apiUrl: options.client.baseUrl,
    close: () => (closing ??= client.close()),
    plan(live, targets, extra) {
      const self = selfOperatorGuid(live, options.operator);
      return assemblePlan(desired, live, {
        fingerprints,
        ...(self === undefined ? {} : { selfOperatorGuid: self }),
        ...(targets === undefined ? {} : { targets }),
        ...(extra?.dedupe === true ? { dedupe: true } : {}),
      });
    },
  };
}
