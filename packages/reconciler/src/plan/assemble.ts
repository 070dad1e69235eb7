/**
 * assemblePlan: desired state + live snapshot -> plan. Pure and deterministic: no I/O, no clock, no environment;
 * the same inputs give byte-identical JSON. Secrets arrive already fingerprinted (`fingerprintDesiredSecrets`).
 *
 * A pipeline of phases, each a pure function of its own module in `phases/` (the shape of changesets'
 * assemble-release-plan): inputs, match (identity), references, drafts (creates, updates, ensures), deletes and
 * prune, protection, ordering and dependencies, safety, policy, digests. Phases return problems as data; the first phase that finds
 * any ends the plan with one `PlanError` holding them all. Everything kind-specific lives in `src/kinds/`.
 */
import type { PlanPaging, PlanWaiver } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import type { LiveSnapshot } from '../live/types.js';
import { resolveAlerting } from '../kinds/alerting.js';
import { resolveOutgoingPhoneNumbers } from '../kinds/outgoing-phone-number.js';
import { onCallOfPlan, PlanPeople } from '../on-call/of-plan.js';
import { pagingOfPlan } from '../paging/of-plan.js';
import { PlanError, type PlanProblem } from './errors.js';
import { ignoreMatcher } from './ignore.js';
import { deletesRefused, draftDeletes } from './phases/deletes.js';
import { digestsOnFirstRead, guidNames, planDigestOf, stepDigest } from './phases/digests.js';
import { draftChanges } from './phases/drafts.js';
import { inputProblems } from './phases/inputs.js';
import { ignoreUnmatched, matchKinds, unknownIgnoreKinds } from './phases/match.js';
import { globMatches, linkDependencies, orderAndName, selectTargets, targetOrphans } from './phases/order.js';
import { referencesToDeleted, unresolvedReferences } from './phases/references.js';
import { markProtected } from './phases/protect.js';
import { policyFindings } from './phases/policy.js';
import { markRevived } from './phases/retire.js';
import { lockOutProblems } from './phases/lock-out.js';
import { safetyViolations } from './phases/safety.js';
import { liveScope } from './scope.js';
import type { SecretFingerprints } from './secrets.js';
import type { Draft, KindState } from './phases/state.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanWarning } from './types.js';

export interface PlanOptions {
  /** From `fingerprintDesiredSecrets`; required when a managed object declares secrets. */
  fingerprints?: SecretFingerprints;
  /**
   * Secrets whose value could not be read (`fingerprintDesiredSecrets`' `unavailable`): a step that sends one is a
   * problem (SECRET_UNAVAILABLE); a compared one is left as the account has it, with a warning.
   */
  unavailableSecrets?: ReadonlySet<string>;
  /** The API account's operator: updates of objects it changed last are not drift. Unknown: every update is attributed. */
  selfOperatorGuid?: string;
  /** More of the account's own operators (the plan and the apply API accounts): their changes are not drift either. */
  selfOperatorGuids?: readonly string[];
  /** `kind:key` patterns (globs allowed): plan only these steps and the steps they depend on. */
  targets?: readonly string[];
  /** Live objects sharing a declared key: keep the oldest and delete (or retire) the others, instead of failing. */
  dedupe?: boolean;
  /**
   * The plan's clock (ms since the epoch): the on-call preview shows the 7 days from it (`onCall`). Without it the
   * plan has no preview, so the same inputs always give the same plan.
   */
  now?: number;
  /**
   * `kind:key` patterns (globs allowed; `monsync apply --rotate operator:<Email>`): send the write-once fields of
   * these objects again (an operator's password and the settings the service does not return).
   */
  rotate?: readonly string[];
}

/** Whether `--rotate` names an object (by `kind:key`, globs allowed, keys compared as the kind compares them). */
function rotation(patterns: readonly string[] | undefined): ((kind: string, key: string) => boolean) | undefined {
  if (patterns === undefined || patterns.length === 0) return undefined;
  return (kind, key) => patterns.some((p) => globMatches(p, `${kind}:${key}`) || globMatches(p.toLowerCase(), `${kind}:${key}`.toLowerCase()));
}

/** The API account's own operators, as the options name them. */
function selfGuids(options: PlanOptions): string[] {
  return [...(options.selfOperatorGuid === undefined ? [] : [options.selfOperatorGuid]), ...(options.selfOperatorGuids ?? [])];
}

/** Said once in a plan that would have labelled a change as made outside git, or kept an access, had monsync known its operator. */
export const SELF_UNKNOWN_WARNING: PlanWarning = {
  code: 'API_OPERATOR_UNKNOWN',
  message:
    'monsync cannot tell which operator the API account acts for, so it labels no change as made outside git and keeps the vault accesses, group memberships and groups that may be its way into a section the tree manages. ' +
    'It learns it on its first apply that changes something (the service records the operator in a vault section monsync creates, "monsync API account (do not edit)"), ' +
    'or name it with `apiOperator: <Email or OperatorGuid>` in monsync.yaml',
};

/** Whether an update or delete of an object someone changed last would have carried drift (`driftOf`), had monsync known its operator. */
function unlabelledDrift(drafts: readonly Draft[], states: readonly KindState[]): boolean {
  const mods = new Map(states.map((state) => [state.mod.kind, state.mod] as const));
  return drafts.some((draft) => {
    if (draft.liveEntry === undefined || (draft.step.action !== 'update' && draft.step.action !== 'delete')) return false;
    const operatorId = mods.get(draft.step.kind)?.lastModified?.(draft.liveEntry).operatorId;
    return operatorId !== undefined && operatorId !== '';
  });
}

/** The previewed definitions whose `alertsReachSomeone` finding a waiver silenced: the comment does not warn of them. */
function markWaived(paging: PlanPaging, waived: readonly PlanWaiver[]): PlanPaging {
  for (const definition of paging.definitions) {
    const waiver = waived.find((w) => w.key === definition.key);
    if (waiver !== undefined) definition.waived = { file: waiver.file, line: waiver.line, column: waiver.column };
  }
  return paging;
}

function throwIfAny(problems: readonly PlanProblem[]): void {
  if (problems.length > 0) throw new PlanError([...problems]);
}

export function assemblePlan(declared: DesiredState, live: LiveSnapshot, options: PlanOptions = {}): Plan {
  const scope = liveScope(declared);
  throwIfAny(inputProblems(declared, live, scope));
  // Names that only the live account can turn into ids (an operator's outgoing phone number), resolved first.
  const { desired: withNumbers, problems: nameProblems } = resolveOutgoingPhoneNumbers(declared, live);
  // And the level numbers, integration names and settings of alert definitions, which only the account settles.
  const { desired, problems: alertingProblems, warnings: alertingWarnings } = resolveAlerting(withNumbers, live);
  throwIfAny([...nameProblems, ...alertingProblems]);

  const ignore = ignoreMatcher(desired.settings.ignore);
  const warnings = [...unknownIgnoreKinds(ignore), ...alertingWarnings];
  const { states, resolution, problems: matchProblems, warnings: matchWarnings } = matchKinds(desired, live, scope, ignore, { dedupe: options.dedupe, self: selfGuids(options) });
  warnings.push(...matchWarnings, ...ignoreUnmatched(ignore, states));
  throwIfAny(matchProblems);

  const draftOptions = { fingerprints: options.fingerprints, unavailable: options.unavailableSecrets, selfOperatorGuid: options.selfOperatorGuid, selfOperatorGuids: options.selfOperatorGuids, operators: live.operators, rotates: rotation(options.rotate) };
  const drafted = draftChanges(states, resolution, draftOptions);
  warnings.push(...drafted.warnings);
  markRevived(drafted.drafts, states);
  const deletes = draftDeletes(states, draftOptions);
  throwIfAny([
    ...unresolvedReferences(states, resolution),
    ...drafted.problems,
    ...referencesToDeleted(states, resolution, deletes.deleted),
    ...deletesRefused(deletes.drafts, states, resolution),
  ]);

  warnings.push(...deletes.kept);
  const drafts = [...drafted.drafts, ...deletes.drafts];
  if (selfGuids(options).length === 0 && (deletes.kept.length > 0 || drafted.warnings.some((w) => w.code === 'ACCESS_KEPT') || unlabelledDrift(drafts, states))) warnings.unshift(SELF_UNKNOWN_WARNING);
  markProtected(deletes.drafts, states, resolution, desired.protection);
  linkDependencies(drafts, states);
  const { selected, warnings: targetWarnings } = selectTargets(drafts, options.targets);
  warnings.push(...targetWarnings);
  if (selected.length < drafts.length) throwIfAny(targetOrphans(selected, states));
  const steps = orderAndName(selected);
  // Never overridable (not a safety violation): the plan is refused before apply could write anything.
  throwIfAny(lockOutProblems(steps, states, live, selfGuids(options)));
  const names = guidNames(states);
  const sets = new Map(states.map((state) => [state.mod.kind, state.mod.setFields] as const));
  for (const step of steps) step.digest = stepDigest(step, sets.get(step.kind) ?? [], names);

  const summary = { create: 0, update: 0, delete: 0, ensure: 0, unchanged: drafted.unchanged, unmanaged: deletes.unmanaged.length };
  for (const step of steps) summary[step.action] += 1;
  const violations = safetyViolations(states, steps, desired.settings.safety);
  // The people of both moments and their hours, built once for the policy and both previews, and only as far as they read them.
  const people = new PlanPeople(live, steps, options.now);
  const { findings: policy, warnings: policyWarnings, waived } = policyFindings(desired, states, steps, resolution, live, people);
  warnings.push(...policyWarnings);

  const onCall = options.now === undefined ? undefined : onCallOfPlan(desired, live, steps, options.now, people);
  const paging = options.now === undefined ? undefined : pagingOfPlan(live, steps, options.now, people);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    configDigest: '',
    liveDigest: '',
    planDigest: planDigestOf(steps.map((step) => step.digest ?? '')),
    summary,
    safe: violations.length === 0,
    violations,
    steps,
    unmanaged: deletes.unmanaged,
    warnings,
  };
  digestsOnFirstRead(plan, desired, states, options.fingerprints);
  if (policy.length > 0) plan.policy = policy;
  if (onCall !== undefined) plan.onCall = onCall;
  if (paging !== undefined) plan.paging = markWaived(paging, waived);
  return plan;
}
