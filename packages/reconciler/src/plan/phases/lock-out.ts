/**
 * Phase 6b of `assemblePlan`, the lock-out guard: a plan that would take away the access monsync (or anyone) needs
 * to manage the account is refused before any write, whatever `--allow-unsafe` says. Refused: deleting the API
 * account's own operator, removing it from the Administrators group, leaving that group with no member, and
 * removing the last `change` access to a vault section whose access is managed. When the API account's operator is
 * not known (`selfOperatorGuids` empty), every operator delete and every change to the Administrators group's
 * members counts as a lock-out. Each problem names the step and how to do it by hand if it is really meant.
 */
import { OPERATOR_GROUP_KIND, OPERATOR_GROUP_MEMBER_KIND, OPERATOR_KIND, VAULT_ACCESS_KIND, VAULT_SECTION_KIND } from '@monsync/schema';
import { isAdministratorsGroup } from '../../kinds/operator-group.js';
import { idOf, splitCompound } from '../../kinds/shared.js';
import { listed, listedPerParent } from '../../live/snapshot.js';
import type { LiveSnapshot } from '../../live/types.js';
import { planProblem, type PlanProblem } from '../errors.js';
import type { PlanStep } from '../types.js';
import type { KindState } from './state.js';

const OPERATOR = OPERATOR_KIND.kind;
const MEMBER = OPERATOR_GROUP_MEMBER_KIND.kind;
const ACCESS = VAULT_ACCESS_KIND.kind;

const UNKNOWN_SELF =
  'monsync cannot tell which operator the API account in use acts for, so it refuses every operator delete and every change to the Administrators group; ' +
  'it learns it on its first apply that changes something, or name it with `apiOperator: <Email or OperatorGuid>` in monsync.yaml (MONSYNC_OPERATOR and the action\'s `operators` input count too)';

type Steps = readonly Omit<PlanStep, 'dependsOn'>[];

export function lockOutProblems(steps: Steps, states: readonly KindState[], live: LiveSnapshot, self: readonly string[]): PlanProblem[] {
  const own = new Set(self.map((guid) => guid.toLowerCase()));
  return [...operatorDeletes(steps, own), ...administratorsChanges(steps, live, own), ...lastChangeAccess(steps, states)];
}

function lockOut(step: Omit<PlanStep, 'dependsOn'>, what: string, byHand: string): PlanProblem {
  return planProblem('LOCK_OUT', `${step.action} ${step.kind}:${step.key} would ${what}; monsync never does that, with or without --allow-unsafe. If it is really meant, ${byHand}`, step.source);
}

const isOwn = (own: ReadonlySet<string>, guid: string): boolean => own.has(guid.toLowerCase());

function operatorDeletes(steps: Steps, own: ReadonlySet<string>): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const step of steps) {
    if (step.kind !== OPERATOR || step.action !== 'delete') continue;
    if (own.size === 0) problems.push(lockOut(step, `delete an operator that may be the API account's own (${UNKNOWN_SELF})`, 'delete the operator in the web application'));
    else if (isOwn(own, step.guid ?? '')) {
      problems.push(lockOut(step, 'delete the operator of the API account in use (the service refuses it with 403)', 'delete it in the web application signed in as another administrator, or run monsync with an API account of another administrator'));
    }
  }
  return problems;
}

/** The Administrators group's members: who they are before the plan, who leaves and who joins. */
function administratorsChanges(steps: Steps, live: LiveSnapshot, own: ReadonlySet<string>): PlanProblem[] {
  const admins = listed(live, OPERATOR_GROUP_KIND.kind).find(isAdministratorsGroup);
  if (admins === undefined) return [];
  const group = idOf(admins, 'OperatorGroupGuid').toLowerCase();
  const before = listedPerParent(live, MEMBER)[idOf(admins, 'OperatorGroupGuid')]?.map((m) => idOf(m, 'OperatorGuid').toLowerCase());
  const deletedOperators = new Set(steps.filter((s) => s.kind === OPERATOR && s.action === 'delete').map((s) => (s.guid ?? '').toLowerCase()));
  const problems: PlanProblem[] = [];
  const leaving = new Set<string>();
  let joining = 0;
  let last: Omit<PlanStep, 'dependsOn'> | undefined;
  for (const step of steps) {
    if (step.kind !== MEMBER) continue;
    const inAdmins = step.action === 'delete' ? splitCompound(step.guid)[0].toLowerCase() === group : String(step.desired?.OperatorGroupGuid ?? '').toLowerCase() === group;
    if (!inAdmins) continue;
    last = step;
    if (own.size === 0) {
      problems.push(lockOut(step, `change the members of the Administrators group (${UNKNOWN_SELF})`, 'change the group\'s members in the web application'));
      continue;
    }
    if (step.action === 'create') joining += 1;
    if (step.action !== 'delete') continue;
    const operator = splitCompound(step.guid)[1];
    leaving.add(operator.toLowerCase());
    if (isOwn(own, operator)) {
      problems.push(lockOut(step, 'remove the API account\'s own operator from the Administrators group, after which monsync could manage nothing', 'remove it in the web application signed in as another administrator'));
    }
  }
  for (const guid of deletedOperators) if (before?.includes(guid) === true) leaving.add(guid);
  if (before !== undefined && before.length > 0 && before.every((m) => leaving.has(m)) && joining === 0) {
    const step = last ?? steps.find((s) => s.kind === OPERATOR && s.action === 'delete' && before.includes((s.guid ?? '').toLowerCase()));
    if (step !== undefined) problems.push(lockOut(step, 'leave the Administrators group with no member, so that nobody could administer the account', 'add another administrator first, in a plan of its own'));
  }
  return problems;
}

/** Sections whose managed access would keep no `change` holder, where one had it before. */
function lastChangeAccess(steps: Steps, states: readonly KindState[]): PlanProblem[] {
  const state = states.find((s) => s.mod.kind === ACCESS);
  if (state === undefined || !state.managed) return [];
  const removedBy = new Map<string, Omit<PlanStep, 'dependsOn'>>();
  for (const step of steps) {
    if (step.guid === undefined) continue;
    if (step.kind === ACCESS && (step.action === 'delete' || (step.action === 'update' && step.desired?.level !== 'change'))) removedBy.set(step.guid.toLowerCase(), step);
  }
  const deletedSections = new Set(steps.filter((s) => s.kind === VAULT_SECTION_KIND.kind && s.action === 'delete').map((s) => (s.guid ?? '').toLowerCase()));
  const deletedPrincipals = new Map(steps.filter((s) => s.action === 'delete' && (s.kind === OPERATOR || s.kind === OPERATOR_GROUP_KIND.kind)).map((s) => [(s.guid ?? '').toLowerCase(), s]));
  const granted = new Set(steps.filter((s) => s.kind === ACCESS && s.action === 'create' && s.desired?.level === 'change').map((s) => String(s.desired?.VaultSectionGuid ?? '').toLowerCase()));
  const bySection = new Map<string, { kept: number; removed: Omit<PlanStep, 'dependsOn'>[] }>();
  for (const entry of state.live) {
    if (!String(entry.fields.level).startsWith('change')) continue;
    const section = entry.guid.slice(0, entry.guid.indexOf('/')).toLowerCase();
    const tally = bySection.get(section) ?? { kept: 0, removed: [] };
    // Deleting an operator or a group takes its access with it.
    const principal = entry.refs.find((r) => r.kind !== VAULT_SECTION_KIND.kind);
    const step = removedBy.get(entry.guid.toLowerCase()) ?? (principal === undefined ? undefined : deletedPrincipals.get(principal.guid.toLowerCase()));
    if (step !== undefined) tally.removed.push(step);
    else tally.kept += 1;
    bySection.set(section, tally);
  }
  const problems: PlanProblem[] = [];
  for (const [section, tally] of bySection) {
    if (tally.kept > 0 || granted.has(section) || deletedSections.has(section)) continue;
    for (const step of tally.removed) {
      problems.push(lockOut(step, 'remove the last `change` access to the vault section, after which nobody could change or delete it', 'give another operator or group `change` first, in a plan of its own'));
    }
  }
  return problems;
}
