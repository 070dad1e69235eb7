import { isObj, type Obj } from '../validate.js';

/** Fields removed on 2025-08-27 and the ErrorConditions type that replaces each (spec, Monitor). */
export const REMOVED_FIELDS: Readonly<Record<string, string>> = {
  AlertOnLoadTimeLimit1: 'LoadTimeLimit1',
  LoadTimeLimit1: 'LoadTimeLimit1',
  AlertOnLoadTimeLimit2: 'LoadTimeLimit2',
  LoadTimeLimit2: 'LoadTimeLimit2',
  AlertOnMaximumBytes: 'TotalMaxBytes',
  MaximumBytes: 'TotalMaxBytes',
  AlertOnMinimumBytes: 'TotalMinBytes',
  MinimumBytes: 'TotalMinBytes',
  AlertOnMaximumSize: 'PageElementMaxSizeWithPercentage',
  ElementMaximumSize: 'PageElementMaxSizeWithPercentage',
  AlertOnPercentageFail: 'PageElementFailedWithPercentage',
  FailedObjectPercentage: 'PageElementFailedWithPercentage',
  ExpectedHttpStatusCode: 'HttpStatus',
  ExpectedHttpStatusCodeSpecified: 'HttpStatus',
};

export const ERROR_CONDITION_TYPES = [
  'LoadTimeLimit1',
  'LoadTimeLimit2',
  'TotalMaxBytes',
  'TotalMinBytes',
  'PageElementMaxSizeWithPercentage',
  'PageElementFailedWithPercentage',
  'HttpStatus',
] as const;

/** The published definition's full list (its ErrorConditionType row), newest source included. */
export const PUBLISHED_ERROR_CONDITION_TYPES = [
  ...ERROR_CONDITION_TYPES,
  'ContentMatch', 'ConsoleContentMatch', 'ConsoleLevel', 'TimeToFirstByteMaximum', 'RequestStartMaximum', 'DomCompleteMaximum',
  'DomInteractiveMaximum', 'UseRecommendedCoreWebVitals', 'FirstContentfulPaintMaximum', 'LargestContentfulPaintMaximum',
  'TimeToInteractiveMaximum', 'CumulativeLayoutShiftMaximum', 'TotalBlockingTimeMaximum', 'PageElementUrlMatch',
] as const;

/** The monitor fields the published definition and the vendor's provider name; the published profile drops the rest. */
export const PUBLISHED_MONITOR_FIELDS: ReadonlySet<string> = new Set([
  'MonitorGuid', 'Name', 'MonitorType', 'MonitorMode', 'IsActive', 'GenerateAlert', 'CreatedDate', 'LastModifiedDate',
  'LastModifiedByOperatorId', 'UserAgent', 'PredefinedVariables', 'ErrorConditions', 'CheckInterval', 'CheckIntervalSeconds',
  'Hash', 'IsLocked', 'Credits', 'SelectedCheckpoints', 'UsePrimaryCheckpointsOnly', 'Notes', 'Url', 'NetworkAddress', 'Port',
  'IpVersion', 'HttpMethod', 'TlsVersion', 'AuthenticationType', 'Username', 'Password', 'NameForPhoneAlerts',
  'UseConcurrentMonitoring', 'CustomFields', 'CustomMetrics', 'BrowserType', 'HttpVersion', 'UseW3CTotalTime', 'Tls13',
  'MultiStepApiTransactionScript', 'PostmanCollectionJson', 'MaintenancePeriods',
]);

/** What the service puts on a monitor that has no load-time conditions (the published "default conditions" row). */
export const DEFAULT_LOAD_TIME_CONDITIONS: readonly Obj[] = [
  { ErrorConditionType: 'LoadTimeLimit1', Value: '8000', Effect: 'Indicate' },
  { ErrorConditionType: 'LoadTimeLimit2', Value: '16000', Effect: 'Indicate' },
];

/** The conditions plus a default for each load-time type they lack (the same array when they lack none). */
export function withLoadTimeConditions(conditions: unknown): unknown {
  if (!Array.isArray(conditions)) return conditions;
  const present = new Set(conditions.map((ec) => (isObj(ec) ? ec['ErrorConditionType'] : undefined)));
  const missing = DEFAULT_LOAD_TIME_CONDITIONS.filter((d) => !present.has(d['ErrorConditionType']));
  return missing.length === 0 ? conditions : [...conditions, ...missing.map((d) => ({ ...d }))];
}

