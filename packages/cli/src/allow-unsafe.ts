import { booleanOption, type OptionSpecs, type ParsedValues } from './args.js';
import type { CliIo } from './io.js';

/** `--allow-unsafe` and its former name, for plan and apply alike. */
export const ALLOW_UNSAFE_OPTIONS = {
  'allow-unsafe': {
    type: 'boolean',
    description: 'accept a plan over the safety thresholds of monsync.yaml (deletes or updates of too many objects of a kind); protected objects and policy errors are refused whatever this says',
  },
  'allow-deletes': { type: 'boolean', description: 'deprecated: the former name of --allow-unsafe, removed in the next release' },
} as const satisfies OptionSpecs;

/** Whether an unsafe plan is accepted; the former name still works for this release, with a warning. */
export function allowUnsafe(values: ParsedValues, io: Pick<CliIo, 'stderr'>): boolean {
  const former = booleanOption(values, 'allow-deletes');
  if (former) io.stderr.write('warning: --allow-deletes is deprecated and will be removed in the next release; write --allow-unsafe (it accepts any unsafe plan, updates as well as deletes)\n');
  return former || booleanOption(values, 'allow-unsafe');
}
