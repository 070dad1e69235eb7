import { PLAN_STEP_KINDS } from '@monsync/schema';
import { UsageError } from './errors.js';

/** Step kinds a `--target` may name: the plan schema's list, from the kind registry. */
export const TARGET_KINDS = PLAN_STEP_KINDS;

/**
 * Checks a `--target kind:key` before anything is read, so a misspelt kind is a usage error rather than a plan
 * that silently selects nothing. Matching itself (globs, dependencies) is the reconciler's, shared with apply.
 */
export function parseTarget(text: string, command = 'plan'): { kind: string; pattern: string } {
  const colon = text.indexOf(':');
  const kind = colon < 0 ? text : text.slice(0, colon);
  const pattern = colon < 0 ? '' : text.slice(colon + 1);
  if (!(TARGET_KINDS as readonly string[]).includes(kind) || pattern === '') {
    throw new UsageError(`--target ${text}: expected kind:key with kind one of ${TARGET_KINDS.join(', ')} (e.g. --target "monitor:Shop homepage")`, command);
  }
  return { kind, pattern };
}
