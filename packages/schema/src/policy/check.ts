/**
 * Runs the rules of `policy:` (rules.ts) over the declared objects, with their waivers: findings become diagnostics
 * (`file:line:col`, the rule, how to fix it) and the plan's `policy` entries. Waivers are checked here too: one for
 * no known rule, without a reason, or past its date is itself an error. The clock is a parameter (`today`).
 */
import { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from '../diagnostics.js';
import { kindEntry } from '../kinds.js';
import type { PolicyFinding } from '../plan-schema.js';
import { likelyMeant } from '../suggest.js';
import type { PolicyRuleEntry } from '../types.js';
import { POLICY_RULES, policyRule, ruleAppliesTo, type AccountMonitor, type ObjectRule, type PolicyObject } from './rules.js';

export interface Position {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

export interface DeclaredWaiver {
  rule: unknown;
  reason: unknown;
  until: unknown;
  position(field?: 'rule' | 'reason' | 'until'): Position;
}

/** A declared object, its waivers, and where its fields are. */
export interface PolicySubject {
  object: PolicyObject;
  waivers: readonly DeclaredWaiver[];
  /** Where a field is (its value), or the object's key field when `field` is absent. */
  position(field?: string): Position;
}

/** A valid waiver of a rule checked by plan (`scope: 'plan'`): the plan reads it, the loader cannot tell if it is used. */
export interface PlanWaiver {
  rule: string;
  kind: string;
  key: string;
  file: string;
  line: number;
  column: number;
}

export interface PolicyResult {
  diagnostics: Diagnostic[];
  findings: PolicyFinding[];
  planWaivers: PlanWaiver[];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDay(text: string): boolean {
  const m = DAY.exec(text);
  if (m === null) return false;
  const [year, month, day] = m.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYY-MM-DD` of an instant, in UTC (waivers end at the end of their day, UTC). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function diagnostic(code: DiagnosticCode, message: string, at: Position, hint?: string, rule?: string): Diagnostic {
  return { severity: DIAGNOSTIC_CODES[code].severity, code, message, ...at, ...(hint === undefined ? {} : { hint }), ...(rule === undefined ? {} : { rule }) };
}

const waiverExample = (rule: string) => `policyWaivers: [{ rule: ${rule}, reason: "why", until: YYYY-MM-DD }]`;

/** The waivers of one object that may silence a rule, by rule name; the faulty ones reported. */
function validWaivers(subject: PolicySubject, today: string, out: Diagnostic[]): Map<string, DeclaredWaiver> {
  const valid = new Map<string, DeclaredWaiver>();
  const { kind } = subject.object;
  const title = kindEntry(kind)?.title.many ?? kind;
  for (const waiver of subject.waivers) {
    if (typeof waiver.rule !== 'string') continue; // the schema reports its type
    const rule = policyRule(waiver.rule);
    if (rule === undefined) {
      const meant = likelyMeant(waiver.rule, POLICY_RULES.map((r) => r.name));
      out.push(diagnostic('INVALID_WAIVER', `the waiver names no policy rule \`${waiver.rule}\`${meant === undefined ? '' : `; did you mean \`${meant}\`?`}`, waiver.position('rule'), `rules: ${POLICY_RULES.map((r) => r.name).join(', ')}`));
      continue;
    }
    if (rule.scope === 'account') {
      out.push(diagnostic('INVALID_WAIVER', `\`${rule.name}\` is about the whole account, so no object can be excused from it`, waiver.position('rule'), `change the rule's percent in monsync.yaml instead, and remove this waiver`));
      continue;
    }
    if (!ruleAppliesTo(rule, kind)) {
      out.push(diagnostic('INVALID_WAIVER', `\`${rule.name}\` does not check ${title}, so this waiver would silence nothing`, waiver.position('rule'), 'remove the waiver'));
      continue;
    }
    if (typeof waiver.reason === 'string' && waiver.reason.trim() === '') {
      out.push(diagnostic('INVALID_WAIVER', `the waiver of \`${rule.name}\` has a blank reason`, waiver.position('reason'), 'say why the object may break the rule: reviewers read it'));
      continue;
    }
    if (typeof waiver.reason !== 'string') continue; // missing: the schema reports it
    if (typeof waiver.until === 'string' && DAY.test(waiver.until)) {
      if (!isRealDay(waiver.until)) {
        out.push(diagnostic('INVALID_WAIVER', `\`until\` ${waiver.until} is not a real day`, waiver.position('until'), 'write the last day the waiver holds, YYYY-MM-DD'));
        continue;
      }
      if (waiver.until < today) {
        out.push(
          diagnostic('WAIVER_EXPIRED', `the waiver of \`${rule.name}\` ended on ${waiver.until} (today is ${today} UTC)`, waiver.position('until'), 'fix the object so it keeps the rule and remove the waiver, or extend `until` in a reviewed change'),
        );
        continue;
      }
    } else if (waiver.until !== undefined) continue; // the schema reports its form
    valid.set(rule.name, waiver);
  }
  return valid;
}

function findingOf(entry: PolicyRuleEntry, rule: ObjectRule, object: PolicyObject, message: string, at: Position): PolicyFinding {
  return { rule: rule.name, severity: entry.severity, message, fix: rule.fix, kind: object.kind, key: object.key, file: at.file, line: at.line, column: at.column };
}

/** Every object rule of `entries` over every subject; waivers silence one rule for one object. */
export function checkPolicy(subjects: readonly PolicySubject[], entries: readonly PolicyRuleEntry[], today: string): PolicyResult {
  const diagnostics: Diagnostic[] = [];
  const findings: PolicyFinding[] = [];
  const planWaivers: PlanWaiver[] = [];
  const configured = new Set(entries.map((entry) => entry.rule));
  for (const subject of subjects) {
    const { object } = subject;
    const waivers = validWaivers(subject, today, diagnostics);
    const used = new Set<string>();
    for (const [name, waiver] of waivers) {
      if (policyRule(name)?.scope !== 'plan' || !configured.has(name)) continue;
      // Only the plan sees whether the object keeps the rule: it is handed the waiver and says when it silences nothing.
      used.add(name);
      const at = waiver.position('rule');
      planWaivers.push({ rule: name, kind: object.kind, key: object.key, file: at.file, line: at.line, column: at.column });
    }
    for (const entry of entries) {
      const rule = policyRule(entry.rule);
      if (rule === undefined || rule.scope !== 'object' || !ruleAppliesTo(rule, object.kind)) continue;
      for (const found of rule.check(object, entry.params as never)) {
        if (waivers.has(rule.name)) {
          used.add(rule.name);
          continue;
        }
        const at = subject.position(found.field);
        const title = kindEntry(object.kind)?.title.one ?? object.kind;
        const message = `${title} \`${object.key}\` ${found.message}`;
        diagnostics.push(diagnostic(entry.severity === 'error' ? 'POLICY_ERROR' : 'POLICY_WARNING', `${rule.name}: ${message}`, at, `${rule.fix}; or excuse this ${title}: ${waiverExample(rule.name)}`, rule.name));
        findings.push(findingOf(entry, rule, object, message, at));
      }
    }
    for (const [name, waiver] of waivers) {
      if (used.has(name)) continue;
      const why = configured.has(name) ? 'the object keeps the rule' : `\`${name}\` is not in policy: of monsync.yaml`;
      diagnostics.push(diagnostic('UNUSED_WAIVER', `the waiver of \`${name}\` silences nothing: ${why}`, waiver.position('rule'), 'remove the waiver'));
    }
  }
  return { diagnostics, findings, planWaivers };
}

/** The rules about the whole account, over the monitors it would hold after the plan; positioned at the rule. */
export function checkAccountPolicy(entries: readonly PolicyRuleEntry[], monitors: readonly AccountMonitor[]): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  for (const entry of entries) {
    const rule = policyRule(entry.rule);
    if (rule === undefined || rule.scope !== 'account') continue;
    for (const found of rule.check(monitors, entry.params as never)) {
      findings.push({ rule: rule.name, severity: entry.severity, message: found.message, fix: rule.fix, file: entry.source.file, line: entry.source.line, column: entry.source.column });
    }
  }
  return findings;
}
