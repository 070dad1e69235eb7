import { mkdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { Document, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type YAMLMap, type YAMLSeq } from 'yaml';
import { analyzeMonitor, keyName, locate, monitorName, startOf, type MonitorPlan, type SourceContext } from './analyze-monitor.js';
import { writeFileAtomic } from './atomic-write.js';
import { findJsonError } from './json-error.js';
import { MigrationError } from './errors.js';
import { READ_ONLY_MONITOR_FIELDS } from './legacy-fields.js';
import { fieldWords, isSecretFieldName, secretEnvName } from '../secret-fields.js';
import { PARSE_OPTIONS } from './rewrite-yaml.js';
import type { MigrationChange, MigrationProblem } from './types.js';
import { listFiles } from './walk.js';

export interface ImportLegacyJsonOptions {
  /** The YAML file to write (must end in `.yaml`, the loader reads nothing else). Without it nothing is written. */
  out?: string;
  /** Overwrite `out` when it exists (by default an existing file is never replaced). */
  force?: boolean;
}

export interface ImportLegacyJsonResult {
  /** The config file text: a `monitors:` list. */
  yaml: string;
  /** How many monitors it holds. */
  monitors: number;
  changes: MigrationChange[];
  problems: MigrationProblem[];
  /** The file written, when `out` was given and there was something to write. */
  written: string | undefined;
  /**
   * Secrets found in the export, each written as a `{ fromEnv: env }` placeholder instead of its value (the
   * value appears nowhere in the result). Set these variables before planning.
   */
  secrets: ImportedSecret[];
}

/** A secret of the export replaced by a placeholder: names only, never the value. */
export interface ImportedSecret {
  /** The environment variable the imported config reads it from. */
  env: string;
  /** The monitor's `Name` (or `monitors[<index>]`). */
  monitor: string;
  /** Where in the monitor: `Password`, `PredefinedVariables[token].Value`, `Auth.BearerToken`. */
  field: string;
  /** `export.json: monitor "Shop" Password`, for listing. */
  where: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

interface Found {
  node: YAMLMap;
  value: { [key: string]: Json };
  ctx: SourceContext;
}

/** The monitors of one export: a single monitor, an array of them, or a `{ Data: [...] }` list response. */
function monitorsOf(text: string, file: string, shown: string, problems: MigrationProblem[]): Found[] {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lineCounter = new LineCounter();
  const ctx: SourceContext = { file, shown, lineCounter };
  let value: Json;
  try {
    value = JSON.parse(source) as Json;
  } catch {
    const fault = findJsonError(source);
    lineCounter.addNewLine(0);
    for (let at = source.indexOf('\n'); at !== -1; at = source.indexOf('\n', at + 1)) lineCounter.addNewLine(at + 1);
    problems.push({
      severity: 'error',
      code: 'MIGRATE_JSON_ERROR',
      message: `not valid JSON: unexpected ${fault.found}; export the monitors again or fix the file`,
      ...locate(ctx, fault.offset),
    });
    return [];
  }
  // JSON is YAML: parsing it again as a document gives every node its line and column.
  const doc = parseDocument(source, { ...PARSE_OPTIONS, lineCounter });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    problems.push({
      severity: 'error',
      code: 'MIGRATE_JSON_ERROR',
      message: `${error?.message.split('\n')[0] ?? 'unreadable'}; fix the file`,
      ...locate(ctx, error?.pos[0] ?? 0),
    });
    return [];
  }
  let nodes: YAMLSeq | undefined;
  let values: Json[] = [];
  const root = doc.contents;
  if (Array.isArray(value) && isSeq(root)) {
    nodes = root;
    values = value;
  } else if (isObject(value) && Array.isArray(value.Data) && isMap(root)) {
    const data: unknown = root.get('Data', true);
    if (isSeq(data)) nodes = data;
    values = value.Data;
  } else if (isObject(value) && isMap(root)) {
    return [{ node: root, value, ctx }];
  }
  if (!nodes || !isSeq(nodes)) {
    problems.push({
      severity: 'error',
      code: 'MIGRATE_JSON_SHAPE',
      message: 'expected a monitor object, an array of monitors, or a list response { "Data": [...] }',
      ...locate(ctx, 0),
    });
    return [];
  }
  const found: Found[] = [];
  nodes.items.forEach((node, index) => {
    const item = values[index];
    if (isMap(node) && isObject(item)) {
      found.push({ node, value: item, ctx });
      return;
    }
    problems.push({
      severity: 'error',
      code: 'MIGRATE_JSON_SHAPE',
      message: `item ${index} is not a monitor object; it was skipped`,
      ...locate(ctx, startOf(node)),
    });
  });
  return found;
}

/** The monitor as a config entry: read-only fields out, removed fields turned into ErrorConditions per `plan`. */
function configEntry(found: Found, plan: MonitorPlan | undefined): Map<string, Json> {
  const entry = new Map<string, Json>();
  const conditions = (plan?.entries ?? []).map((planned) => planned.condition as unknown as Json);
  const removed = new Set((plan?.removedPairs ?? []).map((pair) => keyName(pair)));
  const first = plan?.removedPairs[0];
  const anchor = plan && !plan.existing && conditions.length > 0 && first ? keyName(first) : undefined;
  for (const [key, value] of Object.entries(found.value)) {
    if (READ_ONLY_MONITOR_FIELDS.includes(key)) continue;
    if (key === anchor) {
      entry.set('ErrorConditions', conditions);
      continue;
    }
    if (removed.has(key)) continue;
    if (key === 'ErrorConditions' && plan?.existing) {
      entry.set(key, [...(Array.isArray(value) ? value : []), ...conditions]);
      continue;
    }
    entry.set(key, value);
  }
  return entry;
}

const VAULT_VALUE = /^\{\{vault:[^}]+\}\}$/;

type Placeholder = (field: string, ...parts: string[]) => Json;

/**
 * Every value under a secret-named field (`Password`, `BearerToken`, ... at any depth) becomes a placeholder;
 * an empty one is left out (the service returns write-only fields empty, and an omitted field is not planned).
 */
function scrub(value: Json, field: string, words: string[], inSecret: boolean, placeholder: Placeholder): Json | undefined {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => {
      const kept = scrub(item, `${field}[${index}]`, [...words, String(index)], inSecret, placeholder);
      return kept === undefined ? [] : [kept];
    });
  }
  if (isObject(value)) {
    const out: { [key: string]: Json } = {};
    for (const [key, child] of Object.entries(value)) {
      const kept = scrub(child, field === '' ? key : `${field}.${key}`, [...words, fieldWords(key)], inSecret || isSecretFieldName(key), placeholder);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  if (!inSecret) return value;
  if (value === null || value === '') return undefined;
  return placeholder(field, ...words);
}

/**
 * Variables: `Sensitive` is obsolete and must not be sent (spec, Monitor), so it is dropped; the value of a
 * variable that was marked sensitive becomes a placeholder, unless it is a vault reference (no secret in it).
 */
function scrubVariables(value: Json, placeholder: Placeholder): Json {
  if (!Array.isArray(value)) return value;
  return value.map((variable, index) => {
    if (!isObject(variable)) return variable;
    const key = typeof variable.Key === 'string' && variable.Key !== '' ? variable.Key : String(index);
    const out: { [key: string]: Json } = {};
    for (const [name, child] of Object.entries(variable)) {
      if (name === 'Sensitive') continue;
      const field = `PredefinedVariables[${key}].${name}`;
      const sensitiveValue = name === 'Value' && variable.Sensitive === true && !(typeof child === 'string' && VAULT_VALUE.test(child));
      const kept = sensitiveValue
        ? placeholder(field, 'VARIABLE', key)
        : scrub(child, field, ['VARIABLE', key, fieldWords(name)], isSecretFieldName(name), placeholder);
      if (kept !== undefined) out[name] = kept;
    }
    return out;
  });
}

/** The entry with every secret of the export replaced by a `{ fromEnv }` placeholder. */
function scrubSecrets(entry: Map<string, Json>, placeholder: Placeholder): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [key, value] of entry) {
    const kept = key === 'PredefinedVariables' ? scrubVariables(value, placeholder) : scrub(value, key, [fieldWords(key)], isSecretFieldName(key), placeholder);
    if (kept !== undefined) out.set(key, kept);
  }
  return out;
}

/** How a file of the export is named in messages: relative to the folder given, or its base name. */
function displayName(input: string, isDirectory: boolean, file: string): string {
  return isDirectory ? relative(input, file).split(sep).join('/') : basename(file);
}

/**
 * Converts monitors exported as JSON from the API before the field removal (a `.json` file, or a folder of them)
 * into one config file: a `monitors:` list in the config format, with the removed fields rewritten to
 * `ErrorConditions` exactly as `migrateConfig` does. `MonitorGuid` is kept, so each entry adopts its live monitor
 * on the first apply; `CreatedDate`, `LastModifiedDate` and `LastModifiedByOperatorId` are dropped (the service
 * sets them). A monitor with doubtful removed fields keeps them and is reported, like in `migrateConfig`.
 */
export async function importLegacyJson(input: string, options: ImportLegacyJsonOptions = {}): Promise<ImportLegacyJsonResult> {
  const stats = await stat(input).catch(() => undefined);
  if (!stats) throw new MigrationError('MIGRATE_INPUT_NOT_FOUND', `${input}: no such file or folder; give a .json export or a folder of them`);
  if (options.out !== undefined) {
    if (!options.out.endsWith('.yaml')) {
      throw new MigrationError('MIGRATE_OUT_NOT_YAML', `${options.out}: the output must end in .yaml (config trees hold only *.yaml files)`);
    }
    if (options.force !== true && (await stat(options.out).catch(() => undefined))) {
      throw new MigrationError('MIGRATE_OUT_EXISTS', `${options.out} exists; choose another file name, or allow overwriting it (force)`);
    }
  }
  const files = stats.isDirectory() ? (await listFiles(input, '.json')).map((relative) => join(input, relative)) : [input];

  const problems: MigrationProblem[] = [];
  const changes: MigrationChange[] = [];
  const entries: Array<Map<string, Json>> = [];
  const secrets: ImportedSecret[] = [];
  const usedEnv = new Set<string>();
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    const shownFile = displayName(input, stats.isDirectory(), file);
    monitorsOf(source, file, shownFile, problems).forEach((found, index) => {
      const analysis = analyzeMonitor(found.node, index, found.ctx);
      if (analysis.kind === 'blocked') problems.push(...analysis.problems);
      const plan = analysis.kind === 'plan' ? analysis.plan : undefined;
      if (plan) {
        problems.push(...plan.notes);
        changes.push({
          ...plan.location,
          monitor: monitorName(found.node, index),
          removed: plan.removedPairs.map((pair) => keyName(pair) ?? ''),
          added: plan.entries.map((entry) => entry.condition),
        });
      }
      const monitor = monitorName(found.node, index);
      const placeholder: Placeholder = (field, ...parts) => {
        const base = secretEnvName(monitor, ...parts);
        let env = base;
        for (let n = 2; usedEnv.has(env); n++) env = `${base}_${n}`;
        usedEnv.add(env);
        secrets.push({ env, monitor, field, where: `${shownFile}: monitor "${monitor}" ${field}` });
        return { fromEnv: env };
      };
      entries.push(scrubSecrets(configEntry(found, plan), placeholder));
    });
  }
  if (entries.length === 0) {
    problems.push({
      severity: 'error',
      code: 'MIGRATE_JSON_NO_MONITORS',
      message: `no monitor found in ${basename(input)}; nothing was written`,
      file: input,
      line: 1,
      column: 1,
    });
  }

  const doc = new Document();
  doc.contents = doc.createNode({ monitors: entries }) as Document['contents'];
  const monitors: unknown = (doc.contents as YAMLMap).get('monitors', true);
  for (const monitor of isSeq(monitors) ? monitors.items : []) {
    const conditions = isMap(monitor) ? monitor.get('ErrorConditions', true) : undefined;
    if (isSeq(conditions)) for (const condition of conditions.items) if (isMap(condition)) condition.flow = true;
  }
  // `Password: { fromEnv: NAME }`, the style of the config examples.
  visit(doc, {
    Map(_key, map) {
      const only = map.items.length === 1 ? map.items[0] : undefined;
      if (only !== undefined && isScalar(only.key) && only.key.value === 'fromEnv') map.flow = true;
    },
  });
  doc.commentBefore =
    ` Monitors imported by monsync from ${basename(input)} (an API export made before the field removal).\n` +
    ' The removed monitor fields were rewritten to ErrorConditions; MonitorGuid pins each entry to its live monitor.' +
    (secrets.length > 0 ? '\n Secrets are { fromEnv: ... } placeholders: set those variables before planning.' : '');
  const yaml = doc.toString({ lineWidth: 0 });

  let written: string | undefined;
  // An import with an error is not written at all: a half-converted file in the tree would be planned as it is.
  if (options.out !== undefined && entries.length > 0 && !problems.some((problem) => problem.severity === 'error')) {
    await mkdir(dirname(options.out), { recursive: true });
    await writeFileAtomic(options.out, yaml);
    written = options.out;
  }
  return { yaml, monitors: entries.length, changes, problems, written, secrets };
}
