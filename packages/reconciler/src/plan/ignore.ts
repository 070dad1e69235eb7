/** `ignore` patterns (`kind:glob`): matching objects are never touched and never reported. */
import type { StepKind } from './types.js';

export interface IgnoreMatcher {
  matches(kind: StepKind, key: string): boolean;
  /** Patterns whose kind names no kind, for a warning. */
  unknown: string[];
}

const KIND_NAMES: Record<string, StepKind> = {};
for (const kind of ['monitor', 'monitorGroup', 'groupMembership', 'vaultSection', 'vaultItem', 'sla', 'slaExclusionPeriod', 'scheduledReport', 'alertDefinition'] as const) {
  KIND_NAMES[kind.toLowerCase()] = kind;
}

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}

/** Kind names are matched case-insensitively and with or without dashes (`monitor-group` = `monitorGroup`). */
export function ignoreMatcher(patterns: readonly string[]): IgnoreMatcher {
  const rules: { kind: StepKind; pattern: RegExp }[] = [];
  const unknown: string[] = [];
  for (const raw of patterns) {
    const colon = raw.indexOf(':');
    const kindName = (colon < 0 ? '' : raw.slice(0, colon)).replace(/-/g, '').toLowerCase();
    const kind = KIND_NAMES[kindName];
    if (kind === undefined) {
      unknown.push(raw);
      continue;
    }
    rules.push({ kind, pattern: globToRegExp(raw.slice(colon + 1)) });
  }
  return {
    unknown,
    matches(kind, key) {
      return rules.some((rule) => rule.kind === kind && rule.pattern.test(key));
    },
  };
}
