/**
 * What the alerting kinds share (alert definitions, their escalation levels, the monitors and groups they cover,
 * the operators and groups of each level, and the integrations attached to a level): the client's alerting
 * requests, the step GUIDs of level children, and the facts only the live account can settle at plan time (which
 * level numbers the account has, which integration a name means and what its type refuses).
 */
import { integrationTypeRefuses, LEVEL_INTEGRATION_WRITE_ONLY_FIELDS } from '@monsync/client/wire';
import { ALERT_DEFINITION_KIND, ESCALATION_LEVEL_KIND, type AlertDefinitionConfig, type Declared, type EscalationLevelIntegrationConfig } from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import type { ApiObject, LiveClient, LiveSnapshot, WriteClient } from '../live/types.js';
import { planProblem, type PlanProblem } from '../plan/errors.js';
import type { PlanWarning } from '../plan/types.js';

type Reads = NonNullable<LiveClient['alertDefinitions']>;
type Writes = WriteClient['alertDefinitions'];
type Required<T> = { [K in keyof T]-?: NonNullable<T[K]> };

/** The client's alerting requests, or an error naming what is missing (a client built before they existed). */
export const alertWrites = {
  reads(client: LiveClient): Reads {
    if (client.alertDefinitions === undefined) throw new Error('this client cannot read alert definitions');
    return client.alertDefinitions;
  },
  of(client: WriteClient): Required<Writes> {
    const c = client.alertDefinitions;
    if (c.list === undefined || c.create === undefined || c.delete === undefined || c.members === undefined || c.escalationLevels === undefined || c.integrations === undefined) {
      throw new Error('this client cannot write alert definitions');
    }
    return c as Required<Writes>;
  },
};

/** `<definition GUID>/<level Id>[/<rest>]`: the parts of a level's step GUID or of one of its children's. */
export function levelParts(guid: string | undefined): { definition: string; level: string; rest: string } {
  const parts = (guid ?? '').split('/');
  const [definition, level, ...rest] = parts;
  if (definition === undefined || definition === '' || level === undefined || level === '') throw new Error(`expected a "<definition>/<level>" step GUID, got ${JSON.stringify(guid)}`);
  return { definition, level, rest: rest.join('/') };
}

/** `monitor:<guid>` and the like: a member's kind and GUID in a step GUID. */
export function memberPart(text: string): { kind: string; guid: string } {
  const at = text.indexOf(':');
  if (at < 0) throw new Error(`expected "<kind>:<guid>", got ${JSON.stringify(text)}`);
  return { kind: text.slice(0, at), guid: text.slice(at + 1) };
}

/** Whether a plan needs `GET /Integration`: some managed escalation level attaches an integration. */
export function namesIntegrations(desired: DesiredState): boolean {
  if (desired.settings.manage[ALERT_DEFINITION_KIND.section] === undefined) return false;
  return desired.alertDefinitions.some(({ value }) => (value.escalationLevels ?? []).some(({ value: level }) => Array.isArray(level.integrations)));
}

/** The integration a name means: the one of that name, or of that name ignoring case when only one is. */
export function integrationNamed(name: string, integrations: readonly ApiObject[]): ApiObject[] {
  const exact = integrations.filter((i) => i['Name'] === name);
  if (exact.length > 0) return exact;
  return integrations.filter((i) => typeof i['Name'] === 'string' && i['Name'].toLowerCase() === name.toLowerCase());
}

/** The level numbers the account's definitions have (every definition has the same fixed set), when any was read. */
function accountLevels(live: Pick<LiveSnapshot, 'perParent'>): number[] | undefined {
  const lists = Object.values(live.perParent[ESCALATION_LEVEL_KIND.kind] ?? {});
  if (lists.length === 0) return undefined;
  const ids = new Set<number>();
  for (const list of lists) for (const level of list) if (typeof level['Id'] === 'number') ids.add(level['Id']);
  return [...ids].sort((a, b) => a - b);
}

type LevelIntegration = Declared<EscalationLevelIntegrationConfig>;
type WriteOnlyField = (typeof LEVEL_INTEGRATION_WRITE_ONLY_FIELDS)[number];

/**
 * What an attachment sends for a write-only setting it leaves out. The service requires all three when an
 * integration is attached and never says what it would choose, so monsync chooses: attached, and every alert the
 * integration's type takes (a page too many beats a page nobody gets).
 */
export function writeOnlyDefault(field: WriteOnlyField, type: string): boolean {
  if (field === 'IsActive') return true;
  return integrationTypeRefuses(type, field, true) === undefined;
}

/**
 * The account's integrations by name, as `integrationNamed` finds them, with what an attachment of each sends for a
 * write-only setting it leaves out: worked out once per integration, not once per attached one (600 at plan-10k).
 */
class Integrations {
  readonly #all: readonly ApiObject[];
  readonly #byName = new Map<string, ApiObject[]>();
  readonly #defaults = new Map<ApiObject, Record<WriteOnlyField, boolean>>();

  constructor(all: readonly ApiObject[]) {
    this.#all = all;
  }

  named(name: string): ApiObject[] {
    let found = this.#byName.get(name);
    if (found === undefined) {
      found = integrationNamed(name, this.#all);
      this.#byName.set(name, found);
    }
    return found;
  }

  known(): string {
    return this.#all.map((i) => `"${String(i['Name'])}"`).join(', ');
  }

  defaults(integration: ApiObject): Record<WriteOnlyField, boolean> {
    let out = this.#defaults.get(integration);
    if (out === undefined) {
      const type = typeof integration['Type'] === 'string' ? integration['Type'] : '';
      out = { IsActive: writeOnlyDefault('IsActive', type), SendOkAlerts: writeOnlyDefault('SendOkAlerts', type), SendReminderAlerts: writeOnlyDefault('SendReminderAlerts', type) };
      this.#defaults.set(integration, out);
    }
    return out;
  }
}

const REFUSABLE = ['SendOkAlerts', 'SendReminderAlerts', 'ExtraEmailAddresses', 'StatusHubServiceList'];

/** Problems of one attached integration: its name, and the settings its type refuses; the integration when found. */
function checkIntegration(declared: LevelIntegration, integrations: Integrations, where: string, problems: PlanProblem[]): ApiObject | undefined {
  const { value, source } = declared;
  const found = integrations.named(value.integration);
  if (found.length !== 1) {
    const known = integrations.known();
    const what = found.length === 0 ? `names no integration of the account (${known === '' ? 'it lists none' : `it has ${known}`}); integrations are set up in the web app` : `names ${found.length} integrations; rename one in the web app`;
    problems.push(planProblem('UNRESOLVED_REFERENCE', `${where}: integration "${value.integration}" ${what}`, source));
    return undefined;
  }
  const integration = found[0] as ApiObject;
  const type = typeof integration['Type'] === 'string' ? integration['Type'] : '';
  for (const field of REFUSABLE) {
    const reason = value[field] === undefined || type === '' ? undefined : integrationTypeRefuses(type, field, value[field]);
    if (reason !== undefined) problems.push(planProblem('INTEGRATION_SETTING_REFUSED', `${where}: integration "${value.integration}" refuses ${field}: ${reason}`, source));
  }
  return integration;
}

/** One attached integration with its `IntegrationGuid` and the write-only settings it leaves out filled in. */
function resolvedLink(link: LevelIntegration, integration: ApiObject, integrations: Integrations): LevelIntegration {
  const value: EscalationLevelIntegrationConfig & Record<string, unknown> = { ...link.value, IntegrationGuid: String(integration['IntegrationGuid']) };
  const defaults = integrations.defaults(integration);
  for (const field of LEVEL_INTEGRATION_WRITE_ONLY_FIELDS) if (value[field] === undefined) value[field] = defaults[field];
  return { value, source: link.source };
}

/**
 * The desired state with every attached integration's `IntegrationGuid` filled in from its name, or the problems
 * of what only the account can settle: a level number the account's definitions do not have, an integration name
 * that names none (or several), and a setting the integration's type refuses. Plus one warning when settings the
 * service never returns are declared.
 */
export function resolveAlerting(desired: DesiredState, live: Pick<LiveSnapshot, 'perParent' | 'integrations'>): { desired: DesiredState; problems: PlanProblem[]; warnings: PlanWarning[] } {
  if (desired.settings.manage[ALERT_DEFINITION_KIND.section] === undefined) return { desired, problems: [], warnings: [] };
  const problems: PlanProblem[] = [];
  const levels = accountLevels(live);
  const integrations = new Integrations(live.integrations ?? []);
  let writeOnly = 0;
  const alertDefinitions = desired.alertDefinitions.map((declared): Declared<AlertDefinitionConfig> => {
    const name = declared.value.AlertName ?? declared.value.AlertDefinitionGuid ?? '';
    if (declared.value.escalationLevels === undefined) return declared;
    const escalationLevels = declared.value.escalationLevels.map((level) => {
      const where = `alert definition "${name}", escalation level ${level.value.Id}`;
      if (levels !== undefined && !levels.includes(level.value.Id)) {
        problems.push(planProblem('UNKNOWN_ESCALATION_LEVEL', `${where}: the account's alert definitions have levels ${levels.join(', ')}; levels cannot be added, so declare one of those`, level.source));
      }
      if (level.value.integrations === undefined) return level;
      const attached = level.value.integrations.map((link) => {
        if (LEVEL_INTEGRATION_WRITE_ONLY_FIELDS.some((f) => link.value[f] !== undefined)) writeOnly += 1;
        const integration = checkIntegration(link, integrations, where, problems);
        return integration === undefined ? link : resolvedLink(link, integration, integrations);
      });
      return { ...level, value: { ...level.value, integrations: attached } };
    });
    return { ...declared, value: { ...declared.value, escalationLevels } };
  });
  const warnings: PlanWarning[] = [];
  if (writeOnly > 0) {
    warnings.push({
      code: 'WRITE_ONLY_SETTINGS',
      message: `${writeOnly} attached integration${writeOnly === 1 ? ' declares' : 's declare'} ${LEVEL_INTEGRATION_WRITE_ONLY_FIELDS.join(', ')}: the service never returns them, so they cannot be read back or compared; they are sent when the integration is attached, and again only with --rotate escalationLevelIntegration:<key>`,
    });
  }
  return { desired: { ...desired, alertDefinitions }, problems, warnings };
}
