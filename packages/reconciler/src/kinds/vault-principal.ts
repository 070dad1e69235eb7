import { OPERATOR_KIND } from '@monsync/schema';
import type { ApiObject } from '../live/types.js';
import { str } from './contract.js';

const OPERATOR = OPERATOR_KIND.kind;

/** `operator:<guid>` or `group:<guid>` of a vault section's authorization, read in the published form or the spec's. */
export function principalOf(authorization: ApiObject): { who: typeof OPERATOR | 'group'; guid: string } | undefined {
  const operator = str(authorization, 'OperatorGuid');
  if (operator !== undefined && operator !== '') return { who: OPERATOR, guid: operator };
  const group = str(authorization, 'OperatorGroupGuid') ?? str(authorization, 'OperatorGroupId');
  return group !== undefined && group !== '' ? { who: 'group', guid: group } : undefined;
}
