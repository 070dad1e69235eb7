import { createHash } from 'node:crypto';
import { newLevels } from './handlers/alert-definitions.js';
import { rumScript } from './handlers/rum-websites.js';
import { STATE_FORMAT, Store, type EmulatorState, type MonitorRec } from './store.js';
import type { Obj } from './validate.js';

export type SeedName = 'empty' | 'demo';

export interface SeedCredentials {
  user: string;
  password: string;
}

/** Stable, realistic-looking GUIDs so seeded objects keep their identity across restarts. */
export function seedGuid(name: string): string {
  const h = createHash('sha256').update(`monsync-emulator:${name}`).digest('hex');
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const SEEDED = {
  admin: { email: 'admin@example.com', loginPassword: 'admin-login-password', fullName: 'Demo Administrator', guid: seedGuid('operator:admin') },
  viewer: {
    email: 'viewer@example.com',
    loginPassword: 'viewer-login-password',
    fullName: 'Vera Viewer',
    guid: seedGuid('operator:viewer'),
    apiUser: 'viewer',
    apiPassword: 'viewer-password',
  },
  colleague: { email: 'sam.ops@example.com', loginPassword: 'sam-login-password', fullName: 'Sam Ops', guid: seedGuid('operator:sam') },
  everyoneGroup: seedGuid('operator-group:everyone'),
  administratorsGroup: seedGuid('operator-group:administrators'),
  allMonitorsGroup: seedGuid('monitor-group:all'),
  defaultVaultSection: seedGuid('vault-section:default'),
  alertDefinitions: {
    default: seedGuid('alert-definition:default'),
    onCall: seedGuid('alert-definition:on-call'),
    nightShift: seedGuid('alert-definition:night-shift'),
  },
  integrations: {
    email: seedGuid('integration:email'),
    sms: seedGuid('integration:sms'),
    phone: seedGuid('integration:phone'),
    chat: seedGuid('integration:chat'),
    webhook: seedGuid('integration:webhook'),
  },
} as const;

const SEED_DATE = '2025-09-01T08:00:00';

function operator(o: { guid: string; email: string; fullName: string; loginPassword: string }, extra: Obj = {}): Obj {
  return {
    OperatorGuid: o.guid,
    Email: o.email,
    UserName: o.email,
    Password: o.loginPassword,
    FullName: o.fullName,
    MobilePhone: '',
    OutgoingPhoneNumber: '',
    BackupEmail: '',
    IsOnDuty: true,
    CultureName: 'en-US',
    TimeZoneId: 1,
    SmsProvider: 'UseAccountSetting',
    UseNumericSender: false,
    PhoneProvider: 'UseAccountSetting',
    AllowNativeLogin: true,
    AllowSingleSignon: false,
    ...extra,
  };
}

const TIMEZONES: Obj[] = [
  { TimezoneId: 1, Description: '(UTC) Coordinated Universal Time', OffsetFromUtc: 0, HasDaylightSaving: false },
  { TimezoneId: 2, Description: '(UTC+00:00) Dublin, Edinburgh, Lisbon, London', OffsetFromUtc: 0, HasDaylightSaving: true, DaylightSavingOffset: 60 },
  { TimezoneId: 3, Description: '(UTC+01:00) Amsterdam, Berlin, Rome, Stockholm, Vienna', OffsetFromUtc: 60, HasDaylightSaving: true, DaylightSavingOffset: 60 },
  { TimezoneId: 4, Description: '(UTC-05:00) Eastern Time (US & Canada)', OffsetFromUtc: -300, HasDaylightSaving: true, DaylightSavingOffset: 60 },
  { TimezoneId: 5, Description: '(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi', OffsetFromUtc: 330, HasDaylightSaving: false },
  { TimezoneId: 6, Description: '(UTC+09:00) Osaka, Sapporo, Tokyo', OffsetFromUtc: 540, HasDaylightSaving: false },
  { TimezoneId: 7, Description: '(UTC+10:00) Canberra, Melbourne, Sydney', OffsetFromUtc: 600, HasDaylightSaving: true, DaylightSavingOffset: 60 },
];

function server(id: number, ipv4: string[], ipv6: string[], upcoming = false): Obj {
  return { ServerId: id, Ipv4Addresses: ipv4, IpV6Addresses: ipv6, IsUpcoming: upcoming };
}

function checkpoint(id: number, name: string, country: string, servers: Obj[], isPrivate = false): Obj {
  return {
    CheckpointId: id,
    Name: name,
    CountryCode: country,
    IsPrivateLocation: isPrivate,
    // Upcoming addresses are included, so firewall allow-lists can be prepared in advance.
    Ipv4Addresses: servers.flatMap((s) => s['Ipv4Addresses'] as string[]),
    IpV6Addresses: servers.flatMap((s) => s['IpV6Addresses'] as string[]),
    Servers: servers,
  };
}

const CHECKPOINTS: Obj[] = [
  checkpoint(1, 'Amsterdam', 'NL', [server(101, ['198.51.100.11'], ['2001:db8:101::11']), server(102, ['198.51.100.12'], ['2001:db8:101::12'])]),
  checkpoint(2, 'Frankfurt', 'DE', [server(201, ['198.51.100.21'], ['2001:db8:201::21']), server(202, ['198.51.100.22'], ['2001:db8:201::22'], true)]),
  checkpoint(3, 'New York', 'US', [server(301, ['203.0.113.31'], ['2001:db8:301::31'])]),
  checkpoint(4, 'Singapore', 'SG', [server(401, ['203.0.113.41'], [])]),
  checkpoint(90, 'Private location: Office Utrecht', 'NL', [server(9001, ['10.20.30.40'], ['fd00:20:30::40'])], true),
];

function baseState(creds: SeedCredentials): EmulatorState {
  const { admin, viewer } = SEEDED;
  return {
    format: STATE_FORMAT,
    version: 1,
    accountId: '104729',
    cursorSecret: Store.newCursorSecret(),
    counters: { monitorSeq: 0, dutyScheduleId: 0, exclusionPeriodId: 0 },
    operators: [operator(admin), operator(viewer, { TimeZoneId: 3, CultureName: 'nl-NL' })],
    apiAccounts: [
      { UserName: creds.user, Password: creds.password, OperatorGuid: admin.guid, Description: 'Seeded API account', CreatedDate: SEED_DATE },
      { UserName: viewer.apiUser, Password: viewer.apiPassword, OperatorGuid: viewer.guid, Description: 'Seeded read-only API account', CreatedDate: SEED_DATE },
    ],
    operatorGroups: [
      { fields: { OperatorGroupGuid: SEEDED.everyoneGroup, Description: 'Everyone', IsEveryone: true, IsAdministratorsGroup: false }, members: [], authorizations: [] },
      {
        fields: { OperatorGroupGuid: SEEDED.administratorsGroup, Description: 'Administrators', IsEveryone: false, IsAdministratorsGroup: true },
        members: [admin.guid],
        authorizations: [],
      },
    ],
    dutySchedules: [],
    monitors: [],
    monitorViewPermissions: {},
    maintenancePeriods: [],
    monitorGroups: [
      { fields: { MonitorGroupGuid: SEEDED.allMonitorsGroup, Description: 'All Monitors', IsAll: true, IsQuotaUnlimited: true }, members: [] },
    ],
    vaultSections: [{ VaultSectionGuid: SEEDED.defaultVaultSection, Name: 'Default' }],
    vaultAuthorizations: ['ViewVaultSection', 'ChangeVaultSection'].map((t) => ({
      AuthorizationId: seedGuid(`vault-auth:default:${t}`),
      ContextId: SEEDED.defaultVaultSection,
      AuthorizationType: t,
      OperatorGuid: null,
      OperatorGroupId: SEEDED.administratorsGroup,
    })),
    vaultItems: [],
    slas: [],
    scheduledReports: [],
    rumWebsites: [],
    // A fresh account has one definition and the predefined integrations; the demo adds configured ones.
    alertDefinitions: [{ fields: { AlertDefinitionGuid: SEEDED.alertDefinitions.default, AlertName: 'Default alerting', IsActive: true }, escalationLevels: newLevels(3), members: [], authorizations: [] }],
    integrations: [
      { IntegrationGuid: SEEDED.integrations.email, Name: 'Email', Type: 'Email' },
      { IntegrationGuid: SEEDED.integrations.sms, Name: 'SMS', Type: 'Sms' },
      { IntegrationGuid: SEEDED.integrations.phone, Name: 'Phone', Type: 'Phone' },
    ],
    timezones: structuredClone(TIMEZONES),
    checkpoints: structuredClone(CHECKPOINTS),
  };
}

// ---- demo account ---------------------------------------------------------------------------

export const DEMO = {
  vaultSection: seedGuid('vault-section:web'),
  items: { shopLogin: seedGuid('vault-item:web/shop-login'), clientCert: seedGuid('vault-item:web/client-cert') },
  groups: { shop: seedGuid('monitor-group:shop'), platform: seedGuid('monitor-group:platform'), marketing: seedGuid('monitor-group:marketing') },
  slas: { gold: seedGuid('sla:gold'), silver: seedGuid('sla:silver') },
  reports: { weeklyExec: seedGuid('report:weekly-exec'), monthlyOps: seedGuid('report:monthly-ops') },
  dashboard: seedGuid('dashboard:executive'),
  rumWebsites: { shop: seedGuid('rum-website:shop') },
} as const;

interface DemoMonitor {
  name: string;
  type: string;
  fields: Obj;
  groups: string[];
  viewer?: boolean;
  drift?: string;
}

const EC = (type: string, value: string, extra: Obj = {}): Obj => ({ ErrorConditionType: type, Value: value, ...extra });

function demoMonitors(): DemoMonitor[] {
  const { groups, items } = DEMO;
  return [
    { name: 'Shop homepage', type: 'Https', groups: [groups.shop], viewer: true, fields: { Url: 'https://shop.example.com/', CheckInterval: 5, ErrorConditions: [EC('LoadTimeLimit1', '4000', { Effect: 'Error' }), EC('HttpStatus', '200')] } },
    { name: 'Shop checkout', type: 'Transaction', groups: [groups.shop], fields: { CheckInterval: 10, ErrorConditions: [EC('LoadTimeLimit1', '10000', { Effect: 'Error' })], PredefinedVariables: [{ Key: 'login', Value: `{{vault:${items.shopLogin}}}` }] } },
    { name: 'Shop search API', type: 'MultiStepApi', groups: [groups.shop], fields: { Url: 'https://api.shop.example.com/search', CheckInterval: 5, BearerToken: 'seeded-bearer-token-not-for-output', PredefinedVariables: [{ Key: 'query', Value: 'running shoes' }] } },
    { name: 'Shop product images', type: 'FullPageCheck', groups: [groups.shop], fields: { Url: 'https://shop.example.com/products', CheckInterval: 15, ErrorConditions: [EC('PageElementMaxSizeWithPercentage', '500', { Percentage: '10', Effect: 'Indicate' }), EC('PageElementFailedWithPercentage', '1', { Percentage: '5', Effect: 'Error' }), EC('TotalMaxBytes', '5000000')] } },
    { name: 'Marketing site', type: 'Https', groups: [groups.marketing], viewer: true, fields: { Url: 'https://www.example.com/', CheckInterval: 5, UserAgent: 'EdgeLatest', ErrorConditions: [EC('HttpStatus', '200')] } },
    { name: 'Blog', type: 'Https', groups: [groups.marketing], viewer: true, drift: '2026-01-12T16:42:00', fields: { Url: 'https://blog.example.com/', CheckInterval: 15, IsActive: false, ErrorConditions: [EC('LoadTimeLimit1', '6000', { Effect: 'Indicate' })] } },
    { name: 'API gateway health', type: 'Https', groups: [groups.platform], fields: { Url: 'https://gateway.example.com/health', CheckInterval: 1, ErrorConditions: [EC('HttpStatus', '200'), EC('TotalMinBytes', '2')] } },
    { name: 'Auth service', type: 'PostmanApi', groups: [groups.platform], fields: { CheckInterval: 5, PredefinedVariables: [{ Key: 'baseUrl', Value: 'https://auth.example.com' }, { Key: 'clientCertificate', Value: `{{vault:${items.clientCert}}}` }] } },
    { name: 'Mail relay', type: 'SMTP', groups: [groups.platform], fields: { Url: 'smtp.example.com', Port: 25, CheckInterval: 5 } },
    { name: 'DNS example.com', type: 'DNS', groups: [groups.platform], fields: { Url: 'example.com', CheckInterval: 10 } },
    { name: 'Database primary', type: 'MySQL', groups: [groups.platform], drift: '2026-01-14T09:05:00', fields: { Url: 'db1.internal.example.com', Port: 3306, CheckInterval: 5, ErrorConditions: [EC('LoadTimeLimit1', '3000', { Effect: 'Error' })] } },
    { name: 'Old status page', type: 'Http', groups: [], fields: { Url: 'http://status-old.example.com/', CheckInterval: 60, IsActive: false, GenerateAlert: false } },
    { name: 'legacy-ftp', type: 'FTP', groups: [], fields: { Url: 'ftp.example.com', Port: 21, CheckInterval: 30 } },
  ];
}

/** Two more definitions, and two integrations configured in the web app (a chat channel, a webhook taking variables). */
function demoAlerting(s: EmulatorState): void {
  const { alertDefinitions, integrations } = SEEDED;
  s.alertDefinitions.push(
    { fields: { AlertDefinitionGuid: alertDefinitions.onCall, AlertName: 'Escalate to on-call', IsActive: false }, escalationLevels: newLevels(3), members: [], authorizations: [] },
    { fields: { AlertDefinitionGuid: alertDefinitions.nightShift, AlertName: 'Night shift', IsActive: true }, escalationLevels: newLevels(3), members: [], authorizations: [] },
  );
  // `AllowsEscalationLevelVariables` is the emulator's own record of whether `VariableValues` are taken; never returned.
  s.integrations.push(
    { IntegrationGuid: integrations.chat, Name: 'Ops chat channel', Type: 'Slack', AllowsEscalationLevelVariables: true },
    { IntegrationGuid: integrations.webhook, Name: 'Incident webhook', Type: 'GenericWebhook', AllowsEscalationLevelVariables: true },
  );
}

function demoState(creds: SeedCredentials): EmulatorState {
  const s = baseState(creds);
  demoAlerting(s);
  const { colleague, admin, viewer } = SEEDED;
  s.operators.push(operator(colleague, { TimeZoneId: 2, CultureName: 'en-GB' }));
  const admins = s.operatorGroups.find((g) => g.fields['IsAdministratorsGroup'] === true);
  admins?.members.push(colleague.guid);

  const groupMembers = new Map<string, string[]>();
  const viewable: string[] = [];
  demoMonitors().forEach((m, i) => {
    const guid = seedGuid(`monitor:${m.name}`);
    const created = `2025-09-${String(2 + i).padStart(2, '0')}T09:${String(10 + i).padStart(2, '0')}:00`;
    const fields: Obj = {
      MonitorGuid: guid,
      Name: m.name,
      MonitorType: m.type,
      MonitorMode: 'Production',
      IsActive: true,
      GenerateAlert: true,
      UserAgent: 'ChromeLatest',
      ErrorConditions: [],
      PredefinedVariables: [],
      ...m.fields,
      CreatedDate: created,
      LastModifiedDate: m.drift ?? created,
      // Drift: a colleague changed these monitors in the web application after they were set up.
      LastModifiedByOperatorId: m.drift ? colleague.guid : admin.guid,
    };
    const rec: MonitorRec = { seq: i + 1, fields };
    s.monitors.push(rec);
    for (const g of m.groups) groupMembers.set(g, [...(groupMembers.get(g) ?? []), guid]);
    if (m.viewer) viewable.push(guid);
  });
  s.counters.monitorSeq = s.monitors.length;
  s.monitorViewPermissions[viewer.guid] = viewable;
  const groupNames: Array<[string, string]> = [
    [DEMO.groups.shop, 'Shop'],
    [DEMO.groups.platform, 'Platform'],
    [DEMO.groups.marketing, 'Marketing'],
  ];
  for (const [guid, name] of groupNames) {
    s.monitorGroups.push({ fields: { MonitorGroupGuid: guid, Description: name, IsAll: false, IsQuotaUnlimited: false }, members: groupMembers.get(guid) ?? [] });
  }

  addDemoVault(s);
  addDemoSlasAndReports(s);
  s.rumWebsites = [
    {
      RumWebsiteId: DEMO.rumWebsites.shop,
      Description: 'Shop storefront',
      Url: 'https://shop.example.com',
      IsSpa: true,
      IncludeUrlFragment: false,
      RumScript: rumScript(DEMO.rumWebsites.shop),
    },
  ];
  return s;
}

/** The demo's vault section `Web`, its authorizations and the two items monitors use. */
function addDemoVault(s: EmulatorState): void {
  const { viewer } = SEEDED;
  s.vaultSections.push({ VaultSectionGuid: DEMO.vaultSection, Name: 'Web' });
  const auth = (t: string, principal: { OperatorGuid: string | null; OperatorGroupId: string | null }, tag: string): Obj => ({
    AuthorizationId: seedGuid(`vault-auth:web:${tag}:${t}`),
    ContextId: DEMO.vaultSection,
    AuthorizationType: t,
    ...principal,
  });
  s.vaultAuthorizations.push(
    auth('ViewVaultSection', { OperatorGuid: null, OperatorGroupId: SEEDED.administratorsGroup }, 'admins'),
    auth('ChangeVaultSection', { OperatorGuid: null, OperatorGroupId: SEEDED.administratorsGroup }, 'admins'),
    auth('ViewVaultSection', { OperatorGuid: viewer.guid, OperatorGroupId: null }, 'viewer'),
  );
  s.vaultItems.push(
    {
      VaultItemGuid: DEMO.items.shopLogin,
      Name: 'shop-login',
      VaultSectionGuid: DEMO.vaultSection,
      VaultItemType: 'CredentialSet',
      Value: '',
      IsSensitive: true,
      Notes: 'Robot account for the checkout journey',
      UserName: 'robot',
      Password: 'seeded-shop-password',
    },
    {
      VaultItemGuid: DEMO.items.clientCert,
      Name: 'client-cert',
      VaultSectionGuid: DEMO.vaultSection,
      VaultItemType: 'CertificateArchive',
      Value: '',
      IsSensitive: true,
      Notes: 'mTLS client certificate for the auth service',
      UserName: '',
      Password: '',
      CertificateArchive: {
        Issuer: 'CN=Example Issuing CA, O=Example Corp',
        NotBefore: '2025-06-01T00:00:00',
        NotAfter: '2027-06-01T00:00:00',
        Password: 'seeded-archive-password',
        ArchiveData: Buffer.from('seeded pfx bytes').toString('base64'),
      },
    },
  );

}

/** The demo's SLAs (with an exclusion period each) and two scheduled reports. */
function addDemoSlasAndReports(s: EmulatorState): void {
  const { admin } = SEEDED;
  s.slas.push(
    {
      fields: { SlaGuid: DEMO.slas.gold, Hash: seedGuid('hash:gold').replace(/-/g, ''), Description: 'Gold', UptimeErrorThreshold: 99.5, UptimeWarningThreshold: 99.9, LoadTimeErrorThreshold: 4, OperatorReponseTimeThreshold: 15 },
      exclusionPeriods: [{ ExclusionPeriodId: 1, Hash: seedGuid('hash:period1').replace(/-/g, ''), Description: 'Black Friday freeze', From: '2026-11-27T00:00:00', Until: '2026-11-28T00:00:00' }],
    },
    {
      fields: { SlaGuid: DEMO.slas.silver, Hash: seedGuid('hash:silver').replace(/-/g, ''), Description: 'Silver', UptimeErrorThreshold: 99, UptimeWarningThreshold: 99.5, LoadTimeErrorThreshold: 8, OperatorReponseTimeThreshold: 30 },
      exclusionPeriods: [{ ExclusionPeriodId: 2, Hash: seedGuid('hash:period2').replace(/-/g, ''), Description: 'Quarterly maintenance', From: '2026-03-01T22:00:00', Until: '2026-03-02T02:00:00' }],
    },
  );
  s.counters.exclusionPeriodId = 2;

  s.scheduledReports.push(
    {
      ScheduledReportGuid: DEMO.reports.weeklyExec,
      Hash: seedGuid('hash:weekly-exec').replace(/-/g, ''),
      DashboardGuid: DEMO.dashboard,
      FileType: 'PDFAttachment',
      IsActive: true,
      Schedule: { ScheduleType: 'Weekly', Time: '08:00:00', WeekDay: 'Monday' },
      SelectedPeriod: 'PreviousWeek',
      InternalNotes: 'Weekly executive summary.\nmonsync:key=weekly-exec',
      Notes: 'Uptime of the shop and platform last week.',
      Recipients: { Operators: [admin.guid], OperatorGroups: [], ExtraEmailAddresses: ['ops@example.com'] },
    },
    {
      ScheduledReportGuid: DEMO.reports.monthlyOps,
      Hash: seedGuid('hash:monthly-ops').replace(/-/g, ''),
      DashboardGuid: DEMO.dashboard,
      FileType: 'ExcelAttachment',
      IsActive: true,
      Schedule: { ScheduleType: 'Monthly', Time: '07:00:00', MonthDay: 1 },
      SelectedPeriod: 'Last6Months',
      InternalNotes: 'monsync:key=monthly-ops',
      Notes: '',
      Recipients: { Operators: [], OperatorGroups: [SEEDED.administratorsGroup], ExtraEmailAddresses: [] },
    },
  );
}

export function seedState(name: SeedName, creds: SeedCredentials): EmulatorState {
  return name === 'demo' ? demoState(creds) : baseState(creds);
}

export function seedStore(name: SeedName, creds: SeedCredentials): Store {
  return Store.fromJSON(seedState(name, creds), `seed "${name}"`);
}
