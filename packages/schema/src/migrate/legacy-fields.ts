/**
 * The monitor fields the service removed on 2025-08-27, and the `ErrorConditions` type each pair became
 * (the spec's Monitor section). The old limit always becomes the string `Value`: the spec gives every entry a
 * `Value` (only `Effect` is "omitted for some types"), and the emulator and the config schema require it.
 * `into` says whether it also becomes `Percentage`, which the spec reserves for the two percentage types:
 * - `PageElementFailedWithPercentage`: `FailedObjectPercentage` *is* a share of page elements, so the one number
 *   goes into both `Value` and `Percentage`; the entry means the same whichever of the two the service reads.
 * - `PageElementMaxSizeWithPercentage`: `ElementMaximumSize` is a size, and the removed fields had no share of
 *   elements, so no `Percentage` is invented (the migration says so in an info note).
 * `flag` is `AlertOn...` (true gives `Effect: Error`, false `Indicate`), except for `HttpStatus` where
 * `ExpectedHttpStatusCodeSpecified` says whether the code applies at all (and the entry carries no `Effect`).
 */
export interface LegacyFieldMapping {
  readonly type: string;
  readonly flag: string;
  readonly value: string;
  readonly into: 'Value' | 'ValueAndPercentage';
  readonly flagMeaning: 'alertOn' | 'specified';
}

export const LEGACY_ERROR_CONDITION_FIELDS: readonly LegacyFieldMapping[] = [
  { type: 'LoadTimeLimit1', flag: 'AlertOnLoadTimeLimit1', value: 'LoadTimeLimit1', into: 'Value', flagMeaning: 'alertOn' },
  { type: 'LoadTimeLimit2', flag: 'AlertOnLoadTimeLimit2', value: 'LoadTimeLimit2', into: 'Value', flagMeaning: 'alertOn' },
  { type: 'TotalMaxBytes', flag: 'AlertOnMaximumBytes', value: 'MaximumBytes', into: 'Value', flagMeaning: 'alertOn' },
  { type: 'TotalMinBytes', flag: 'AlertOnMinimumBytes', value: 'MinimumBytes', into: 'Value', flagMeaning: 'alertOn' },
  {
    type: 'PageElementMaxSizeWithPercentage',
    flag: 'AlertOnMaximumSize',
    value: 'ElementMaximumSize',
    into: 'Value',
    flagMeaning: 'alertOn',
  },
  {
    type: 'PageElementFailedWithPercentage',
    flag: 'AlertOnPercentageFail',
    value: 'FailedObjectPercentage',
    into: 'ValueAndPercentage',
    flagMeaning: 'alertOn',
  },
  {
    type: 'HttpStatus',
    flag: 'ExpectedHttpStatusCodeSpecified',
    value: 'ExpectedHttpStatusCode',
    into: 'Value',
    flagMeaning: 'specified',
  },
];

const byField = new Map<string, LegacyFieldMapping>();
for (const mapping of LEGACY_ERROR_CONDITION_FIELDS) {
  byField.set(mapping.flag, mapping);
  byField.set(mapping.value, mapping);
}

export function legacyMappingOf(field: string): LegacyFieldMapping | undefined {
  return byField.get(field);
}

/**
 * v3 monitor fields the published v4 definition has no place for, with what to do instead. The service drops them
 * (a monitor sent one never holds it), so keeping one would make strict validation refuse the tree, and letting it
 * through (`allowUnknown`) would make every plan send it again. The migration removes each, naming its value in the
 * report so nothing is lost without a word. `Tags`: v4 groups monitors with monitor groups; a tag's meaning (which
 * group, with what members) is the team's to decide, so no group is made for it.
 */
export const UNPUBLISHED_V3_MONITOR_FIELDS: Readonly<Record<string, string>> = {
  Tags: 'v4 has no monitor tags: group such monitors with a monitor group (`monitorGroups:` with `members`) if the tags meant one',
};

/** Fields of an exported monitor the service sets itself: an imported config must not carry them. */
export const READ_ONLY_MONITOR_FIELDS: readonly string[] = ['CreatedDate', 'LastModifiedDate', 'LastModifiedByOperatorId'];
