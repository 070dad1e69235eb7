import { ALERT_DEFINITION_KIND, OPERATOR_AUTHORIZATION_KIND, OPERATOR_KIND } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { liveEntry, placeholder, placeholderKey, type KindModule, type LiveEntry, type Resolver } from './contract.js';
import { idOf } from './shared.js';
import type { ApiObject } from '../live/types.js';
import { liveTypeAuthorizations, typeAuthorizationKind, typeOf, type DeclaredTypes, type TypeAuthorizationSpec } from './type-authorizations.js';

const OPERATOR = OPERATOR_KIND.kind;
const KIND = OPERATOR_AUTHORIZATION_KIND.kind;

/** What every new operator is given by the service (published definition section 7): seeing monitors and dashboards. */
export const ACCOUNT_ACCESS = 'AccountAccess';
/** Listed for the account administrator, never assignable: a system entry, shown and never planned. */
export const ACCOUNT_ADMINISTRATOR = 'AccountAdministrator';

function declaredTypes(state: DesiredState): DeclaredTypes[] {
  return (state.operators ?? []).flatMap(({ value, source }) => (value.authorizations === undefined ? [] : [{ key: value.Email, types: value.authorizations, source }]));
}

const spec: TypeAuthorizationSpec = {
  entry: OPERATOR_AUTHORIZATION_KIND,
  parent: OPERATOR,
  guidField: 'OperatorGuid',
  declared: declaredTypes,
  read: {
    list: (client, operatorGuid) => client.operators.authorizations.list(operatorGuid),
    what: (operator) => `authorizations of operator "${idOf(operator, 'Email')}" (${idOf(operator, 'OperatorGuid')})`,
    // Only the operators whose list the tree declares: one request each, none for the others.
    only: (state) => (state.operators ?? []).filter(({ value }) => value.authorizations !== undefined).flatMap(({ value }) => [value.Email, value.OperatorGuid ?? ''].filter((id) => id !== '').map((id) => id.toLowerCase())),
  },
  add: (client, operatorGuid, type) => client.operators.authorizations.add(operatorGuid, type),
  remove: (client, operatorGuid, type) => client.operators.authorizations.remove(operatorGuid, type),
};

/**
 * Rights the API account's operator holds through its own authorizations and needs to manage the tree:
 * `AccountAccess` (seeing what it manages), and, unless it is an account administrator (who may do everything), the
 * right to create the alert definitions a tree managing them creates.
 */
function selfNeeds(held: ReadonlySet<string>, desired: DesiredState): ReadonlySet<string> {
  const needs = new Set([ACCOUNT_ACCESS]);
  if (!held.has(ACCOUNT_ADMINISTRATOR) && desired.settings.manage[ALERT_DEFINITION_KIND.section] !== undefined) needs.add('CreateAlertDefinition');
  return needs;
}

/**
 * Why an authorization the tree leaves out stays (no self lock-out): it is, or may be, the API account's own operator's,
 * and grants a right monsync needs; undefined when it may go.
 */
function keptBecause(type: string, needs: ReadonlySet<string>, self: { knows: boolean; is: boolean }): string | undefined {
  if ((self.knows && !self.is) || !needs.has(type)) return undefined;
  const right = type === ACCOUNT_ACCESS ? 'see the monitors, groups and settings it manages' : 'create the alert definitions the tree declares';
  return self.knows
    ? `it is the API account's own operator, which needs \`${type}\` to ${right}, so removing it would lock monsync out; if it is really meant, remove it in the web application signed in as another administrator`
    : `monsync cannot tell which operator the API account acts for, and this may be its own \`${type}\`, which it needs to ${right} (name it with \`apiOperator:\` in monsync.yaml)`;
}

/**
 * Live entries of the operators that declare `authorizations:`: each type held, and for an operator this plan
 * creates the `AccountAccess` the service will give it (step GUID `{{operator:<Email>}}/AccountAccess`), so that
 * declaring it plans no add and leaving it out plans its removal right after the create.
 */
function liveAuthorizations(snapshot: Parameters<KindModule['live']>[0], resolver: Resolver, desired: DesiredState): LiveEntry[] {
  const entries = liveTypeAuthorizations(spec, snapshot, resolver);
  const held = new Map<string, Set<string>>();
  for (const entry of entries) {
    const operator = entry.refs[0]?.guid ?? '';
    held.set(operator, (held.get(operator) ?? new Set()).add(String(entry.fields.AuthorizationType)));
  }
  for (const entry of entries) {
    const operator = entry.refs[0]?.guid ?? '';
    const types = held.get(operator) ?? new Set<string>();
    const kept = keptBecause(String(entry.fields.AuthorizationType), selfNeeds(types, desired), { knows: resolver.knowsSelf(), is: resolver.isSelf(operator) });
    if (kept !== undefined) entry.fields = { ...entry.fields, kept };
  }
  for (const { key } of declaredTypes(desired)) {
    if (!resolver.isCreated(OPERATOR, key)) continue;
    const operator = placeholder(OPERATOR, key);
    entries.push(liveEntry(KIND, `${key}/${ACCOUNT_ACCESS}`, `${operator}/${ACCOUNT_ACCESS}`, { AuthorizationType: ACCOUNT_ACCESS }, [{ kind: OPERATOR, guid: operator }]));
  }
  return entries;
}

/**
 * An authorization type an operator holds, declared by the operator's `authorizations` (`type-authorizations.ts`);
 * authoritative for operators that declare the list, the others keep whatever they hold. `AccountAdministrator` is
 * read and never planned (system); the API account's own `AccountAccess` is never removed (`keptWhy`).
 */
export const operatorAuthorizationKind: KindModule = {
  ...typeAuthorizationKind(spec),
  readWhen: (desired) => (desired.operators ?? []).some(({ value }) => value.authorizations !== undefined),
  system: (entry) => entry.fields.AuthorizationType === ACCOUNT_ADMINISTRATOR,
  keptWhy: (entry) => (typeof entry.fields.kept === 'string' ? entry.fields.kept : undefined),
  deleteReason: (entry) =>
    entry.refs.some((ref) => placeholderKey(OPERATOR, ref.guid) !== undefined)
      ? 'the service gives every new operator AccountAccess, and its `authorizations:` leave it out: taken away once the operator is created'
      : undefined,
  live: liveAuthorizations,
};

/**
 * What `pull` writes as an operator's `authorizations:`: the types it holds, `AccountAdministrator` left out (never
 * assignable), or nothing when it holds just the `AccountAccess` every operator is given (the tree then leaves its
 * authorizations alone, as for most operators) or its listing was not read. Since a declared list is exact,
 * `AccountAccess` is written whenever there is a list and the operator holds it.
 */
export function pulledOperatorAuthorizations(listed: readonly ApiObject[] | undefined): string[] | undefined {
  if (listed === undefined) return undefined;
  const types = [...new Set(listed.map(typeOf).filter((type) => type !== '' && type !== ACCOUNT_ADMINISTRATOR))].sort((a, b) => a.localeCompare(b, 'en'));
  return types.length === 1 && types[0] === ACCOUNT_ACCESS ? undefined : types;
}
