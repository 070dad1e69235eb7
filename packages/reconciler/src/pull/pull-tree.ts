import {
  DUTY_SCHEDULE_KIND,
  fieldWords,
  GROUP_MEMBERSHIP_KIND,
  isSecretLeaf,
  looksSecret,
  namesSecret,
  secretPairName,
  secretShape,
  KINDS_AS_LISTED,
  MONITOR_GROUP_KIND,
  MONITOR_KIND,
  OPERATOR_AUTHORIZATION_KIND,
  OPERATOR_GROUP_AUTHORIZATION_KIND,
  OPERATOR_GROUP_KIND,
  OPERATOR_GROUP_MEMBER_KIND,
  OPERATOR_KIND,
  RUM_WEBSITE_KIND,
  SCHEDULED_REPORT_KIND,
  secretEnvName,
  SLA_EXCLUSION_PERIOD_KIND,
  SLA_KIND,
  VAULT_ACCESS_KIND,
  VAULT_ITEM_KIND,
  VAULT_SECTION_KIND,
  type AllowUnknown,
  type NamedKindEntry,
} from '@monsync/schema';
import { pulledDutySchedules } from '../kinds/duty-schedule.js';
import { principalOf } from '../kinds/vault-principal.js';
import { pulledOperatorAuthorizations } from '../kinds/operator-authorization.js';
import { KINDS } from '../kinds/index.js';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { LiveSnapshot } from '../live/types.js';
import { splitMarker } from '../plan/markers.js';
import { parseSecretRefs, type MonitorSecretRefs, type SecretRefWritten } from '../kinds/monitor-secret-refs.js';
import { OUTGOING_PHONE_NUMBER, outgoingPhoneNumberName } from '../kinds/outgoing-phone-number.js';
import { allowsNothing, unknownOfTree } from './allow-unknown.js';
import { toYaml } from './yaml-writer.js';
import { ALERT_DEFINITIONS_FILE, alertingNames, pullAlerting, type UnreadSettings } from './pull-alerting.js';
import { clean } from './clean.js';

type ApiObject = Record<string, unknown>;

/** The plain live data `readLive` returns, as far as `pull` reads it. */
export type PulledSnapshot = Pick<LiveSnapshot, 'lists' | 'perParent'> & Partial<Pick<LiveSnapshot, 'outgoingPhoneNumbers' | 'integrations'>>;

export interface SecretPlaceholder {
  /** Environment variable the pulled tree reads the secret from. */
  env: string;
  /** `vault.yaml: Web/shop-login Password` */
  where: string;
}

export interface PulledTree {
  files: { path: string; content: string }[];
  /** The tree's declarations as one value (`{ monitors: [...], vault: { sections: [...] }, ... }`), for `pull --into`. */
  data: Record<string, unknown>;
  secrets: SecretPlaceholder[];
  /** Settings the service never returns, left out of the tree (an attached integration's write-only settings). */
  unread: UnreadSettings[];
  /** Each alert definition in the named form, by GUID (lower case): what `pull --into` rewrites an older entry to. */
  alertDefinitionsByGuid: ReadonlyMap<string, Record<string, unknown>>;
  notes: string[];
}

/** The kinds pull reads and writes: every kind that can be read (a pulled `monsync.yaml` manages each). */
export const PULLED_KINDS = KINDS.filter((mod) => mod.read !== undefined).map((mod) => mod.kind);

const FP_MARKER = /(?:^|\n)monsync:fp=[0-9a-f]+\s*$/;
const KEY_MARKER = /(?:^|\n)monsync:key=([A-Za-z0-9][A-Za-z0-9._-]*)\s*$/;
const VAULT_VALUE = /^\{\{vault:([^}]+)\}\}$/;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** A note for every key that more than one live object has: the tree cannot declare them apart. */
function noteDuplicates(notes: string[], keys: readonly string[], phrase: string): void {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const [key, count] of counts) {
    if (count > 1) notes.push(`${count} live ${phrase} ${JSON.stringify(key)}: the key must be unique, so rename all but one in the web app`);
  }
}

function byText(field: string) {
  return (a: ApiObject, b: ApiObject) => (str(a[field]) ?? '').localeCompare(str(b[field]) ?? '', 'en');
}

/**
 * The monitors to write: a monitor monsync retired (removal: auto or deactivate) is gone as far as the tree is
 * concerned, and written, the next plan would revive it. A note names those left out.
 */
function notRetired(monitors: readonly ApiObject[], notes: string[]): ApiObject[] {
  const retired = monitors.filter((monitor) => splitMarker(monitor['Notes'], 'retired').marker !== undefined);
  if (retired.length === 0) return [...monitors];
  const shown = retired.slice(0, 5).map((m) => JSON.stringify(str(m['Name']) ?? '')).join(', ');
  notes.push(`${retired.length} monitor${retired.length === 1 ? '' : 's'} retired by monsync left out (${shown}${retired.length > 5 ? ', ...' : ''}); declare one to revive it`);
  return monitors.filter((monitor) => !retired.includes(monitor));
}

/** What a pull has found so far: the secrets written as placeholders, and notes for the person running it. */
class Pull {
  readonly secrets: SecretPlaceholder[] = [];
  readonly notes: string[] = [];
  readonly #usedEnv = new Set<string>();

  constructor(readonly live: PulledSnapshot) {}

  /** A reference monsync applied a secret from, written back as it was (and listed, so the run says what to set). */
  reference(ref: SecretRefWritten, where: string): SecretRefWritten {
    if ('fromEnv' in ref) {
      this.#usedEnv.add(ref.fromEnv);
      this.secrets.push({ env: ref.fromEnv, where });
      return { fromEnv: ref.fromEnv };
    }
    this.notes.push(`${where} is read from the file ${ref.fromFile} (relative to the YAML file that named it when it was applied)`);
    return { fromFile: ref.fromFile };
  }

  placeholder(where: string, ...parts: string[]): { fromEnv: string } {
    let env = secretEnvName(...parts);
    for (let n = 2; this.#usedEnv.has(env); n++) env = `${secretEnvName(...parts)}_${n}`;
    this.#usedEnv.add(env);
    this.secrets.push({ env, where });
    return { fromEnv: env };
  }

  list(kind: NamedKindEntry): ApiObject[] {
    return listed(this.live, kind.kind);
  }

  perParent(kind: NamedKindEntry): Record<string, ApiObject[]> {
    return listedPerParent(this.live, kind.kind);
  }
}

/** A vault item's secret fields as placeholders (the API never returns them), by item type. */
function itemSecrets(pull: Pull, out: ApiObject, type: string | undefined, where: string, section: string, itemName: string): void {
  delete out['Value'];
  delete out['Password'];
  delete out['CertificateArchive'];
  if (type === 'CredentialSet') out['Password'] = pull.placeholder(`${where} Password`, section, itemName, 'PASSWORD');
  else if (type === 'CertificateArchive') {
    out['CertificateArchive'] = {
      ArchiveData: pull.placeholder(`${where} CertificateArchive.ArchiveData (base64)`, section, itemName, 'ARCHIVE'),
      Password: pull.placeholder(`${where} CertificateArchive.Password`, section, itemName, 'ARCHIVE_PASSWORD'),
    };
  } else if (type === 'File') out['Value'] = pull.placeholder(`${where} Value (base64)`, section, itemName, 'FILE');
  else if (type === 'OneTimePassword' || type === 'Certificate') out['Value'] = pull.placeholder(`${where} Value`, section, itemName, 'VALUE');
}

/** Operator and group GUIDs to the Email and Description a tree names them by (Everyone has none: it cannot be declared). */
interface People {
  emails: ReadonlyMap<string, string>;
  groups: ReadonlyMap<string, string>;
}

function peopleNames(pull: Pull): People {
  const emails = new Map<string, string>();
  for (const o of pull.list(OPERATOR_KIND)) emails.set((str(o['OperatorGuid']) ?? '').toLowerCase(), str(o['Email']) ?? '');
  const groups = new Map<string, string>();
  for (const g of pull.list(OPERATOR_GROUP_KIND)) if (g['IsEveryone'] !== true) groups.set((str(g['OperatorGroupGuid']) ?? '').toLowerCase(), str(g['Description']) ?? '');
  return { emails, groups };
}

/**
 * Operators (the password a placeholder: the service never returns it; `...Specified` companions are the client's
 * business; their own authorizations unless they hold only the default) and groups other than Everyone, with members
 * by Email and authorizations by type.
 */
function pullPeople(pull: Pull, people: People): { operators: ApiObject[]; groups: ApiObject[] } {
  noteDuplicates(pull.notes, pull.list(OPERATOR_KIND).map((o) => (str(o['Email']) ?? '').toLowerCase()), 'operators have the Email');
  const operatorTypes = pull.perParent(OPERATOR_AUTHORIZATION_KIND);
  const operators = [...pull.list(OPERATOR_KIND)].sort(byText('Email')).map((operator) => {
    const out = clean(operator, OPERATOR_KIND, ['Email', 'FullName']);
    for (const key of Object.keys(out)) if (key.endsWith('Specified')) delete out[key];
    const phone = outgoingPhoneNumberName(out['OutgoingPhoneNumberId'], pull.live.outgoingPhoneNumbers);
    if (phone !== undefined) {
      delete out['OutgoingPhoneNumberId'];
      out[OUTGOING_PHONE_NUMBER] = phone;
    }
    const email = str(operator['Email']) ?? '';
    out['Password'] = pull.placeholder(`operators.yaml: ${email} Password`, email, 'PASSWORD');
    const schedules = pulledDutySchedules(pull.perParent(DUTY_SCHEDULE_KIND)[str(operator['OperatorGuid']) ?? '']);
    if (schedules !== undefined) out['dutySchedules'] = schedules;
    const types = pulledOperatorAuthorizations(operatorTypes[str(operator['OperatorGuid']) ?? '']);
    if (types !== undefined) out['authorizations'] = types;
    return out;
  });
  const members = pull.perParent(OPERATOR_GROUP_MEMBER_KIND);
  const authorizations = pull.perParent(OPERATOR_GROUP_AUTHORIZATION_KIND);
  const live = pull.list(OPERATOR_GROUP_KIND).filter((group) => group['IsEveryone'] !== true);
  noteDuplicates(pull.notes, live.map((group) => str(group['Description']) ?? ''), 'operator groups are described');
  const groups = live.sort(byText('Description')).map((group) => {
    const guid = str(group['OperatorGroupGuid']) ?? '';
    const out = clean(group, OPERATOR_GROUP_KIND, ['Description']);
    const emails = (members[guid] ?? []).flatMap((m) => {
      const email = people.emails.get((str(m['OperatorGuid']) ?? '').toLowerCase());
      return email === undefined ? [] : [email];
    });
    if (emails.length > 0) out['members'] = [...new Set(emails)].sort((a, b) => a.localeCompare(b, 'en'));
    const types = (authorizations[guid] ?? []).map((a) => str(a['AuthorizationType']) ?? '').filter((t) => t !== '');
    if (types.length > 0) out['authorizations'] = [...new Set(types)].sort((a, b) => a.localeCompare(b, 'en'));
    return out;
  });
  return { operators, groups };
}

/**
 * A section's access as a tree declares it, or undefined (with a note) when someone holds access the tree cannot
 * name (Everyone, or an operator this account cannot list): declared without them, the list would remove it.
 */
function pulledAccess(pull: Pull, section: ApiObject, people: People): ApiObject[] | undefined {
  const listed = pull.perParent(VAULT_ACCESS_KIND)[str(section['VaultSectionGuid']) ?? ''];
  if (listed === undefined || listed.length === 0) return undefined;
  // An operator's access is declared under the kind's name (`operator: <Email>`), a group's under `group:`.
  const held = new Map<string, { who: string; name: string; types: Set<string> }>();
  for (const a of listed) {
    const { who, guid } = principalOf(a) ?? { who: 'group', guid: '' };
    const name = (who === OPERATOR_KIND.kind ? people.emails : people.groups).get(guid.toLowerCase());
    if (name === undefined) {
      pull.notes.push(`vault section ${JSON.stringify(str(section['Name']) ?? '')}: access held by ${who} ${guid}, which a tree cannot declare (Everyone, or not listed); its access is left out of the tree`);
      return undefined;
    }
    const entry = held.get(`${who}:${guid}`) ?? { who, name, types: new Set<string>() };
    entry.types.add(str(a['AuthorizationType']) ?? '');
    held.set(`${who}:${guid}`, entry);
  }
  return [...held.values()]
    .sort((a, b) => a.who.localeCompare(b.who, 'en') || a.name.localeCompare(b.name, 'en'))
    .map(({ who, name, types }) => ({ [who]: name, level: types.has('ChangeVaultSection') ? 'change' : 'view' }));
}

/** Sections with their items; `itemRefs` maps an item GUID to the `Section/Item` a monitor variable names it by. */
function pullVault(pull: Pull, people: People): { sections: ApiObject[]; itemRefs: Map<string, string> } {
  const sectionNames = new Map<string, string>();
  for (const section of pull.list(VAULT_SECTION_KIND)) {
    const guid = str(section['VaultSectionGuid']);
    const name = str(section['Name']);
    if (guid !== undefined && name !== undefined) sectionNames.set(guid, name);
  }
  const itemRefs = new Map<string, string>();
  const itemsBySection = new Map<string, ApiObject[]>();
  for (const item of [...pull.list(VAULT_ITEM_KIND)].sort(byText('Name'))) {
    const sectionGuid = str(item['VaultSectionGuid']) ?? '';
    const section = sectionNames.get(sectionGuid);
    const itemName = str(item['Name']) ?? '';
    if (section === undefined) {
      pull.notes.push(`vault item ${itemName} is in a section this account cannot list; left out`);
      continue;
    }
    const guid = str(item['VaultItemGuid']);
    if (guid !== undefined) itemRefs.set(guid, `${section}/${itemName}`);
    const out = clean(item, VAULT_ITEM_KIND, ['Name', 'VaultItemType', 'UserName', 'Notes']);
    const itemNotes = str(item['Notes']);
    if (itemNotes !== undefined) {
      const stripped = itemNotes.replace(FP_MARKER, '');
      if (stripped === '') delete out['Notes'];
      else out['Notes'] = stripped;
    }
    itemSecrets(pull, out, str(item['VaultItemType']), `vault.yaml: ${section}/${itemName}`, section, itemName);
    const list = itemsBySection.get(sectionGuid) ?? [];
    list.push(out);
    itemsBySection.set(sectionGuid, list);
  }
  noteDuplicates(pull.notes, pull.list(VAULT_SECTION_KIND).map((section) => str(section['Name']) ?? ''), 'vault sections are named');
  const itemKeys = new Map<string, number>();
  for (const ref of itemRefs.values()) itemKeys.set(ref, (itemKeys.get(ref) ?? 0) + 1);
  for (const [key, count] of itemKeys) {
    if (count > 1) pull.notes.push(`${count} live vault items have the key ${JSON.stringify(key)} (a section or item name holds a slash): the key must be unique, so rename all but one in the web app`);
  }
  const sections = [...pull.list(VAULT_SECTION_KIND)].sort(byText('Name')).map((section) => {
    const out = clean(section, VAULT_SECTION_KIND, ['Name']);
    const access = pulledAccess(pull, section, people);
    if (access !== undefined) out['access'] = access;
    const items = itemsBySection.get(str(section['VaultSectionGuid']) ?? '') ?? [];
    return items.length > 0 ? { ...out, items } : out;
  });
  return { sections, itemRefs };
}

/** Where a value sits below a monitor while it is scrubbed: for messages, placeholder names, the secret rule and refs. */
interface FieldAt {
  /** `Auth.ClientSecret`, `Headers[0].Value` */
  field: string;
  /** Parts of a placeholder's variable name. */
  words: string[];
  /** Field names down to the value, list indexes left out (`isSecretLeaf`). */
  keys: string[];
  /** JSON pointer below the monitor, as the fingerprint marker records it. */
  pointer: string;
  /** Under a field named like a secret. */
  inSecret: boolean;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The monitor being pulled: its name, and the references its fingerprint marker records. */
interface PulledMonitor {
  name: string;
  refs: MonitorSecretRefs;
  /** Pointers whose recorded reference was written. */
  written: Set<string>;
}

/**
 * A secret below a monitor (a field named like one, or a value in an authentication object, by the rule the loader
 * refuses literals with) is never written as read: the reference monsync applied it from when the marker records
 * one, a `{ fromEnv }` placeholder otherwise. An empty one is left out.
 */
function bySecretName(pull: Pull, monitor: PulledMonitor, value: unknown, at: FieldAt): unknown {
  const ref = monitor.refs.fields.get(at.pointer);
  if (ref !== undefined) {
    monitor.written.add(at.pointer);
    return pull.reference(ref, `monitors.yaml: ${monitor.name} ${at.field}`);
  }
  if (Array.isArray(value)) {
    return value.map((entry: unknown, i) => bySecretName(pull, monitor, entry, { ...at, field: `${at.field}[${i}]`, words: [...at.words, String(i)], pointer: `${at.pointer}/${i}` }));
  }
  if (typeof value === 'object' && value !== null) {
    const kept: ApiObject = {};
    // `{ Name: Authorization, Value: ... }`: the name beside the value says it is a credential.
    const pairSecret = secretPairName(value as ApiObject) !== undefined;
    for (const [key, child] of Object.entries(value as ApiObject)) {
      const named = looksSecret(key) || (pairSecret && key === 'Value');
      const inner: FieldAt = { field: `${at.field}.${key}`, words: [...at.words, fieldWords(key)], keys: [...at.keys, key], pointer: `${at.pointer}/${escapePointer(key)}`, inSecret: at.inSecret || named };
      const scrubbed = bySecretName(pull, monitor, child, inner);
      if (scrubbed !== undefined) kept[key] = scrubbed;
    }
    return kept;
  }
  if (!at.inSecret && !(typeof value === 'string' && (isSecretLeaf(at.keys) || secretShape(value) !== undefined))) return value;
  if (value === null || value === '' || typeof value === 'boolean') return undefined;
  return pull.placeholder(`monitors.yaml: ${monitor.name} ${at.field}`, monitor.name, ...at.words);
}

/**
 * Vault references in variables become `{ vault: Section/Item }`, as a config declares them. The service returns
 * every other value in clear, so a variable the config reads from the environment or a file (recorded in the
 * monitor's fingerprint marker) is written as that same reference, and one whose Key names a secret as a placeholder.
 */
function pulledVariables(pull: Pull, monitor: PulledMonitor, variables: unknown[], itemRefs: ReadonlyMap<string, string>): unknown[] {
  return variables.map((variable: unknown) => {
    if (typeof variable !== 'object' || variable === null) return variable;
    const entry = { ...(variable as ApiObject) };
    const key = str(entry['Key']) ?? '';
    const where = `monitors.yaml: ${monitor.name} PredefinedVariables[${key}].Value`;
    const recorded = monitor.refs.variables.get(key);
    const match = VAULT_VALUE.exec(str(entry['Value']) ?? '');
    const ref = match?.[1] === undefined ? undefined : itemRefs.get(match[1]);
    if (recorded !== undefined) entry['Value'] = pull.reference(recorded, where);
    else if (ref !== undefined) entry['Value'] = { vault: ref };
    else if (match !== null) pull.notes.push(`monitor ${monitor.name}: variable ${key || '?'} refers to a vault item this account cannot list; kept as written (validate asks for { vault: Section/Item })`);
    else if (entry['Value'] !== undefined && entry['Value'] !== '' && (namesSecret(key) || secretShape(str(entry['Value']) ?? '') !== undefined)) {
      // By the loader's rule (a Key naming a credential, a credential-shaped value): marker or no marker, never in clear.
      entry['Value'] = pull.placeholder(where, monitor.name, 'VARIABLE', key);
    }
    return entry;
  });
}

/** One monitor as the tree declares it. */
function pulledMonitor(pull: Pull, live: ApiObject, itemRefs: ReadonlyMap<string, string>): ApiObject {
  const name = str(live['Name']) ?? '';
  const { text, marker } = splitMarker(live['Notes'], 'fp');
  const monitor: PulledMonitor = { name, refs: parseSecretRefs(marker), written: new Set() };
  const out = clean({ ...live, Notes: text }, MONITOR_KIND, ['Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert', 'UserAgent']);
  // Write-only: the service returns it empty, and the config may hold it only by reference.
  delete out['Password'];
  for (const [key, value] of Object.entries(out)) {
    if (key === 'PredefinedVariables') continue;
    const scrubbed = bySecretName(pull, monitor, value, { field: key, words: [fieldWords(key)], keys: [key], pointer: `/${escapePointer(key)}`, inSecret: looksSecret(key) });
    if (scrubbed === undefined) delete out[key];
    else out[key] = scrubbed;
  }
  // A recorded field the service does not return at all (a password, a token) is written back where it was.
  for (const [pointer, ref] of monitor.refs.fields) {
    const field = /^\/([^/]+)$/.exec(pointer)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (field !== undefined && !monitor.written.has(pointer) && !(field in out)) out[field] = pull.reference(ref, `monitors.yaml: ${name} ${field}`);
  }
  const variables = live['PredefinedVariables'];
  if (Array.isArray(variables)) out['PredefinedVariables'] = pulledVariables(pull, monitor, variables, itemRefs);
  return out;
}

/** Monitors; `monitorNames` maps a monitor GUID to its Name, which group members are written as. */
function pullMonitors(pull: Pull, itemRefs: ReadonlyMap<string, string>): { monitors: ApiObject[]; monitorNames: Map<string, string> } {
  const monitorNames = new Map<string, string>();
  const monitors = notRetired(pull.list(MONITOR_KIND), pull.notes).sort(byText('Name')).map((monitor) => {
    const guid = str(monitor['MonitorGuid']);
    if (guid !== undefined) monitorNames.set(guid, str(monitor['Name']) ?? '');
    return pulledMonitor(pull, monitor, itemRefs);
  });
  const names = new Map<string, number>();
  for (const name of monitorNames.values()) names.set(name, (names.get(name) ?? 0) + 1);
  for (const [name, count] of names) {
    if (count > 1) pull.notes.push(`${count} live monitors are named ${JSON.stringify(name)}: the key must be unique, so rename all but one in the web app (or in monitors.yaml after pinning MonitorGuid)`);
  }
  return { monitors, monitorNames };
}

/** Groups (not the All Monitors group) with their members, as monitor Names. */
function pullGroups(pull: Pull, monitorNames: ReadonlyMap<string, string>): ApiObject[] {
  const live = pull.list(MONITOR_GROUP_KIND).filter((group) => group['IsAll'] !== true);
  const members = pull.perParent(GROUP_MEMBERSHIP_KIND);
  noteDuplicates(pull.notes, live.map((group) => str(group['Description']) ?? ''), 'monitor groups are described');
  return live
    .filter((group) => {
      // The loader refuses a group of this name (ALL_MONITORS_GROUP, see the schema README): written, the tree would not validate.
      const description = str(group['Description']) ?? '';
      if (description.trim().toLowerCase() !== 'all monitors') return true;
      pull.notes.push(`monitor group ${JSON.stringify(description)} is named like the All Monitors group, which a tree cannot declare; left out (rename it in the web app to manage it)`);
      return false;
    })
    .sort(byText('Description'))
    .map((group) => {
      const out = clean(group, MONITOR_GROUP_KIND, ['Description']);
      const names = (members[str(group['MonitorGroupGuid']) ?? ''] ?? []).flatMap((member) => {
        const name = monitorNames.get(str(member['MonitorGuid']) ?? '');
        return name === undefined ? [] : [name];
      });
      if (names.length > 0) out['members'] = [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en'));
      return out;
    });
}

/** SLAs with their exclusion periods. */
function pullSlas(pull: Pull): ApiObject[] {
  const periodsBySla = pull.perParent(SLA_EXCLUSION_PERIOD_KIND);
  return [...pull.list(SLA_KIND)].sort(byText('Description')).map((sla) => {
    const out = clean(sla, SLA_KIND, ['Description']);
    const listed = periodsBySla[str(sla['SlaGuid']) ?? ''] ?? [];
    const described = new Map<string, number>();
    for (const period of listed) described.set(str(period['Description']) ?? '', (described.get(str(period['Description']) ?? '') ?? 0) + 1);
    for (const [description, count] of described) {
      if (count > 1) pull.notes.push(`${count} exclusion periods of SLA ${JSON.stringify(str(sla['Description']) ?? '')} are described ${JSON.stringify(description)}: the key must be unique, so rename all but one in the web app (or in slas.yaml after pinning ExclusionPeriodId)`);
    }
    const periods = [...listed].sort(byText('Description')).map((period) => clean(period, SLA_EXCLUSION_PERIOD_KIND, ['Description', 'From', 'Until']));
    if (periods.length > 0) out['exclusionPeriods'] = periods;
    return out;
  });
}

/**
 * RUM websites by Description. `RumScript` is not written, not even as a comment: the service generates it (a
 * declared one is refused), and it is text from the service that a YAML comment would carry into the tree.
 */
function pullRumWebsites(pull: Pull): ApiObject[] {
  const live = pull.list(RUM_WEBSITE_KIND);
  noteDuplicates(pull.notes, live.map((site) => str(site['Description']) ?? ''), 'RUM websites are described');
  return [...live].sort(byText('Description')).map((site) => clean(site, RUM_WEBSITE_KIND, ['Description', 'Url']));
}

/** Reports, keyed by their `monsync:key=` marker, or by a pinned GUID until apply writes one. */
function pullReports(pull: Pull): ApiObject[] {
  let unnamed = 0;
  const reports = [...pull.list(SCHEDULED_REPORT_KIND)]
    .map((report) => {
      const out = clean(report, SCHEDULED_REPORT_KIND, ['DashboardGuid', 'FileType', 'IsActive']);
      const internal = str(report['InternalNotes']) ?? '';
      const marker = KEY_MARKER.exec(internal);
      let head: ApiObject;
      if (marker?.[1] !== undefined) {
        head = { key: marker[1] };
        const rest = internal.slice(0, marker.index);
        if (rest === '') delete out['InternalNotes'];
        else out['InternalNotes'] = rest;
      } else {
        unnamed += 1;
        // No marker yet: a pinned GUID keeps the identity until apply writes the marker.
        head = { key: `report-${unnamed}`, ScheduledReportGuid: str(report['ScheduledReportGuid']) };
      }
      return { ...head, ...out };
    })
    .sort(byText('key'));
  const markers = new Map<string, number>();
  for (const report of reports) if (!('ScheduledReportGuid' in report)) markers.set(String(report.key), (markers.get(String(report.key)) ?? 0) + 1);
  for (const [key, count] of markers) {
    if (count > 1) pull.notes.push(`${count} live scheduled reports carry the key marker monsync:key=${key}: the key must be unique, so change the marker in the InternalNotes of all but one in the web app (or delete the copies)`);
  }
  return reports;
}

/** `monsync.yaml` managing every section pull reads, with prune off. */
function neededTables(allow: AllowUnknown): Partial<AllowUnknown> {
  return Object.fromEntries((['fields', 'values'] as const).filter((table) => Object.keys(allow[table]).length > 0).map((table) => [table, allow[table]]));
}

function settingsFile(modeline: readonly string[], allowUnknown: Partial<AllowUnknown> | undefined): PulledTree['files'][number] {
  const manage: Record<string, { prune: false }> = {};
  for (const entry of KINDS_AS_LISTED) if (entry.parent === undefined && PULLED_KINDS.includes(entry.kind)) manage[entry.section] = { prune: false };
  return {
    path: 'monsync.yaml',
    content: toYaml({ apiVersion: 'monsync/v1', manage, safety: { maxDeletePercent: 30, maxUpdatePercent: 50 }, ...(allowUnknown === undefined ? {} : { allowUnknown }) }, [
      ...modeline,
      'Written by `monsync pull`. Every kind is managed with prune: false, so objects that later appear',
      'only in the live account are listed as unmanaged, never deleted. Set prune: true once the tree is',
      'the source of truth.',
      ...(allowUnknown === undefined ? [] : ['allowUnknown lists what the account holds beyond the published definition of this release of monsync.']),
    ]),
  };
}

/**
 * Turns a live snapshot into a config tree, one file per kind plus `monsync.yaml`. Secrets cannot be read back,
 * so each becomes a `{ fromEnv: ... }` placeholder that the caller lists; everything else is written so that
 * validating and planning the tree against the same account shows no change.
 */
export function pulledTree(live: PulledSnapshot, options: { schemaPath?: string } = {}): PulledTree {
  const modeline = options.schemaPath === undefined ? [] : [`yaml-language-server: $schema=${options.schemaPath}`, ''];
  const pull = new Pull(live);
  // People first: vault access names them. Vault before monitors: monitors refer to items by Section/Item.
  const people = peopleNames(pull);
  const { operators, groups: operatorGroups } = pullPeople(pull, people);
  const { sections, itemRefs } = pullVault(pull, people);
  const { monitors, monitorNames } = pullMonitors(pull, itemRefs);
  const groups = pullGroups(pull, monitorNames);
  const slas = pullSlas(pull);
  const reports = pullReports(pull);
  const rumWebsites = pullRumWebsites(pull);
  const alerting = pullAlerting(live, alertingNames(live, people.emails, people.groups));
  pull.notes.push(...alerting.notes);

  const header = (what: string) => [...modeline, `${what}, pulled from the live account by \`monsync pull\`.`];
  const data = { monitors, monitorGroups: groups, vault: { sections }, slas, scheduledReports: reports, alertDefinitions: alerting.definitions, operators, operatorGroups, rumWebsites };
  // What the account holds beyond the published definition, let through where a reviewer sees it (allow-unknown.ts).
  const unknown = unknownOfTree([data]);
  // Only the tables something needs: an empty `fields: {}` or `values: {}` says nothing a reader needs to see.
  const allowUnknown = allowsNothing(unknown) ? undefined : neededTables(unknown);
  const files: PulledTree['files'] = [settingsFile(modeline, allowUnknown)];
  if (monitors.length > 0) files.push({ path: 'monitors.yaml', content: toYaml({ monitors }, header('Monitors (key: Name)')) });
  if (groups.length > 0) files.push({ path: 'monitor-groups.yaml', content: toYaml({ monitorGroups: groups }, header('Monitor groups (key: Description); members are monitor Names')) });
  if (sections.length > 0) files.push({ path: 'vault.yaml', content: toYaml({ vault: { sections } }, header('Vault sections and items; secrets are { fromEnv: ... } placeholders to fill')) });
  if (slas.length > 0) files.push({ path: 'slas.yaml', content: toYaml({ slas }, header('SLAs (key: Description) with their exclusion periods')) });
  if (operators.length > 0) files.push({ path: 'operators.yaml', content: toYaml({ operators }, header('Operators (key: Email); passwords are { fromEnv: ... } placeholders, sent only on create and with --rotate')) });
  if (operatorGroups.length > 0) files.push({ path: 'operator-groups.yaml', content: toYaml({ operatorGroups }, header('Operator groups (key: Description); members are operator Emails')) });
  if (reports.length > 0) files.push({ path: 'scheduled-reports.yaml', content: toYaml({ scheduledReports: reports }, header('Scheduled reports (key: the monsync:key marker in InternalNotes)')) });
  const alertDefinitions = alerting.definitions;
  if (alertDefinitions.length > 0) {
    const about = [
      ...header('Alert definitions (key: AlertName)'),
      'Members are monitor Names and group Descriptions; escalation levels (key: Id) reach operators by Email and',
      "groups by Description and attach integrations by name. An attached integration's IsActive, SendOkAlerts and",
      'SendReminderAlerts are never returned by the service, so they are not written: declared, they are sent when',
      'the integration is attached and again only with --rotate.',
    ];
    files.push({ path: ALERT_DEFINITIONS_FILE, content: toYaml({ alertDefinitions }, about) });
  }
  if (rumWebsites.length > 0) {
    const about = [...header('RUM websites (key: Description)'), 'RumScript, the snippet each website embeds, is made by the service: read it in the web app.'];
    files.push({ path: 'rum-websites.yaml', content: toYaml({ rumWebsites }, about) });
  }
  return { files, data, secrets: pull.secrets, unread: alerting.unread, alertDefinitionsByGuid: alerting.byGuid, notes: pull.notes };
}
