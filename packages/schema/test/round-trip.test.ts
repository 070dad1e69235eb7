import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SAFETY,
  EFFECTS,
  ERROR_CONDITION_TYPES,
  FILE_TYPES,
  MANAGED_KINDS,
  Secret,
  SELECTED_PERIODS,
  USER_AGENTS,
  WEEK_DAYS,
  diagnosticLine,
  loadConfigTexts,
  type DesiredState,
} from '../src/index.js';
import { namesSecret } from '../src/secret-fields.js';

type Obj = Record<string, unknown>;

const ENV_NAMES = ['SHOP_PASSWORD', 'CERT_PW', 'OTP_SECRET', 'API_TOKEN'] as const;
const env = Object.fromEntries(ENV_NAMES.map((name) => [name, 'CANARY-7f3a9c']));

/** Any text, including YAML's special characters, leading spaces, quotes, newlines and non-ASCII. */
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
// A blank name names nothing (EMPTY_VALUE), and names that differ only in case clash where the service ignores case (SLAs).
const name = text.filter((s) => s.trim() !== '' && s.trim().toLowerCase() !== 'all monitors');
const uniqueNames = (max: number) => fc.uniqueArray(name, { maxLength: max, selector: (s) => s.trim().toLowerCase() });
const percent = fc.integer({ min: 0, max: 10000 }).map((n) => n / 100);
const secretRef = fc.constantFrom(...ENV_NAMES).map((fromEnv) => ({ fromEnv }));
const two = (n: number) => String(n).padStart(2, '0');
const timestamp = fc.integer({ min: Date.UTC(2000, 0, 1) / 1000, max: Date.UTC(2099, 0, 1) / 1000 }).map((s) => {
  const d = new Date(s * 1000);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
});
const timeOfDay = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })).map(([h, m, s]) => `${two(h)}:${two(m)}:${two(s)}`);
const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9._+-]{1,10}$/), fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/), fc.constantFrom('com', 'org', 'example'))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const optional = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops undefined fields, as YAML would never write them. */
function clean<T extends Obj>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const errorConditions = fc
  .uniqueArray(fc.constantFrom(...ERROR_CONDITION_TYPES), { maxLength: 4 })
  .chain((types) =>
    fc.tuple(
      ...types.map((type) =>
        // A load-time limit under 100 ms draws a warning (LOAD_TIME_IN_SECONDS): valid trees write milliseconds.
        fc
          .record({ Value: fc.integer({ min: type.startsWith('LoadTimeLimit') ? 100 : 0, max: 99999 }).map(String), Effect: optional(fc.constantFrom(...EFFECTS)) })
          .map((c) => clean({ ErrorConditionType: type, ...c })),
      ),
    ),
  );

const monitor = (monitorName: string, vaultRefs: readonly string[]) =>
  fc
    .record({
      MonitorType: optional(fc.constantFrom('Https', 'Http', 'Ping', 'DNS')),
      IsActive: optional(fc.boolean()),
      GenerateAlert: optional(fc.boolean()),
      UserAgent: optional(fc.constantFrom(...USER_AGENTS)),
      ErrorConditions: optional(errorConditions),
      PredefinedVariables: optional(
        fc
          // A key that names a credential (`apiKey`) with a literal value is refused (LITERAL_SECRET), as its own tests show.
          .uniqueArray(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/).filter((key) => !namesSecret(key)), { maxLength: 3 })
          .chain((keys) => fc.tuple(...keys.map((Key) => (vaultRefs.length > 0 ? fc.oneof(text, fc.constantFrom(...vaultRefs).map((vault) => ({ vault }))) : text).map((Value) => ({ Key, Value }))))),
      ),
      // Unknown PascalCase API fields pass through verbatim.
      CheckInterval: optional(fc.integer({ min: 1, max: 60 })),
      BearerToken: optional(secretRef),
    })
    .map((m) => clean({ Name: monitorName, ...m }));

const vaultSections = uniqueNames(3)
  .map((names) => names.filter((n) => !n.includes('/')))
  .chain((names) =>
    fc.tuple(
      ...names.map((sectionName) =>
        uniqueNames(3).chain((itemNames) =>
          fc.tuple(
            ...itemNames.map((itemName) =>
              fc.oneof(
                fc.record({ UserName: text, Password: secretRef }).map((r) => ({ Name: itemName, VaultItemType: 'CredentialSet', ...r })),
                secretRef.map((Value) => ({ Name: itemName, VaultItemType: 'OneTimePassword', Value })),
                fc.record({ ArchiveData: secretRef, Password: secretRef }).map((CertificateArchive) => ({ Name: itemName, VaultItemType: 'CertificateArchive', CertificateArchive })),
              ),
            ),
          ).map((items) => ({ Name: sectionName, items })),
        ),
      ),
    ),
  );

const sla = (description: string) =>
  fc
    .record({
      thresholds: fc.tuple(percent, percent).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
      LoadTimeErrorThreshold: optional(fc.integer({ min: 0, max: 60000 })),
      periods: uniqueNames(3).chain((names) =>
        fc.tuple(
          ...names.map((Description) =>
            fc
              .tuple(timestamp, timestamp)
              .filter(([a, b]) => a !== b)
              .map(([a, b]) => ({ Description, From: a < b ? a : b, Until: a < b ? b : a })),
          ),
        ),
      ),
    })
    .map(({ thresholds, LoadTimeErrorThreshold, periods }) =>
      clean({ Description: description, UptimeErrorThreshold: thresholds[0], UptimeWarningThreshold: thresholds[1], LoadTimeErrorThreshold, exclusionPeriods: periods.length > 0 ? periods : undefined }),
    );

const schedule = fc.oneof(
  timeOfDay.map((Time) => ({ ScheduleType: 'Daily', Time })),
  fc.tuple(timeOfDay, fc.constantFrom(...WEEK_DAYS)).map(([Time, WeekDay]) => ({ ScheduleType: 'Weekly', Time, WeekDay })),
  fc.tuple(timeOfDay, fc.integer({ min: 1, max: 31 })).map(([Time, MonthDay]) => ({ ScheduleType: 'Monthly', Time, MonthDay })),
  fc.tuple(timeOfDay, fc.constantFrom(1, 2, 3)).map(([Time, QuarterStartMonth]) => ({ ScheduleType: 'Quarterly', Time, QuarterStartMonth })),
  timeOfDay.map((Time) => ({ ScheduleType: 'Yearly', Time })),
);

const report = (key: string) =>
  fc
    .record({
      DashboardGuid: fc.uuid(),
      FileType: fc.constantFrom(...FILE_TYPES),
      IsActive: optional(fc.boolean()),
      Schedule: schedule,
      SelectedPeriod: optional(fc.constantFrom(...SELECTED_PERIODS)),
      Notes: optional(text),
      Recipients: optional(fc.record({ ExtraEmailAddresses: fc.array(email, { maxLength: 3 }) })),
    })
    .map((r) => clean({ key, ...r }));

const desiredTree = fc
  .record({
    monitorNames: uniqueNames(5),
    sections: vaultSections,
    slaNames: uniqueNames(3),
    reportKeys: fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,15}$/), { maxLength: 3 }),
    alertGuids: fc.uniqueArray(fc.uuid(), { maxLength: 2 }),
    groupNames: uniqueNames(3),
    prune: fc.array(fc.boolean(), { minLength: MANAGED_KINDS.length, maxLength: MANAGED_KINDS.length }),
    removal: fc.constantFrom('auto', 'delete', 'deactivate'),
    split: fc.integer({ min: 1, max: 3 }),
  })
  .chain(({ monitorNames, sections, slaNames, reportKeys, alertGuids, groupNames, prune, removal, split }) => {
    const vaultRefs = sections.flatMap((s) => s.items.map((i) => `${s.Name}/${i.Name}`));
    return fc.record({
      settings: fc.constant({
        apiVersion: 'monsync/v1',
        manage: Object.fromEntries(MANAGED_KINDS.map((kind, i) => [kind, { prune: prune[i] ?? false, ...(kind === 'monitors' ? { removal } : {}) }])),
        safety: DEFAULT_SAFETY,
        // The generated monitors carry fields the published definition does not list (a bearer token's): let through.
        allowUnknown: { fields: { monitor: ['BearerToken', 'Tags'] }, values: {} },
      }),
      monitors: fc.tuple(...monitorNames.map((n) => monitor(n, vaultRefs))),
      monitorGroups: fc.tuple(
        ...groupNames.map((Description) => fc.subarray(monitorNames).map((members) => clean({ Description, members: members.length > 0 ? members : undefined }))),
      ),
      sections: fc.constant(sections),
      slas: fc.tuple(...slaNames.map(sla)),
      scheduledReports: fc.tuple(...reportKeys.map(report)),
      alertDefinitions: fc.tuple(...alertGuids.map((AlertDefinitionGuid) => fc.boolean().map((IsActive) => ({ AlertDefinitionGuid, IsActive })))),
      split: fc.constant(split),
    });
  });

type Tree = typeof desiredTree extends fc.Arbitrary<infer T> ? T : never;

/** Writes the tree as files: settings in monsync.yaml, resources spread over `split` files. */
function toFiles(tree: Tree): { file: string; text: string }[] {
  const resources: [string, unknown][] = [
    ['monitors', tree.monitors],
    ['monitorGroups', tree.monitorGroups],
    ['vault', { sections: tree.sections }],
    ['slas', tree.slas],
    ['scheduledReports', tree.scheduledReports],
    ['alertDefinitions', tree.alertDefinitions],
  ];
  const files: Obj[] = Array.from({ length: tree.split }, () => ({}));
  resources.forEach(([key, value], i) => {
    (files[i % tree.split] as Obj)[key] = value;
  });
  return [
    { file: 'monsync.yaml', text: stringify(tree.settings) },
    ...files.map((content, i) => ({ file: `resources/part-${i}.yaml`, text: stringify(content) })),
  ];
}

/** The desired state as plain data: Declared wrappers unwrapped, Secrets back to their references. */
function plain(value: unknown): unknown {
  if (value instanceof Secret) return value.ref;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    const obj = value as Obj;
    const keys = Object.keys(obj);
    if (keys.length === 2 && keys.includes('value') && keys.includes('source')) return plain(obj.value);
    return Object.fromEntries(keys.map((k) => [k, plain(obj[k])]));
  }
  return value;
}

function expectedState(tree: Tree): Obj {
  return {
    monitors: tree.monitors,
    monitorGroups: tree.monitorGroups,
    vaultSections: tree.sections,
    slas: tree.slas,
    scheduledReports: tree.scheduledReports,
    alertDefinitions: tree.alertDefinitions,
  };
}

function loadedState(desired: DesiredState): Obj {
  const { monitors, monitorGroups, vaultSections, slas, scheduledReports, alertDefinitions } = desired;
  return plain({ monitors, monitorGroups, vaultSections, slas, scheduledReports, alertDefinitions }) as Obj;
}

describe('round trip', () => {
  it('loads generated valid trees written as YAML back to the same values, with no diagnostics', () => {
    fc.assert(
      fc.property(desiredTree, (tree) => {
        const { desired, diagnostics } = loadConfigTexts('/cfg', toFiles(tree), { env });
        expect(diagnostics.map(diagnosticLine)).toEqual([]);
        expect(loadedState(desired)).toEqual(expectedState(tree));
        expect(desired.settings).toEqual({ ...tree.settings, ignore: [] });
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('keeps the position of every declaration on the line that declares it', () => {
    fc.assert(
      fc.property(desiredTree, (tree) => {
        const files = toFiles(tree);
        const { desired } = loadConfigTexts('/cfg', files, { env });
        for (const { value, source } of desired.monitors) {
          const line = files.find((f) => f.file === source.file)?.text.split('\n')[source.line - 1] ?? '';
          expect(line.slice(source.column - 1)).toMatch(/^Name: /);
          expect(value.Name).toBeTypeOf('string');
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
