/** `ignore` patterns (`kind:glob`): matching objects are never touched and never reported. */
import { KINDS } from '../kinds/index.js';
import type { StepKind } from './types.js';

export interface UnmatchedPattern {
  /** The pattern as written in `monsync.yaml`. */
  pattern: string;
  kind: StepKind;
  /** A key the glob matches when case is ignored, to point at the likely typo. */
  caseOnly?: string;
}

export interface IgnoreMatcher {
  matches(kind: StepKind, key: string): boolean;
  /** Whether some pattern names the kind: without one, `matches` is false for every key of it. */
  names(kind: StepKind): boolean;
  /** Patterns whose kind names no kind, for a warning. */
  unknown: string[];
  /** Patterns of the given kinds that matched no key passed to `matches`, in the order written. */
  unmatched(kinds: readonly StepKind[]): UnmatchedPattern[];
}

/** Every kind by its name in lower case: patterns name kinds case-insensitively. */
const KIND_NAMES = new Map<string, StepKind>(KINDS.map((mod) => [mod.kind.toLowerCase(), mod.kind]));

export function globToRegExp(glob: string, flags = ''): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, `su${flags}`);
}

interface Rule {
  raw: string;
  kind: StepKind;
  pattern: RegExp;
  loose: RegExp;
  hit: boolean;
  caseOnly?: string;
}

/**
 * Kind names are matched case-insensitively and with or without dashes (`monitor-group` = `monitorGroup`).
 * Spaces around the kind and the glob are dropped (`monitor: legacy-*` is `monitor:legacy-*`); the glob itself is
 * case-sensitive, as keys are, so a pattern that matches nothing is reported rather than silently planned past.
 */
export function ignoreMatcher(patterns: readonly string[]): IgnoreMatcher {
  const rules: Rule[] = [];
  const byKind = new Map<StepKind, Rule[]>();
  const unknown: string[] = [];
  for (const raw of patterns) {
    const colon = raw.indexOf(':');
    const kindName = (colon < 0 ? '' : raw.slice(0, colon)).trim().replace(/-/g, '').toLowerCase();
    const kind = KIND_NAMES.get(kindName);
    if (kind === undefined) {
      unknown.push(raw);
      continue;
    }
    const glob = raw.slice(colon + 1).trim();
    const rule: Rule = { raw, kind, pattern: globToRegExp(glob), loose: globToRegExp(glob, 'i'), hit: false };
    rules.push(rule);
    byKind.set(kind, [...(byKind.get(kind) ?? []), rule]);
  }
  return {
    unknown,
    names(kind) {
      return byKind.has(kind);
    },
    matches(kind, key) {
      const kindRules = byKind.get(kind);
      // Asked for every entry of every kind: most kinds have no pattern at all.
      if (kindRules === undefined) return false;
      let matched = false;
      // Every rule is tried, not just the first that matches: each one's use is reported.
      for (const rule of kindRules) {
        if (rule.pattern.test(key)) {
          rule.hit = true;
          matched = true;
        } else if (!rule.hit && rule.caseOnly === undefined && rule.loose.test(key)) {
          rule.caseOnly = key;
        }
      }
      return matched;
    },
    unmatched(kinds) {
      return rules
        .filter((rule) => !rule.hit && kinds.includes(rule.kind))
        .map((rule) => ({ pattern: rule.raw, kind: rule.kind, ...(rule.caseOnly === undefined ? {} : { caseOnly: rule.caseOnly }) }));
    },
  };
}
