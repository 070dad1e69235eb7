import { MONITOR_KIND, kindEntry } from '../kinds.js';
import type { MigrateOptions, MigrationErrorCondition, MigrationRename, MigrationResult } from './types.js';

/**
 * The process exit code for a migration run: 1 when a monitor could not be migrated (any error problem),
 * or in check mode when anything would change (so CI fails until `monsync migrate` is run); 0 otherwise.
 */
export function migrationExitCode(result: MigrationResult, options: Pick<MigrateOptions, 'check'> = {}): 0 | 1 {
  if (result.problems.some((problem) => problem.severity === 'error')) return 1;
  if (options.check === true && (result.changes.length > 0 || result.renames.length > 0)) return 1;
  return 0;
}

/** Condition types whose `Value` counts milliseconds, as the removed fields did: the number is kept, and said to be. */
const MILLISECOND_TYPES = new Set(['LoadTimeLimit1', 'LoadTimeLimit2']);

function describeCondition(condition: MigrationErrorCondition): string {
  const parts = [condition.ErrorConditionType];
  if (condition.Value !== undefined) parts.push(`Value "${condition.Value}"${MILLISECOND_TYPES.has(condition.ErrorConditionType) ? ' (milliseconds, as before)' : ''}`);
  if (condition.Percentage !== undefined) parts.push(`Percentage "${condition.Percentage}"`);
  if (condition.Effect !== undefined) parts.push(`Effect ${condition.Effect}`);
  return parts.join(' ');
}

function describeRename(rename: MigrationRename, dryRun: boolean): string {
  const where = `${rename.file}:${rename.line}:${rename.column}: ${kindEntry(rename.kind)?.title.one ?? rename.kind} "${rename.object}"`;
  const verb = dryRun ? 'would rename' : 'renamed';
  if (rename.what === 'value') return `${where}: ${verb} ${rename.field} value ${rename.from} -> ${rename.to} (the service's spelling)`;
  const unit = rename.converted === undefined ? '' : ` (${rename.converted.from} -> ${rename.converted.to}, converted to the new unit)`;
  return `${where}: ${verb} ${rename.from} -> ${rename.to}${unit} (the service's name)`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Human-readable lines for the CLI: one per changed monitor, one per problem, then a summary. */
export function formatMigrationReport(result: MigrationResult, options: Pick<MigrateOptions, 'check' | 'write'> = {}): string {
  const dryRun = options.check === true || options.write === false;
  const lines: string[] = [];
  for (const rename of result.renames) lines.push(describeRename(rename, dryRun));
  for (const change of result.changes) {
    const where = `${change.file}:${change.line}:${change.column}: monitor "${change.monitor}"`;
    lines.push(
      change.added.length > 0
        ? `${where}: ${dryRun ? 'would move' : 'moved'} ${change.removed.join(', ')} -> ErrorConditions: ${change.added.map(describeCondition).join('; ')}`
        : `${where}: ${dryRun ? 'would drop' : 'dropped'} ${change.removed.join(', ')} (nothing to add to ErrorConditions)`,
    );
  }
  for (const problem of result.problems) {
    lines.push(`${problem.file}:${problem.line}:${problem.column}: ${problem.severity} ${problem.code}: ${problem.message}`);
  }
  const errors = result.problems.filter((problem) => problem.severity === 'error').length;
  const monitors = plural(result.changes.length, MONITOR_KIND.title.one);
  const files = plural(result.filesChanged.length, 'file');
  const renames = plural(result.renames.length, 'spelling');
  const what = [result.changes.length > 0 ? monitors : undefined, result.renames.length > 0 ? renames : undefined].filter((part) => part !== undefined).join(' and ');
  const summary =
    result.changes.length === 0 && result.renames.length === 0
      ? 'No monitor uses the removed fields, and no field or value the spec spells differently from the service.'
      : dryRun
        ? `${what} in ${files} would be migrated; run \`monsync migrate\` to rewrite them.`
        : `${what} in ${files} migrated.`;
  lines.push(errors > 0 ? `${summary} ${plural(errors, 'error')} to fix by hand (see above).` : summary);
  return `${lines.join('\n')}\n`;
}
