import { splitMarker, type LiveSnapshot } from '@monsync/reconciler';
import { fieldWords, isSecretFieldName, secretEnvName } from '@monsync/schema';
import { toYaml } from './yaml-writer.js';

type ApiObject = Record<string, unknown>;

/** The plain live data `readLive` returns, as far as `pull` reads it. */
export type PulledSnapshot = Pick<
  LiveSnapshot,
  'monitors' | 'monitorGroups' | 'groupMembers' | 'vaultSections' | 'vaultItems' | 'slas' | 'exclusionPeriods' | 'scheduledReports'
>;

export interface SecretPlaceholder {
  /** Environment variable the pulled tree reads the secret from. */
  env: string;
  /** `vault.yaml: Web/shop-login Password` */
  where: string;
}

export interface PulledTree {
  files: { path: string; content: string }[];
  secrets: SecretPlaceholder[];
  notes: string[];
}


/** Fields the service sets and the config never holds (DESIGN §4, the spec's read-only fields). */
const READ_ONLY: Record<string, readonly string[]> = {
  monitor: ['MonitorGuid', 'CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId'],
  monitorGroup: ['MonitorGroupGuid', 'IsAll', 'UsedBasicMonitorQuota', 'UsedBrowserMonitorQuota', 'UsedTransactionMonitorQuota', 'UsedApiMonitorQuota', 'UsedClassicQuota'],
  vaultSection: ['VaultSectionGuid'],
  vaultItem: ['VaultItemGuid', 'VaultSectionGuid', 'VaultItemUsedBy', 'IsSensitive'],
  sla: ['SlaGuid', 'Hash'],
  slaExclusionPeriod: ['ExclusionPeriodId', 'Hash'],
  scheduledReport: ['ScheduledReportGuid', 'Hash'],
};

const FP_MARKER = /(?:^|\n)monsync:fp=[0-9a-f]+\s*$/;
const KEY_MARKER = /(?:^|\n)monsync:key=([A-Za-z0-9][A-Za-z0-9._-]*)\s*$/;
const VAULT_VALUE = /^\{\{vault:([^}]+)\}\}$/;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** Drops read-only fields, nulls and empty strings (omitted fields are never diffed, so they add only noise). */
function clean(object: ApiObject, kind: string, first: readonly string[]): ApiObject {
  const skip = new Set(READ_ONLY[kind] ?? []);
  const out: ApiObject = {};
  const keys = [...first.filter((key) => key in object), ...Object.keys(object).filter((key) => !first.includes(key))];
  for (const key of keys) {
    const value = object[key];
    if (skip.has(key) || value === null || value === undefined || value === '') continue;
    out[key] = value;
  }
  return out;
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
 * Turns a live snapshot into a config tree, one file per kind plus `monsync.yaml`. Secrets cannot be read back,
 * so each becomes a `{ fromEnv: ... }` placeholder that the caller lists; everything else is written so that
 * validating and planning the tree against the same account shows no change.
 */
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

export function pulledTree(live: PulledSnapshot, options: { schemaPath?: string } = {}): PulledTree {
  const modeline = options.schemaPath === undefined ? [] : [`yaml-language-server: $schema=${options.schemaPath}`, ''];
  const secrets: SecretPlaceholder[] = [];
  const notes: string[] = [];
  const usedEnv = new Set<string>();
  const placeholder = (where: string, ...parts: string[]) => {
    let env = secretEnvName(...parts);
    for (let n = 2; usedEnv.has(env); n++) env = `${secretEnvName(...parts)}_${n}`;
    usedEnv.add(env);
    secrets.push({ env, where });
    return { fromEnv: env };
  };

  // Vault first: monitors refer to items by Section/Item.
  const sectionNames = new Map<string, string>();
  for (const section of live.vaultSections) {
    const guid = str(section['VaultSectionGuid']);
    const name = str(section['Name']);
    if (guid !== undefined && name !== undefined) sectionNames.set(guid, name);
  }
  const itemRefs = new Map<string, string>();
  const itemsBySection = new Map<string, ApiObject[]>();
  for (const item of [...live.vaultItems].sort(byText('Name'))) {
    const sectionGuid = str(item['VaultSectionGuid']) ?? '';
    const section = sectionNames.get(sectionGuid);
    const itemName = str(item['Name']) ?? '';
    if (section === undefined) {
      notes.push(`vault item ${itemName} is in a section this account cannot list; left out`);
      continue;
    }
    const guid = str(item['VaultItemGuid']);
    if (guid !== undefined) itemRefs.set(guid, `${section}/${itemName}`);
    const where = `vault.yaml: ${section}/${itemName}`;
    const out = clean(item, 'vaultItem', ['Name', 'VaultItemType', 'UserName', 'Notes']);
    const type = str(item['VaultItemType']);
    const itemNotes = str(item['Notes']);
    if (itemNotes !== undefined) {
      const stripped = itemNotes.replace(FP_MARKER, '');
      if (stripped === '') delete out['Notes'];
      else out['Notes'] = stripped;
    }
    delete out['Value'];
    delete out['Password'];
    delete out['CertificateArchive'];
    if (type === 'CredentialSet') out['Password'] = placeholder(`${where} Password`, section, itemName, 'PASSWORD');
    else if (type === 'CertificateArchive') {
      out['CertificateArchive'] = {
        ArchiveData: placeholder(`${where} CertificateArchive.ArchiveData (base64)`, section, itemName, 'ARCHIVE'),
        Password: placeholder(`${where} CertificateArchive.Password`, section, itemName, 'ARCHIVE_PASSWORD'),
      };
    } else if (type === 'File') out['Value'] = placeholder(`${where} Value (base64)`, section, itemName, 'FILE');
    else if (type === 'OneTimePassword' || type === 'Certificate') out['Value'] = placeholder(`${where} Value`, section, itemName, 'VALUE');
    const list = itemsBySection.get(sectionGuid) ?? [];
    list.push(out);
    itemsBySection.set(sectionGuid, list);
  }
  noteDuplicates(notes, live.vaultSections.map((section) => str(section['Name']) ?? ''), 'vault sections are named');
  const itemKeys = new Map<string, number>();
  for (const ref of itemRefs.values()) itemKeys.set(ref, (itemKeys.get(ref) ?? 0) + 1);
  for (const [key, count] of itemKeys) {
    if (count > 1) notes.push(`${count} live vault items have the key ${JSON.stringify(key)} (a section or item name holds a slash): the key must be unique, so rename all but one in the web app`);
  }
  const sections = [...live.vaultSections].sort(byText('Name')).map((section) => {
    const out = clean(section, 'vaultSection', ['Name']);
    const items = itemsBySection.get(str(section['VaultSectionGuid']) ?? '') ?? [];
    return items.length > 0 ? { ...out, items } : out;
  });

  const monitorNames = new Map<string, string>();
  const monitors = notRetired(live.monitors, notes).sort(byText('Name')).map((monitor) => {
    const guid = str(monitor['MonitorGuid']);
    const name = str(monitor['Name']) ?? '';
    if (guid !== undefined) monitorNames.set(guid, name);
    const out = clean(monitor, 'monitor', ['Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert', 'UserAgent']);
    // Write-only: the service returns it empty, and the config may hold it only by reference.
    delete out['Password'];
    // A field named like a secret (ProxyPassword, AuthToken, ...) that the service does return is still a secret:
    // the tree holds it by reference only, as `migrate --from-json` does.
    const bySecretName = (value: unknown, field: string, words: string[], inSecret: boolean): unknown => {
      if (Array.isArray(value)) return value.map((entry: unknown, i) => bySecretName(entry, `${field}[${i}]`, [...words, String(i)], inSecret));
      if (typeof value === 'object' && value !== null) {
        const kept: ApiObject = {};
        for (const [key, child] of Object.entries(value as ApiObject)) {
          const scrubbed = bySecretName(child, `${field}.${key}`, [...words, fieldWords(key)], inSecret || isSecretFieldName(key));
          if (scrubbed !== undefined) kept[key] = scrubbed;
        }
        return kept;
      }
      if (!inSecret) return value;
      if (value === null || value === '' || typeof value === 'boolean') return undefined;
      return placeholder(`monitors.yaml: ${name} ${field}`, name, ...words);
    };
    for (const [key, value] of Object.entries(out)) {
      if (key === 'PredefinedVariables') continue;
      const scrubbed = bySecretName(value, key, [fieldWords(key)], isSecretFieldName(key));
      if (scrubbed === undefined) delete out[key];
      else out[key] = scrubbed;
    }
    const variables = monitor['PredefinedVariables'];
    if (Array.isArray(variables)) {
      out['PredefinedVariables'] = variables.map((variable: unknown) => {
        if (typeof variable !== 'object' || variable === null) return variable;
        const entry = { ...(variable as ApiObject) };
        const match = VAULT_VALUE.exec(str(entry['Value']) ?? '');
        const ref = match?.[1] === undefined ? undefined : itemRefs.get(match[1]);
        if (ref !== undefined) entry['Value'] = { vault: ref };
        else if (match !== null) notes.push(`monitor ${name}: variable ${str(entry['Key']) ?? '?'} refers to a vault item this account cannot list; kept as written`);
        return entry;
      });
    }
    return out;
  });
  const names = new Map<string, number>();
  for (const name of monitorNames.values()) names.set(name, (names.get(name) ?? 0) + 1);
  for (const [name, count] of names) {
    if (count > 1) notes.push(`${count} live monitors are named ${JSON.stringify(name)}: the key must be unique, so rename all but one in the web app (or in monitors.yaml after pinning MonitorGuid)`);
  }

  noteDuplicates(notes, live.monitorGroups.filter((group) => group['IsAll'] !== true).map((group) => str(group['Description']) ?? ''), 'monitor groups are described');
  const groups = [...live.monitorGroups]
    .filter((group) => group['IsAll'] !== true)
    .filter((group) => {
      // The loader refuses a group of this name (ALL_MONITORS_GROUP, see the schema README): written, the tree would not validate.
      const description = str(group['Description']) ?? '';
      if (description.trim().toLowerCase() !== 'all monitors') return true;
      notes.push(`monitor group ${JSON.stringify(description)} is named like the All Monitors group, which a tree cannot declare; left out (rename it in the web app to manage it)`);
      return false;
    })
    .sort(byText('Description'))
    .map((group) => {
      const out = clean(group, 'monitorGroup', ['Description']);
      const members = (live.groupMembers[str(group['MonitorGroupGuid']) ?? ''] ?? []).flatMap((guid) => {
        const name = monitorNames.get(guid);
        return name === undefined ? [] : [name];
      });
      if (members.length > 0) out['members'] = [...new Set(members)].sort((a, b) => a.localeCompare(b, 'en'));
      return out;
    });

  const slas = [...live.slas].sort(byText('Description')).map((sla) => {
    const out = clean(sla, 'sla', ['Description']);
    const listed = live.exclusionPeriods[str(sla['SlaGuid']) ?? ''] ?? [];
    const described = new Map<string, number>();
    for (const period of listed) described.set(str(period['Description']) ?? '', (described.get(str(period['Description']) ?? '') ?? 0) + 1);
    for (const [description, count] of described) {
      if (count > 1) notes.push(`${count} exclusion periods of SLA ${JSON.stringify(str(sla['Description']) ?? '')} are described ${JSON.stringify(description)}: the key must be unique, so rename all but one in the web app (or in slas.yaml after pinning ExclusionPeriodId)`);
    }
    const periods = [...listed]
      .sort(byText('Description'))
      .map((period) => clean(period, 'slaExclusionPeriod', ['Description', 'From', 'Until']));
    if (periods.length > 0) out['exclusionPeriods'] = periods;
    return out;
  });

  let unnamed = 0;
  const reports = [...live.scheduledReports]
    .map((report) => {
      const out = clean(report, 'scheduledReport', ['DashboardGuid', 'FileType', 'IsActive']);
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
    if (count > 1) notes.push(`${count} live scheduled reports carry the key marker monsync:key=${key}: the key must be unique, so change the marker in the InternalNotes of all but one in the web app (or delete the copies)`);
  }

  const header = (what: string) => [...modeline, `${what}, pulled from the live account by \`monsync pull\`.`];
  const files: PulledTree['files'] = [
    {
      path: 'monsync.yaml',
      content: toYaml(
        {
          apiVersion: 'monsync/v1',
          manage: {
            monitors: { prune: false },
            monitorGroups: { prune: false },
            vault: { prune: false },
            slas: { prune: false },
            scheduledReports: { prune: false },
          },
          safety: { maxDeletePercent: 30, maxUpdatePercent: 50 },
        },
        [
          ...modeline,
          'Written by `monsync pull`. Every kind is managed with prune: false, so objects that later appear',
          'only in the live account are listed as unmanaged, never deleted. Set prune: true once the tree is',
          'the source of truth. Alert definitions cannot be read through the API: declare them in a file',
          'with `alertDefinitions:` and add `alertDefinitions: { prune: false }` under manage.',
        ],
      ),
    },
  ];
  if (monitors.length > 0) files.push({ path: 'monitors.yaml', content: toYaml({ monitors }, header('Monitors (key: Name)')) });
  if (groups.length > 0) files.push({ path: 'monitor-groups.yaml', content: toYaml({ monitorGroups: groups }, header('Monitor groups (key: Description); members are monitor Names')) });
  if (sections.length > 0) files.push({ path: 'vault.yaml', content: toYaml({ vault: { sections } }, header('Vault sections and items; secrets are { fromEnv: ... } placeholders to fill')) });
  if (slas.length > 0) files.push({ path: 'slas.yaml', content: toYaml({ slas }, header('SLAs (key: Description) with their exclusion periods')) });
  if (reports.length > 0) files.push({ path: 'scheduled-reports.yaml', content: toYaml({ scheduledReports: reports }, header('Scheduled reports (key: the monsync:key marker in InternalNotes)')) });
  return { files, secrets, notes };
}
