export { formatTimestamp, isTimestamp, normalizeTimestamp, parseTimestamp } from './timestamp.js';
export { createClient, type ClientOptions, type MonitoringClient, type RawRequestOptions } from './client.js';
export { clientFromEnv, clientOptionsFromEnv, ENV_VARIABLES } from './env.js';
export {
  ApiError,
  AuthenticationError,
  ClientConfigError,
  connectionProblemOf,
  ConflictError,
  InvalidQueryError,
  MalformedListingError,
  ImpreciseNumberError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  errorForStatus,
  extractServiceMessage,
  isApiError,
  isUnclearOutcome,
  type ApiErrorOptions,
  type MalformedListingOptions,
  type RedactedRequest,
  type RedactedResponse,
} from './errors.js';
export { LISTING_SHAPES, type EntryFieldType, type EntryShape } from './listing-shapes.js';
export { Paged, type Cursors, type Page, type ToArrayOptions } from './paging.js';
export { REDACTED, redactJson } from './redact.js';
export { backoffDelay, DEFAULT_READ_ATTEMPTS, DEFAULT_WRITE_ATTEMPTS, parseRetryAfter, type RetryOptions } from './retry.js';
export { DEFAULT_USER_AGENT, encodeQuery, type HttpMethod, type Query, type QueryValue, type RequestEvent, type ResponseEvent, type RetryEvent } from './transport.js';
export { emailList } from './families/alert-definitions.js';
export type { AlertDefinitionsApi, IntegrationsApi } from './families/alert-definitions.js';
export type { AlertsApi, StatisticsApi } from './families/alerts.js';
export type { CheckpointsApi } from './families/checkpoints.js';
export type { MonitorGroupsApi } from './families/monitor-groups.js';
export type { MonitorChecksApi, MonitorsApi } from './families/monitors.js';
export type { OperatorGroupsApi, OperatorsApi, OutgoingPhoneNumbersApi, TimezonesApi } from './families/operators.js';
export type { ScheduledReportsApi, SlasApi } from './families/reports-slas.js';
export type { RumWebsitesApi } from './families/rum-websites.js';
export type { VaultItemsApi, VaultSectionsApi } from './families/vault.js';
export * from './enums.js';
export * from './types.js';
