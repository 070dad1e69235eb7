import { Core } from './core.js';
import { alertDefinitionsApi, integrationsApi, type AlertDefinitionsApi, type IntegrationsApi } from './families/alert-definitions.js';
import { alertsApi, statisticsApi, type AlertsApi, type StatisticsApi } from './families/alerts.js';
import { checkpointsApi, type CheckpointsApi } from './families/checkpoints.js';
import { monitorGroupsApi, type MonitorGroupsApi } from './families/monitor-groups.js';
import { monitorChecksApi, monitorsApi, type MonitorChecksApi, type MonitorsApi } from './families/monitors.js';
import {
  operatorGroupsApi,
  operatorsApi,
  outgoingPhoneNumbersApi,
  timezonesApi,
  type OperatorGroupsApi,
  type OperatorsApi,
  type OutgoingPhoneNumbersApi,
  type TimezonesApi,
} from './families/operators.js';
import { scheduledReportsApi, slasApi, type ScheduledReportsApi, type SlasApi } from './families/reports-slas.js';
import { rumWebsitesApi, type RumWebsitesApi } from './families/rum-websites.js';
import { vaultItemsApi, vaultSectionsApi, type VaultItemsApi, type VaultSectionsApi } from './families/vault.js';
import { Transport, type HttpMethod, type Query, type TransportOptions } from './transport.js';
import type { ApiAccount, Credentials, RegisterRequest } from './types.js';

export type ClientOptions = TransportOptions;

export interface RawRequestOptions {
  query?: Query;
  body?: unknown;
  /** Path template reported in events (default: the path itself), e.g. `/RUM/{id}`. */
  route?: string;
  /** Credentials for this call only. */
  auth?: Credentials;
}

export interface MonitoringClient {
  readonly baseUrl: string;
  readonly parallelism: number;
  /** Attempts of one write in all (`retry.maxAttempts`): the client's one retry policy per request. */
  readonly maxAttempts: number;
  /** Attempts of one read (GET) in all (`retry.maxReadAttempts`). */
  readonly maxReadAttempts: number;
  readonly monitors: MonitorsApi;
  readonly monitorChecks: MonitorChecksApi;
  readonly monitorGroups: MonitorGroupsApi;
  readonly alerts: AlertsApi;
  readonly statistics: StatisticsApi;
  readonly alertDefinitions: AlertDefinitionsApi;
  /** `GET /Integration`: the integrations escalation levels attach (set up in the web app). */
  readonly integrations: IntegrationsApi;
  readonly checkpoints: CheckpointsApi;
  readonly operators: OperatorsApi;
  readonly operatorGroups: OperatorGroupsApi;
  readonly timezones: TimezonesApi;
  readonly outgoingPhoneNumbers: OutgoingPhoneNumbersApi;
  readonly vaultItems: VaultItemsApi;
  readonly vaultSections: VaultSectionsApi;
  readonly scheduledReports: ScheduledReportsApi;
  readonly slas: SlasApi;
  /** `/Rum/Website`: websites measured by real user monitoring. */
  readonly rumWebsites: RumWebsitesApi;
  /**
   * `POST /Register`: creates an API account. The service authenticates this call with the operator's
   * regular login, so pass it as `credentials` (default: the client's own). The result holds the new
   * password, which cannot be recovered later.
   */
  register(body?: RegisterRequest, credentials?: Credentials): Promise<ApiAccount>;
  /**
   * Any other call (RUM metrics, Integration/Custom, ApiUser, private locations, MonitorResultExportSettings), with the
   * same auth, limits, retries and errors. `path` is below the API root, e.g. `/RUM`. Resolves to the parsed
   * JSON body, or undefined when there is none.
   */
  request<T = unknown>(method: HttpMethod, path: string, options?: RawRequestOptions): Promise<T | undefined>;
  /** Closes the connection pool the client created (an injected dispatcher is left open). */
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): MonitoringClient {
  const transport = new Transport(options);
  const core = new Core(transport);
  return {
    get baseUrl() {
      return transport.baseUrl;
    },
    get parallelism() {
      return transport.parallelism;
    },
    get maxAttempts() {
      return transport.maxAttempts;
    },
    get maxReadAttempts() {
      return transport.maxReadAttempts;
    },
    monitors: monitorsApi(core),
    monitorChecks: monitorChecksApi(core),
    monitorGroups: monitorGroupsApi(core),
    alerts: alertsApi(core),
    statistics: statisticsApi(core),
    alertDefinitions: alertDefinitionsApi(core),
    integrations: integrationsApi(core),
    checkpoints: checkpointsApi(core),
    operators: operatorsApi(core),
    operatorGroups: operatorGroupsApi(core),
    timezones: timezonesApi(core),
    outgoingPhoneNumbers: outgoingPhoneNumbersApi(core),
    vaultItems: vaultItemsApi(core),
    vaultSections: vaultSectionsApi(core),
    scheduledReports: scheduledReportsApi(core),
    slas: slasApi(core),
    rumWebsites: rumWebsitesApi(core),
    register: (body = {}, credentials) =>
      core.json<ApiAccount>({ method: 'POST', route: '/Register', body, ...(credentials ? { auth: credentials } : {}) }),
    request: <T>(method: HttpMethod, path: string, raw: RawRequestOptions = {}) =>
      core.maybe<T>({
        method,
        route: raw.route ?? path,
        path,
        ...(raw.query === undefined ? {} : { query: raw.query }),
        ...(raw.body === undefined ? {} : { body: raw.body }),
        ...(raw.auth === undefined ? {} : { auth: raw.auth }),
      }),
    close: () => transport.close(),
  };
}
