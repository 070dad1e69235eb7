import { describe, expect, it } from 'vitest';
import { pulledTree, type PulledSnapshot } from './pull-tree.js';
import { loadConfigTexts } from '@monsync/schema';

type ApiObject = Record<string, unknown>;

/** The listings as the service returns them, by client family; members as monitor GUIDs per group GUID. */
interface Listings {
  monitors?: ApiObject[];
  monitorGroups?: ApiObject[];
  groupMembers?: Record<string, string[]>;
  vaultSections?: ApiObject[];
  vaultItems?: ApiObject[];
  slas?: ApiObject[];
  exclusionPeriods?: Record<string, ApiObject[]>;
  scheduledReports?: ApiObject[];
  rumWebsites?: ApiObject[];
}

/** The snapshot readLive would make of these listings. */
function snapshotOf(listings: Listings): PulledSnapshot {
  const members = Object.fromEntries(Object.entries(listings.groupMembers ?? {}).map(([group, guids]) => [group, guids.map((MonitorGuid) => ({ MonitorGuid }))]));
  return {
    lists: {
      monitor: listings.monitors ?? [],
      monitorGroup: listings.monitorGroups ?? [],
      vaultSection: listings.vaultSections ?? [],
      vaultItem: listings.vaultItems ?? [],
      sla: listings.slas ?? [],
      scheduledReport: listings.scheduledReports ?? [],
      rumWebsite: listings.rumWebsites ?? [],
    },
    perParent: { groupMembership: members, slaExclusionPeriod: listings.exclusionPeriods ?? {} },
  };
}

const snapshot: Listings = {
  monitors: [
    {
      MonitorGuid: 'm-2',
      Name: 'Shop search',
      MonitorType: 'Https',
      IsActive: true,
      CreatedDate: '2026-01-01T00:00:00',
      LastModifiedDate: '2026-01-02T00:00:00',
      LastModifiedByOperatorId: 'op-1',
      Password: '',
      Notes: null,
      ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }],
    },
    {
      MonitorGuid: 'm-1',
      Name: 'Shop checkout API',
      MonitorType: 'PostmanApi',
      PredefinedVariables: [
        { Key: 'login', Value: '{{vault:v-1}}' },
        { Key: 'other', Value: '{{vault:unknown}}' },
        { Key: 'plain', Value: 'x' },
      ],
    },
  ],
  monitorGroups: [
    { MonitorGroupGuid: 'g-all', Description: 'All Monitors', IsAll: true, UsedBasicMonitorQuota: 2 },
    { MonitorGroupGuid: 'g-1', Description: 'Shop', IsAll: false, UsedBasicMonitorQuota: 2 },
  ],
  groupMembers: { 'g-1': ['m-2', 'm-1', 'not-visible'] },
  vaultSections: [{ VaultSectionGuid: 's-1', Name: 'Web' }],
  vaultItems: [
    { VaultItemGuid: 'v-1', VaultSectionGuid: 's-1', Name: 'shop-login', VaultItemType: 'CredentialSet', UserName: 'robot', Password: '', IsSensitive: true, Notes: 'Robot\nmonsync:fp=abc123', VaultItemUsedBy: '1 monitor' },
    { VaultItemGuid: 'v-2', VaultSectionGuid: 's-1', Name: 'client-cert', VaultItemType: 'CertificateArchive', CertificateArchive: { Issuer: 'CA', Password: '', ArchiveData: '' } },
    { VaultItemGuid: 'v-3', VaultSectionGuid: 's-hidden', Name: 'hidden', VaultItemType: 'File' },
  ],
  slas: [{ SlaGuid: 'sla-1', Hash: 'h', Description: 'Gold', UptimeErrorThreshold: 99.5 }],
  exclusionPeriods: { 'sla-1': [{ ExclusionPeriodId: 7, Hash: 'h', Description: 'Freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00' }] },
  scheduledReports: [
    { ScheduledReportGuid: 'r-1', Hash: 'h', DashboardGuid: 'd-1', FileType: 'PDFAttachment', InternalNotes: 'Board pack\nmonsync:key=weekly-exec', Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' } },
    { ScheduledReportGuid: 'r-2', DashboardGuid: 'd-2', FileType: 'Html', InternalNotes: 'made in the web app', Schedule: { ScheduleType: 'Daily', Time: '07:00:00' } },
  ],
};

describe('pull: live snapshot to config tree', () => {
  const tree = pulledTree(snapshotOf(snapshot), { schemaPath: '../schemas/config.schema.json' });
  const file = (path: string) => tree.files.find((entry) => entry.path === path)?.content ?? '';

  it('writes monsync.yaml and one file per kind, each with the editor modeline', () => {
    expect(tree.files.map((entry) => entry.path)).toEqual(['monsync.yaml', 'monitors.yaml', 'monitor-groups.yaml', 'vault.yaml', 'slas.yaml', 'scheduled-reports.yaml']);
    for (const entry of tree.files) expect(entry.content.startsWith('# yaml-language-server: $schema=../schemas/config.schema.json\n')).toBe(true);
    expect(file('monsync.yaml')).toContain('apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }');
  });

  it('leaves out read-only fields, nulls and the empty write-only password, sorted by key', () => {
    expect(file('monitors.yaml')).toContain(
      ['monitors:', '  - Name: Shop checkout API', '    MonitorType: PostmanApi', '    PredefinedVariables:', '      - Key: login', '        Value: { vault: Web/shop-login }', '      - { Key: other, Value: "{{vault:unknown}}" }', '      - { Key: plain, Value: x }', '  - Name: Shop search', '    MonitorType: Https', '    IsActive: true', '    ErrorConditions:', '      - { ErrorConditionType: HttpStatus, Value: "200" }', ''].join('\n'),
    );
    expect(tree.notes).toContain('monitor Shop checkout API: variable other refers to a vault item this account cannot list; kept as written (validate asks for { vault: Section/Item })');
  });

  it('writes members by monitor name and skips the All Monitors group', () => {
    expect(file('monitor-groups.yaml')).toContain('monitorGroups:\n  - Description: Shop\n    members: [Shop checkout API, Shop search]\n');
    expect(file('monitor-groups.yaml')).not.toContain('All Monitors');
  });

  it('turns every secret into a fromEnv placeholder and lists it, dropping the fingerprint marker', () => {
    const vault = file('vault.yaml');
    expect(vault).toContain('Notes: Robot\n');
    expect(vault).not.toContain('monsync:fp');
    expect(vault).toContain('Password: { fromEnv: MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD }');
    expect(vault).toContain('ArchiveData: { fromEnv: MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE }');
    expect(vault).not.toMatch(/Issuer|IsSensitive|VaultItemUsedBy|VaultItemGuid/);
    expect(tree.secrets).toEqual([
      { env: 'MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE', where: 'vault.yaml: Web/client-cert CertificateArchive.ArchiveData (base64)' },
      { env: 'MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE_PASSWORD', where: 'vault.yaml: Web/client-cert CertificateArchive.Password' },
      { env: 'MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD', where: 'vault.yaml: Web/shop-login Password' },
    ]);
    expect(tree.notes).toContain('vault item hidden is in a section this account cannot list; left out');
  });

  it('nests exclusion periods under their SLA without ids or hashes', () => {
    expect(file('slas.yaml')).toContain('slas:\n  - Description: Gold\n    UptimeErrorThreshold: 99.5\n    exclusionPeriods:\n      - { Description: Freeze, From: "2026-11-27T00:00:00", Until: "2026-11-28T00:00:00" }\n');
  });

  it('keeps a report key marker as key and pins the GUID of a report without one', () => {
    const reports = file('scheduled-reports.yaml');
    expect(reports).toContain('  - key: report-1\n    ScheduledReportGuid: r-2\n');
    expect(reports).toContain('  - key: weekly-exec\n    DashboardGuid: d-1\n');
    expect(reports).toContain('InternalNotes: Board pack\n');
    expect(reports).not.toContain('monsync:key=');
    expect(reports).not.toContain('Hash');
  });

  it('warns about live monitors sharing a name, since the key must be unique', () => {
    const twins = pulledTree(snapshotOf({ ...snapshot, monitors: [{ MonitorGuid: 'a', Name: 'Twin' }, { MonitorGuid: 'b', Name: 'Twin' }] }));
    expect(twins.notes.some((note) => note.startsWith('2 live monitors are named "Twin"'))).toBe(true);
    expect(twins.files[0]?.content.startsWith('# Written by')).toBe(true);
  });
});

describe('pull: values that look like secrets', () => {
  const CANARY = 'Canary5e1b77aa';
  // The web app dropped the fingerprint marker from Notes: nothing records where these values came from.
  const monitor = {
    MonitorGuid: 'm-9',
    Name: 'Partner API',
    MonitorType: 'PostmanApi',
    Notes: 'edited in the web app',
    Url: `https://robot:${CANARY}@partner.example.com/health`,
    Headers: [
      { Name: 'Authorization', Value: `Bearer ${CANARY}` },
      { Name: 'Accept', Value: 'application/json' },
    ],
    RequestHeaders: { Cookie: `sid=${CANARY}` },
    PredefinedVariables: [
      { Key: 'password', Value: CANARY },
      { Key: 'apiKey', Value: CANARY },
      { Key: 'session', Value: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtb25zeW5jIn0.${CANARY}` },
      { Key: 'region', Value: 'eu-west' },
    ],
  };
  const tree = pulledTree(snapshotOf({ monitors: [monitor] }));
  const monitors = tree.files.find((entry) => entry.path === 'monitors.yaml')?.content ?? '';

  it('never writes one in clear, marker or no marker: each becomes a listed fromEnv placeholder', () => {
    expect(monitors).not.toContain(CANARY);
    expect(monitors).toContain('{ Key: region, Value: eu-west }');
    expect(monitors).toContain('{ Name: Accept, Value: application/json }');
    expect(tree.secrets.map((secret) => `${secret.env} <- ${secret.where}`)).toEqual([
      'MONSYNC_SECRET_PARTNER_API_URL <- monitors.yaml: Partner API Url',
      'MONSYNC_SECRET_PARTNER_API_HEADERS_0_VALUE <- monitors.yaml: Partner API Headers[0].Value',
      'MONSYNC_SECRET_PARTNER_API_REQUEST_HEADERS_COOKIE <- monitors.yaml: Partner API RequestHeaders.Cookie',
      'MONSYNC_SECRET_PARTNER_API_VARIABLE_PASSWORD <- monitors.yaml: Partner API PredefinedVariables[password].Value',
      'MONSYNC_SECRET_PARTNER_API_VARIABLE_APIKEY <- monitors.yaml: Partner API PredefinedVariables[apiKey].Value',
      'MONSYNC_SECRET_PARTNER_API_VARIABLE_SESSION <- monitors.yaml: Partner API PredefinedVariables[session].Value',
    ]);
  });
});

describe('pulledTree and the published definition', () => {
  // An account of a service newer than this release: a monitor type, a mode, a field and an error condition's field
  // the published definition does not list.
  it('lets through in monsync.yaml what the account holds beyond it (fields, values, nested ones too), so the pulled tree validates', () => {
    const tree = pulledTree(
      snapshotOf({
        monitors: [
          {
            MonitorGuid: 'a0000000-0000-4000-8000-000000000001',
            Name: 'Newer',
            MonitorType: 'NewerType',
            MonitorMode: 'Canary',
            Tags: ['x'],
            IsActive: true,
            ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200', Weight: '2' }],
          },
          { MonitorGuid: 'a0000000-0000-4000-8000-000000000002', Name: 'New', MonitorType: 'Https', MonitorMode: 'Production', IsActive: true },
        ],
      }),
    );
    const settings = tree.files.find((file) => file.path === 'monsync.yaml')?.content ?? '';
    expect(settings).toContain('allowUnknown:\n  fields:\n    monitor: [Tags]\n    errorCondition: [Weight]\n  values:\n    MonitorType: [NewerType]\n    MonitorMode: [Canary]\n');
    const { diagnostics } = loadConfigTexts('/pulled', tree.files.map((file) => ({ file: file.path, text: file.content })));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('writes only the allowUnknown table the account needs: values without an empty fields table, fields without an empty values table', () => {
    const monitor = (fields: ApiObject): ApiObject => ({ MonitorGuid: 'a0000000-0000-4000-8000-000000000001', Name: 'Newer', MonitorType: 'Https', MonitorMode: 'Production', IsActive: true, ...fields });
    const settingsOf = (fields: ApiObject): string => pulledTree(snapshotOf({ monitors: [monitor(fields)] })).files.find((file) => file.path === 'monsync.yaml')?.content ?? '';
    const values = settingsOf({ MonitorType: 'NewerType' });
    expect(values).toContain('allowUnknown:\n  values:\n    MonitorType: [NewerType]\n');
    expect(values).not.toMatch(/fields:/);
    // And the tree still validates strictly.
    const pulled = pulledTree(snapshotOf({ monitors: [monitor({ MonitorType: 'NewerType' })] }));
    const { diagnostics } = loadConfigTexts('/pulled', pulled.files.map((file) => ({ file: file.path, text: file.content })));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const fields = settingsOf({ Tags: ['x'] });
    expect(fields).toContain('allowUnknown:\n  fields:\n    monitor: [Tags]\n');
    expect(fields).not.toMatch(/values:/);
  });

  it('writes no allowUnknown when everything is published', () => {
    const tree = pulledTree(snapshotOf({ monitors: [{ MonitorGuid: 'a0000000-0000-4000-8000-000000000002', Name: 'New', MonitorType: 'Https', IsActive: true }] }));
    expect(tree.files.find((file) => file.path === 'monsync.yaml')?.content).not.toContain('allowUnknown');
  });

  it('writes RUM websites by Description without the RumScript the service made, and allows a field the service added', () => {
    const site = (n: number, fields: ApiObject = {}): ApiObject => ({
      RumWebsiteId: `b0000000-0000-4000-8000-00000000000${n}`,
      Url: `https://site${n}.example.com`,
      IsSpa: false,
      IncludeUrlFragment: false,
      RumScript: `<script>\n# forged: true\nrumWebsites: []</script>`,
      ...fields,
    });
    const tree = pulledTree(snapshotOf({ rumWebsites: [site(2, { Description: 'Shop', Sampling: 10 }), site(1, { Description: 'Docs' })] }));
    const file = tree.files.find((f) => f.path === 'rum-websites.yaml')?.content ?? '';
    expect(file.split('\n').filter((line) => !line.startsWith('#'))).toEqual([
      'rumWebsites:',
      '  - { Description: Docs, Url: "https://site1.example.com", IsSpa: false, IncludeUrlFragment: false }',
      '  - Description: Shop',
      '    Url: "https://site2.example.com"',
      '    IsSpa: false',
      '    IncludeUrlFragment: false',
      '    Sampling: 10',
      '',
    ]);
    expect(JSON.stringify(tree.data)).not.toContain('RumScript');
    expect(tree.files.find((f) => f.path === 'monsync.yaml')?.content).toContain('allowUnknown:\n  fields:\n    rumWebsite: [Sampling]\n');
    const { diagnostics } = loadConfigTexts('/pulled', tree.files.map((f) => ({ file: f.path, text: f.content })));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe("pulledTree and an operator's own authorizations", () => {
  const operator = (n: number, email: string): ApiObject => ({ OperatorGuid: `c0000000-0000-4000-8000-00000000000${n}`, Email: email, FullName: email });
  const held = (types: string[]) => types.map((AuthorizationType) => ({ AuthorizationType }));
  const tree = pulledTree({
    lists: { operator: [operator(1, 'admin@example.com'), operator(2, 'fin@example.com'), operator(3, 'contact@example.com'), operator(4, 'newer@example.com'), operator(5, 'unread@example.com')] },
    perParent: {
      operatorAuthorization: {
        'c0000000-0000-4000-8000-000000000001': held(['AccountAdministrator', 'AccountAccess']),
        'c0000000-0000-4000-8000-000000000002': held(['FinancialOperator', 'AccountAccess']),
        'c0000000-0000-4000-8000-000000000003': held([]),
        'c0000000-0000-4000-8000-000000000004': held(['AccountAccess', 'ManageRumWebsites']),
      },
    },
  });
  const operators = tree.files.find((file) => file.path === 'operators.yaml')?.content ?? '';
  const declared = (email: string) => (tree.data['operators'] as ApiObject[]).find((o) => o['Email'] === email)?.['authorizations'];

  it('writes the types an operator holds beyond the default, AccountAccess included, and never AccountAdministrator', () => {
    expect(declared('fin@example.com')).toEqual(['AccountAccess', 'FinancialOperator']);
    expect(declared('contact@example.com')).toEqual([]);
    expect(operators).not.toContain('AccountAdministrator');
  });

  it('writes no list for an operator holding only the default AccountAccess, or whose authorizations were not read', () => {
    expect(declared('admin@example.com')).toBeUndefined();
    expect(declared('unread@example.com')).toBeUndefined();
  });

  it('lets a type newer than this release through allowUnknown, so the pulled tree validates', () => {
    expect(declared('newer@example.com')).toEqual(['AccountAccess', 'ManageRumWebsites']);
    expect(tree.files.find((file) => file.path === 'monsync.yaml')?.content).toContain('\n  values:\n    authorizations: [ManageRumWebsites]\n');
    const { diagnostics } = loadConfigTexts('/pulled', tree.files.map((file) => ({ file: file.path, text: file.content })));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
