/**
 * The guardrails of a config tree as the loader reads them: `protect:` patterns and `policy:` rules from
 * monsync.yaml, `protect: true` and `policyWaivers` from declarations; then the policy run over the declarations.
 */
import type { TObject } from '@sinclair/typebox';
import { MONITOR_TYPES } from '@monsync/client/wire';
import { DIAGNOSTIC_CODES, type Diagnostic } from '../diagnostics.js';
import { IGNORE_PATTERN } from '../config-schema.js';
import { MONITOR_GROUP_KIND, MONITOR_KIND, type KindEntry, type KindName, type NamedKindEntry } from '../kinds.js';
import type { PolicyFinding } from '../plan-schema.js';
import type { Declared, PolicyRuleEntry, Protection, Settings } from '../types.js';
import type { PathSegment, YamlSource } from '../yaml-source.js';
import { checkPolicy, type DeclaredWaiver, type PlanWaiver, type PolicySubject, type Position } from './check.js';
import { NOTHING_ALLOWED, type AllowUnknown } from '../published-fields.js';
import { likelyMeant } from '../suggest.js';
import { POLICY_RULES, sameEnumValue, type PolicySeverity } from './rules.js';

type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What the loader keeps of a declaration's guardrails. */
export interface Guarded {
  protect: boolean;
  /** `policyWaivers` as written. */
  waivers: unknown[];
}

/** A declaration as the loader keeps it: where it is, its key as written, its parent's key. */
interface GuardedDeclaration extends Guarded {
  src: YamlSource;
  path: PathSegment[];
  key: unknown;
  parentKey: string;
  declared: Declared<Mapping>;
}

/**
 * Only entries whose parameters have the types their rule's schema says reach the rule's function (the schema
 * reports the others, with their positions).
 */
function wellFormed(schema: TObject, value: Mapping): boolean {
  const required: readonly string[] = schema.required ?? [];
  for (const [key, prop] of Object.entries(schema.properties)) {
    const v = value[key];
    if (v === undefined) {
      if (required.includes(key)) return false;
      continue;
    }
    const type = (prop as { type?: unknown }).type;
    if (type === 'array' && !Array.isArray(v)) return false;
    if ((type === 'integer' || type === 'number') && typeof v !== 'number') return false;
    if (type === 'string' && typeof v !== 'string') return false;
  }
  return true;
}

export class PolicyReader {
  readonly #patterns: Protection[] = [];

  /**
   * `protect:` and `policy:` of monsync.yaml, into `settings`; problems with rule parameters as diagnostics. `allow`:
   * what monsync.yaml's `allowUnknown` lets through (a MonitorType the service added after this release).
   */
  readSettings(src: YamlSource, value: Mapping, settings: Settings, allow: AllowUnknown = NOTHING_ALLOWED): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    const pattern = new RegExp(IGNORE_PATTERN, 'su');
    if (Array.isArray(value.protect)) {
      const written = value.protect.filter((p): p is string => typeof p === 'string');
      settings.protect = written;
      value.protect.forEach((raw, i) => {
        if (typeof raw !== 'string' || !pattern.test(raw)) return; // the schema reports it
        const colon = raw.indexOf(':');
        const { line, column } = src.position(['protect', i]);
        this.#patterns.push({ kind: raw.slice(0, colon) as KindName, rule: raw, glob: raw.slice(colon + 1).trim(), source: { file: src.file, line, column } });
      });
    }
    if (!isMapping(value.policy)) return diagnostics;
    const entries: PolicyRuleEntry[] = [];
    for (const rule of POLICY_RULES) {
      const raw = value.policy[rule.name];
      const list: [unknown, PathSegment[]][] = rule.multiple
        ? (Array.isArray(raw) ? raw : []).map((item, i) => [item, ['policy', rule.name, i]])
        : raw === undefined
          ? []
          : [[raw === null ? {} : raw, ['policy', rule.name]]];
      for (const [item, path] of list) {
        if (!isMapping(item)) continue;
        if (!wellFormed(rule.parameters, item)) {
          // The schema lets `rule:` stand empty; a rule that needs parameters says which.
          if (raw === null) diagnostics.push(policyProblem(src, path, `${rule.name} needs ${(rule.parameters.required ?? []).map((p) => `\`${p}\``).join(' and ')}`, rule.name));
          continue;
        }
        const unknownType = unknownMonitorType(src, path, item, allow);
        if (unknownType !== undefined) {
          diagnostics.push({ ...unknownType, rule: rule.name });
          continue;
        }
        const problem = parameterProblem(rule.name, item);
        if (problem !== undefined) {
          diagnostics.push(policyProblem(src, [...path, problem.field], problem.message, rule.name));
          continue;
        }
        const severity: PolicySeverity = item.severity === 'warning' ? 'warning' : 'error';
        const { line, column } = src.position(path, 'key');
        entries.push({ rule: rule.name, severity, params: item, source: { file: src.file, line, column } });
      }
    }
    settings.policy = entries;
    return diagnostics;
  }

  /** The protections of the tree and the policy's findings on its declarations. */
  finish(
    kinds: readonly (readonly [NamedKindEntry, readonly GuardedDeclaration[]])[],
    settings: Settings,
    today: string,
  ): { protection: Protection[]; findings: PolicyFinding[]; diagnostics: Diagnostic[]; planWaivers: PlanWaiver[] } {
    const protection: Protection[] = [...this.#patterns];
    const subjects: PolicySubject[] = [];
    const groupsOf = monitorGroups(kinds);
    for (const [entry, declarations] of kinds) {
      if (entry.keyField === undefined) continue;
      for (const d of declarations) {
        if (typeof d.key !== 'string') continue;
        const key = entry.parent === undefined ? d.key : `${d.parentKey}/${d.key}`;
        if (d.protect) {
          const { line, column } = d.src.position([...d.path, 'protect'], 'key');
          protection.push({ kind: entry.kind, rule: 'protect: true', key, source: { file: d.src.file, line, column } });
        }
        subjects.push(subject(entry, d, key, groupsOf));
      }
    }
    const { diagnostics, findings, planWaivers } = checkPolicy(subjects, settings.policy ?? [], today);
    return { protection, findings, diagnostics, planWaivers };
  }
}

function policyProblem(src: YamlSource, path: PathSegment[], message: string, rule: string): Diagnostic {
  return { severity: DIAGNOSTIC_CODES.INVALID_POLICY.severity, code: 'INVALID_POLICY', message, file: src.file, ...src.position(path), rule };
}

/**
 * A rule's `monitorType` is a closed list: a value no published MonitorType equals, ignoring case as the service
 * compares them (and none `allowUnknown.values.MonitorType` lets through), selects no monitor, so the rule would
 * check nothing without a word. It is an error naming the closest value. The schema keeps the list open, offering the
 * values, since `https` is as good as `Https` here and an editor would flag it.
 */
function unknownMonitorType(src: YamlSource, path: PathSegment[], item: Mapping, allow: AllowUnknown): Diagnostic | undefined {
  const value = item.monitorType;
  if (typeof value !== 'string') return undefined;
  const known = [...MONITOR_TYPES, ...(allow.values.MonitorType ?? [])];
  if (known.some((type) => sameEnumValue(value, type))) return undefined;
  const meant = likelyMeant(value, MONITOR_TYPES);
  const message = `\`monitorType: ${value}\` is no MonitorType the service publishes, so this rule would select no monitor; ${meant === undefined ? `write one of ${MONITOR_TYPES.join(', ')}` : `did you mean \`${meant}\`?`}`;
  const hint = `${meant === undefined ? 'use one of the values listed' : `write \`${meant}\``}; if the service added \`${value}\` after this release of monsync, let it through in monsync.yaml: allowUnknown: { values: { MonitorType: [${value}] } }`;
  return { severity: DIAGNOSTIC_CODES.INVALID_ENUM.severity, code: 'INVALID_ENUM', message, file: src.file, ...src.position([...path, 'monitorType']), hint };
}

/** Checks a rule's parameters cannot express in the schema. */
function parameterProblem(rule: string, item: Mapping): { field: string; message: string } | undefined {
  if (rule === 'namePattern' && typeof item.pattern === 'string') {
    try {
      new RegExp(item.pattern, 'u');
    } catch (error) {
      return { field: 'pattern', message: `namePattern: \`${item.pattern}\` is not a valid regular expression (${(error as Error).message})` };
    }
  }
  if (rule === 'checkInterval') {
    if (item.min === undefined && item.max === undefined) return { field: 'min', message: 'checkInterval: give `min`, `max` or both; without them the rule checks nothing' };
    if (typeof item.min === 'number' && typeof item.max === 'number' && item.min > item.max) return { field: 'max', message: `checkInterval: max ${item.max} is below min ${item.min}, so no interval could pass` };
  }
  return undefined;
}

/** Monitor name -> the Descriptions of the declared groups whose members name it. */
function monitorGroups(kinds: readonly (readonly [KindEntry, readonly GuardedDeclaration[]])[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  const declared = kinds.find(([entry]) => entry === MONITOR_GROUP_KIND)?.[1] ?? [];
  for (const g of declared) {
    const members = g.declared.value.members;
    if (typeof g.key !== 'string' || !Array.isArray(members)) continue;
    for (const member of members) if (typeof member === 'string') groups.set(member, [...(groups.get(member) ?? []), g.key]);
  }
  return groups;
}

function subject(entry: NamedKindEntry, d: GuardedDeclaration, key: string, groupsOf: Map<string, string[]>): PolicySubject {
  const at = (path: PathSegment[]): Position => ({ file: d.src.file, ...d.src.position(path) });
  const waivers: DeclaredWaiver[] = d.waivers.filter(isMapping).map((w) => {
    const i = d.waivers.indexOf(w);
    return { rule: w.rule, reason: w.reason, until: w.until, position: (field) => at([...d.path, 'policyWaivers', i, ...(field === undefined ? [] : [field])]) };
  });
  return {
    object: { kind: entry.kind, key, name: d.key as string, fields: d.declared.value, ...(entry === MONITOR_KIND ? { groups: groupsOf.get(d.key as string) ?? [] } : {}) },
    waivers,
    position: (field) => at([...d.path, field ?? entry.keyField ?? '']),
  };
}
