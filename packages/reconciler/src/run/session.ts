import { createClient, type ClientOptions, type MonitoringClient } from '@monsync/client';
import { deriveFingerprintKey, OPERATOR_KIND, type PlanTarget } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { recordSelf, selfMatters, selfOf } from '../live/self.js';
import { liveScope } from '../plan/scope.js';
import type { LiveSnapshot } from '../live/types.js';
import { assemblePlan } from '../plan/assemble.js';
import { fingerprintDesiredSecrets } from '../plan/fingerprint.js';
import type { SecretFingerprints } from '../plan/secrets.js';
import type { Plan } from '../plan/types.js';
import { planTarget } from './plan-target.js';

/** Steps at once an apply may be asked for: more would only queue in the client and crowd the service. */
export const MAX_PARALLELISM = 64;

export interface SessionOptions {
  /** Complete client options: credentials, hooks, parallelism. */
  client: ClientOptions;
  /** `MONSYNC_FINGERPRINT_KEY`; derived one-way from the credentials when unset or empty. */
  fingerprintKey?: string | undefined;
  /**
   * `MONSYNC_OPERATOR` (or the action's input `operators`): the operators of the API accounts in use (GUIDs or
   * e-mails, a list or one text separated by commas, spaces or lines), whose own changes are not drift.
   */
  operator?: string | readonly string[] | undefined;
  /** Where `operator` came from, named in the warning about a value that matches no operator. */
  operatorSource?: string;
  /** Told of every `operator` value that matches no operator of the account (they are otherwise ignored silently). */
  onWarning?: (message: string) => void;
  /** The clock the on-call preview starts from; `Date.now` by default. */
  now?: () => number;
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
  /**
   * No operator is named (`apiOperator`, `MONSYNC_OPERATOR`, the action's `operators`): plans read the record the
   * service keeps of the API account's operator (`live/self.ts`), and apply makes it when there is none.
   */
  readonly readsSelf?: boolean;
  /** The service and API account every plan of the session records (`Plan.target`), and a saved plan must name. */
  readonly target: PlanTarget;
  /** Closes the client, once however often it is called (a failed read closes it early). */
  close(): Promise<void>;
  /** Assembles the plan of the tree against `live` (pure), attributing drift to anyone but the session's operator. */
  plan(live: LiveSnapshot, targets?: readonly string[], options?: { dedupe?: boolean; rotate?: readonly string[] | undefined }): Plan;
}

/** The values of `MONSYNC_OPERATOR` or of the action's `operators`: separated by commas, spaces or lines. */
export function operatorValues(wanted: string | readonly string[] | undefined): string[] {
  const texts = wanted === undefined ? [] : typeof wanted === 'string' ? [wanted] : wanted;
  return texts.flatMap((text) => text.split(/[\s,;]+/)).filter((value) => value !== '');
}

/**
 * The API accounts' own operators: the one place they are found, for drift attribution (objects they changed last
 * are not drift), the lock-out guard (never delete them or take their access) and the action, as named: GUIDs or
 * e-mails in `apiOperator:` of monsync.yaml, `MONSYNC_OPERATOR`, or the action's `operators` input. Unnamed, the
 * session takes the operator the service recorded as the creator of monsync's own vault section (`live/self.ts`). Each is looked up among the operators
 * read (the operator kind's listing, or the one drift reads). A value that matches no operator is kept as given (the
 * operators may be unreadable) and listed in `unmatched` when they were read.
 */
export function ownOperators(live: Pick<LiveSnapshot, 'operators'> & Partial<Pick<LiveSnapshot, 'lists'>>, wanted: string | readonly string[] | undefined): { guids: string[]; unmatched: string[] } {
  const guids: string[] = [];
  const unmatched: string[] = [];
  // A tree managing operators but no kind with drift reads no operators for drift: the operator kind's listing has them.
  const operators = live.operators ?? live.lists?.[OPERATOR_KIND.kind] ?? null;
  for (const value of operatorValues(wanted)) {
    const match = (operators ?? []).find(
      (operator) => operator['OperatorGuid'] === value || (typeof operator['Email'] === 'string' && operator['Email'].toLowerCase() === value.toLowerCase()),
    );
    const guid = match?.['OperatorGuid'];
    guids.push(typeof guid === 'string' ? guid : value);
    if (match === undefined && operators !== null) unmatched.push(value);
  }
  return { guids, unmatched };
}

/** The first of `ownOperators`: the one operator of a single API account. */
export function selfOperatorGuid(live: Pick<LiveSnapshot, 'operators'> & Partial<Pick<LiveSnapshot, 'lists'>>, wanted: string | undefined): string | undefined {
  return ownOperators(live, wanted).guids[0];
}

/**
 * Credentials, then secrets, then the client: every secret is read before any request. One that cannot be read is
 * needed only where the plan sends it (a create, a rotation, an update of a kind with no fingerprint marker), which
 * the plan refuses as SECRET_UNAVAILABLE; where it would only be compared, the account keeps its value.
 */
export function openSession(desired: DesiredState, options: SessionOptions): PlanSession {
  const key = deriveFingerprintKey({ fingerprintKey: options.fingerprintKey, apiUser: options.client.username, apiPassword: options.client.password });
  const unavailable = new Set<string>();
  const fingerprints = fingerprintDesiredSecrets(desired, key, unavailable);
  const client = createClient(options.client);
  const named = [...operatorValues(options.operator), ...operatorValues(desired.settings.apiOperator)];
  const target = planTarget(options.client.baseUrl, options.client.username);
  let closing: Promise<void> | undefined;
  return {
    desired,
    key,
    fingerprints,
    client,
    apiUrl: options.client.baseUrl,
    readsSelf: named.length === 0,
    target,
    close: () => (closing ??= client.close()),
    plan(live, targets, extra) {
      const own = ownOperators(live, named);
      for (const value of own.unmatched) {
        const source = desired.settings.apiOperator !== undefined && operatorValues(desired.settings.apiOperator).includes(value) ? 'monsync.yaml apiOperator' : (options.operatorSource ?? 'MONSYNC_OPERATOR');
        options.onWarning?.(
          `${source}: ${JSON.stringify(value)} matches no operator of the account (by GUID or e-mail), so the changes of that account are reported as drift`,
        );
      }
      // A value naming no operator of the account (a typo) is no operator: the lock-out guard then treats the API
      // account's operator as unknown and refuses every operator delete, rather than protect a GUID nobody has.
      const found = own.guids.filter((guid) => !own.unmatched.includes(guid));
      const recorded = selfOf(live.self);
      if (recorded !== undefined && !found.some((guid) => guid.toLowerCase() === recorded)) found.push(recorded);
      const plan = assemblePlan(desired, live, {
        fingerprints,
        ...(unavailable.size === 0 ? {} : { unavailableSecrets: unavailable }),
        ...(found.length === 0 ? {} : { selfOperatorGuids: found }),
        ...(targets === undefined ? {} : { targets }),
        ...(extra?.dedupe === true ? { dedupe: true } : {}),
        ...(extra?.rotate === undefined || extra.rotate.length === 0 ? {} : { rotate: extra.rotate }),
        now: (options.now ?? Date.now)(),
      });
      plan.target = target;
      return plan;
    },
  };
}

/**
 * After an apply that did its work (or had none to do), with no operator named: has the service record which operator the API
 * account acts for (`recordSelf`), so that later plans tell monsync's own changes from others'. Undefined when an
 * operator is named or the tree's plans do not use it.
 */
export async function recordSelfAfterApply(session: Pick<PlanSession, 'readsSelf' | 'desired' | 'client'>): Promise<Awaited<ReturnType<typeof recordSelf>> | undefined> {
  if (session.readsSelf !== true || !selfMatters(liveScope(session.desired))) return undefined;
  return recordSelf(session.client);
}
