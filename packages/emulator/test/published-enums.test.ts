/**
 * The emulator never answers an enum value the published definition lacks (a client tested against an invented value
 * passes where the service would refuse, or fails where it would not). Every profile is read whole, its demo account
 * and what its create defaults fill in, and each value of an enum field is checked against the published lists,
 * written here from the published definition (D22, the 2022 OpenAPI revision, and P26, the vendor's 2026 provider),
 * independently of the emulator's own tables.
 */
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES, type ProfileName } from '../src/index.js';
import { emulator, type Api } from './helpers.js';

const PRESET_PERIODS = [
  ...['CurrentDay', 'CurrentWeek', 'CurrentMonth', 'CurrentQuarter', 'CurrentYear'],
  ...['PreviousDay', 'PreviousWeek', 'PreviousMonth', 'PreviousQuarter', 'PreviousYear'],
  ...['Last2Hours', 'Last6Hours', 'Last12Hours', 'Last24Hours', 'Last48Hours', 'Last7Days', 'Last30Days', 'Last60Days', 'Last90Days', 'Last365Days'],
  ...['Last3Months', 'Last6Months', 'Last12Months', 'Last24Months', 'All'],
];
const EXCLUSIVE = ['Last2Hours', 'Last6Hours', 'Last12Hours', 'Last24Hours', 'Last48Hours', 'Last7Days', 'Last30Days', 'Last60Days', 'Last90Days', 'Last365Days', 'Last3Months', 'Last6Months', 'Last12Months', 'Last24Months'].map((p) => `${p}Excl`);
const OPERATOR_AUTHORIZATIONS = ['AccountAccess', 'AccountAdministrator', 'AllowInfra', 'FinancialOperator', 'TechnicalContact', 'ShareDashboards', 'CreateAlertDefinition', 'CreateIntegration', 'CreatePrivateLocations', 'ManageMonitorTemplates'];
const GROUP_AUTHORIZATIONS = ['ShareDashboards', 'AllowInfra', 'Administrator', 'TechnicalContact', 'FinancialOperator', 'BasicOperator', 'CreateAlertDefinition', 'CreateIntegration', 'CreatePrivateLocations', 'ManageMonitorTemplates'];

/** By field name: every value the published sources list (D22 and P26 together where they differ). */
const PUBLISHED: Readonly<Record<string, readonly string[]>> = {
  MonitorMode: ['Development', 'Staging', 'Production'],
  MonitorType: [
    ...['Http', 'Https', 'Connect', 'Ping', 'POP3', 'SMTP', 'FTP', 'MySQL', 'MSSQL', 'WebserviceHttp', 'WebserviceHttps', 'Transaction', 'DNS'],
    ...['FullPageCheck', 'RealBrowserCheck', 'Certificate', 'SFTP', 'MultiStepApi', 'IMAP', 'PostmanApi'],
  ],
  ErrorConditionType: [
    ...['LoadTimeLimit1', 'LoadTimeLimit2', 'TotalMinBytes', 'TotalMaxBytes', 'ContentMatch', 'ConsoleContentMatch', 'ConsoleLevel', 'HttpStatus'],
    ...['PageElementMaxSizeWithPercentage', 'PageElementFailedWithPercentage', 'TimeToFirstByteMaximum', 'RequestStartMaximum', 'DomCompleteMaximum'],
    ...['DomInteractiveMaximum', 'UseRecommendedCoreWebVitals', 'FirstContentfulPaintMaximum', 'LargestContentfulPaintMaximum', 'TimeToInteractiveMaximum'],
    ...['CumulativeLayoutShiftMaximum', 'TotalBlockingTimeMaximum', 'PageElementUrlMatch'],
  ],
  Effect: ['Indicate', 'Error'],
  Level: ['Info', 'Warning', 'Severe', 'Error'],
  MatchType: ['Positive', 'Negative', 'PositiveRegex', 'NegativeRegex', 'ErrorWhenContains', 'ErrorWhenNotContains', 'ErrorWhenContainsRegex', 'ErrorWhenNotContainsRegex'],
  UserAgent: ['ChromeLatest', 'EdgeLatest'],
  IpVersion: ['IpV4', 'IpV6'],
  HttpMethod: ['Get', 'Post'],
  HttpVersion: ['Negotiate', 'Http1_1', 'Http2', 'Http3'],
  AuthenticationType: ['None', 'Basic', 'NTLM', 'Digest'],
  BrowserType: ['IE', 'Firefox', 'Chrome', 'Safari', 'PhantomJS', 'PhantomJS20', 'ChromeWithExtraMetrics', 'Edge'],
  ScheduleMode: ['OneTime', 'Daily', 'Weekly', 'Monthly'],
  WeekDay: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  MaintenanceType: ['DisableMonitoring', 'DisableNotifications'],
  ScheduleType: ['Daily', 'Weekly', 'Monthly', 'Quarterly', 'Yearly'],
  FileType: ['PDFAttachment', 'PDFLink', 'ExcelAttachment', 'ExcelLink', 'Html'],
  SelectedPeriod: [...PRESET_PERIODS, ...EXCLUSIVE],
  VaultItemType: ['CredentialSet', 'Certificate', 'CertificateArchive', 'File', 'OneTimePassword'],
  HashAlgorithm: ['SHA256', 'SHA512', 'SHA1'],
  SecretEncodingMethod: ['Base32', 'Hex'],
  // The field is shared by vault, operator, operator group, monitor group and alert definition authorizations.
  AuthorizationType: [
    ...['ViewVaultSection', 'ChangeVaultSection', 'ViewMonitorDataInGroup', 'ViewMonitorsInGroup', 'EditMonitorsInGroup', 'CreateAndDeleteMonitorsInGroup', 'EditAlertDefinition'],
    ...OPERATOR_AUTHORIZATIONS,
    ...GROUP_AUTHORIZATIONS,
  ],
  SmsProvider: ['UseAccountSetting', 'SmsProviderEurope', 'SmsProviderEurope2', 'SmsProviderUSA', 'SmsProviderInternational'],
  SetupMode: ['Manual', 'Invitation'],
  EscalationMode: ['AlertOnErrorCount', 'AlertOnErrorDuration'],
};

/** `Type` of an integration (the field name is too common to check everywhere). */
const INTEGRATION_TYPES = ['Slack', 'PagerDuty', 'Sms', 'Email', 'Phone', 'Statushub', 'GenericWebhook'];

/** Listings answered as bare enum values (type names), by the path's last segments. */
const BARE_VALUES: readonly [RegExp, readonly string[]][] = [
  [/^\/OperatorGroup\/[^/]+\/Authorization$/, GROUP_AUTHORIZATIONS],
  [/^\/Operator\/[^/]+\/Authorization$/, OPERATOR_AUTHORIZATIONS],
];

/** Every `[path, field, value]` of an enum field in a JSON answer, at any depth. */
function enumValues(body: unknown, where: string, out: [string, string, string][] = []): [string, string, string][] {
  if (Array.isArray(body)) body.forEach((item, i) => enumValues(item, `${where}[${i}]`, out));
  else if (body !== null && typeof body === 'object') {
    for (const [field, value] of Object.entries(body)) {
      if (PUBLISHED[field] !== undefined && typeof value === 'string' && value !== '') out.push([`${where}.${field}`, field, value]);
      else enumValues(value, `${where}.${field}`, out);
    }
  }
  return out;
}

function rows(body: unknown): Record<string, unknown>[] {
  if (Array.isArray(body)) return body as Record<string, unknown>[];
  const data = (body as { Data?: unknown } | null)?.Data;
  return Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
}

/** A GET, asked again while the rate-limited profile refuses it (its waits are 0 s here). */
async function read(api: Api, path: string): Promise<unknown> {
  for (;;) {
    const res = await api.get(path);
    if (res.status === 429) continue;
    expect(res.status, `GET ${path}`).toBe(200);
    return res.json;
  }
}

/** Every listing of the account, per-parent ones included, and one of each object read alone. */
async function everything(api: Api): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>();
  const get = async (path: string): Promise<unknown> => {
    const body = await read(api, path);
    answers.set(path, body);
    return body;
  };
  for (const monitor of rows(await get('/Monitor'))) await get(`/Monitor/${String(monitor['MonitorGuid'])}`);
  for (const group of rows(await get('/MonitorGroup'))) await get(`/MonitorGroup/${String(group['MonitorGroupGuid'])}/Member`);
  for (const operator of rows(await get('/Operator'))) {
    const guid = String(operator['OperatorGuid']);
    await get(`/Operator/${guid}/DutySchedule`);
    await get(`/Operator/${guid}/Authorization`);
  }
  for (const group of rows(await get('/OperatorGroup'))) {
    const guid = String(group['OperatorGroupGuid']);
    await get(`/OperatorGroup/${guid}/Member`);
    await get(`/OperatorGroup/${guid}/Authorization`);
  }
  for (const section of rows(await get('/VaultSection'))) await get(`/VaultSection/${String(section['VaultSectionGuid'])}/Authorization`);
  await get('/VaultItem');
  for (const sla of rows(await get('/Sla'))) await get(`/Sla/${String(sla['SlaGuid'])}/ExclusionPeriod`);
  await get('/ScheduledReport');
  for (const definition of rows(await get('/AlertDefinition'))) {
    const guid = String(definition['AlertDefinitionGuid']);
    await get(`/AlertDefinition/${guid}/Member`);
    for (const level of rows(await get(`/AlertDefinition/${guid}/EscalationLevel`))) await get(`/AlertDefinition/${guid}/EscalationLevel/${String(level['Id'])}/Integration`);
  }
  await get('/Integration');
  return answers;
}

describe.each(PROFILE_NAMES.map((profile) => [profile] as [ProfileName]))('the %s profile', (profile) => {
  it('answers only enum values of the published definition: its demo account and its create defaults', async () => {
    const api = await emulator({ profile, seed: 'demo', retryAfterSeconds: 0 });
    // What the service fills in: a monitor created with no mode, agent or conditions.
    for (;;) {
      const created = await api.post('/Monitor', { Name: 'defaults', MonitorType: 'Https', Url: 'https://example.com/' });
      if (created.status !== 429) break;
    }
    const answers = await everything(api);
    const invented: string[] = [];
    let checked = 0;
    for (const [path, body] of answers) {
      for (const [where, field, value] of enumValues(body, path)) {
        checked += 1;
        if (!(PUBLISHED[field] ?? []).includes(value)) invented.push(`${where} = ${JSON.stringify(value)}`);
      }
      if (path === '/Integration') {
        for (const integration of rows(body)) {
          checked += 1;
          if (!INTEGRATION_TYPES.includes(String(integration['Type']))) invented.push(`${path} Type = ${JSON.stringify(integration['Type'])}`);
        }
      }
      const bare = BARE_VALUES.find(([pattern]) => pattern.test(path));
      if (bare === undefined) continue;
      for (const value of rows(body)) {
        checked += 1;
        if (typeof value !== 'string' || !bare[1].includes(value)) invented.push(`${path} lists ${JSON.stringify(value)}`);
      }
    }
    expect(invented).toEqual([]);
    // The walk saw the account: every monitor's mode and type, and more.
    expect(checked).toBeGreaterThan(40);
    const defaults = rows(answers.get('/Monitor')).find((monitor) => monitor['Name'] === 'defaults');
    expect(defaults?.['MonitorMode']).toBe('Production');
  });
});
