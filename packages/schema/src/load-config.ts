import { lstatSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { checkExclusionPeriod, checkReportSchedule, checkSlaThresholds, type Finding } from './checks.js';
import { API_VERSION, MANAGED_KINDS, REMOVAL_STRATEGIES, type ManagedKind } from './config-schema.js';
import { DIAGNOSTIC_CODES, sortDiagnostics, type Diagnostic, type DiagnosticCode } from './diagnostics.js';
import { configJsonSchema } from './render-schemas.js';
import { PASS_THROUGH_PATTERN } from './schema-builder.js';
import { Secret, fromFilePathProblem, fromFileStaysInside, type SecretEncoding, type SourceRef } from './secret.js';
import { isSecretFieldName } from './secret-fields.js';
import { likelyMeant } from './suggest.js';
import type {
  AlertDefinitionConfig,
  Declared,
  DesiredState,
  ExclusionPeriodConfig,
  MonitorConfig,
  MonitorGroupConfig,
  RemovalStrategy,
  ScheduledReportConfig,
  Settings,
  SlaConfig,
  VaultItemConfig,
  VaultSectionConfig,
} from './types.js';
import { schemaDiagnostics } from './validate.js';
import { MAX_FILE_BYTES, YamlSource, type PathSegment } from './yaml-source.js';

export const SETTINGS_FILE = 'monsync.yaml';
/** `File` vault items: at most 2 MB (spec, Limits). */
export const MAX_VAULT_FILE_BYTES = 2 * 1024 * 1024;
export const DEFAULT_SAFETY = { maxDeletePercent: 30, maxUpdatePercent: 50 } as const;

export interface LoadOptions {
  /**
   * Values are needed (plan, apply): a secret whose variable is unset or whose file is unreadable is an error.
   * Otherwise (validate) it is a warning. No value is ever put in a diagnostic.
   */
  resolveSecrets?: boolean;
  /** Environment for `fromEnv` references; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface LoadResult {
  /** Best effort even when there are errors: do not act on it when `hasErrors(diagnostics)`. */
  desired: DesiredState;
  diagnostics: Diagnostic[];
  /** Files read, relative to the root, in the order read. */
  files: string[];
}

/** A file of the tree given as text (for editors and tests); `file` is relative to the root, with `/`. */
export interface ConfigText {
  file: string;
  text: string;
}

/**
 * Reads `monsync.yaml` and every `*.yaml` below `dir` (not hidden folders, not node_modules). Config trees are
 * small (5 MB per file at most), so the async form reads synchronously rather than keeping a second copy of the loop.
 */
export async function loadConfig(dir: string, options: LoadOptions = {}): Promise<LoadResult> {
  return loadConfigSync(dir, options);
}

/** Synchronous `loadConfig`. */
export function loadConfigSync(dir: string, options: LoadOptions = {}): LoadResult {
  const root = resolve(dir);
  const { files, diagnostics } = discover(root);
  const texts: ConfigText[] = [];
  for (const file of files) {
    const problem = outsideProblem(root, file) ?? sizeProblem(root, file);
    if (problem !== undefined) {
      diagnostics.push(problem);
      continue;
    }
    try {
      texts.push({ file, text: readFileSync(join(root, file), 'utf8') });
    } catch (error) {
      diagnostics.push(unreadable(file, error));
    }
  }
  return assemble(root, texts, options, diagnostics, files);
}

/** Loads a tree given as texts; `root` is where `fromFile` references are resolved from. */
export function loadConfigTexts(root: string, texts: readonly ConfigText[], options: LoadOptions = {}): LoadResult {
  const diagnostics: Diagnostic[] = [];
  const kept: ConfigText[] = [];
  for (const t of texts) {
    if (Buffer.byteLength(t.text, 'utf8') > MAX_FILE_BYTES) diagnostics.push(tooLarge(t.file));
    else kept.push(t);
  }
  if (!texts.some((t) => t.file === SETTINGS_FILE)) diagnostics.push(missingSettings());
  return assemble(resolve(root), kept, options, diagnostics, texts.map((t) => t.file));
}

function fileDiagnostic(code: DiagnosticCode, file: string, message: string, hint?: string): Diagnostic {
  const d: Diagnostic = { severity: DIAGNOSTIC_CODES[code].severity, code, message, file, line: 1, column: 1 };
  if (hint !== undefined) d.hint = hint;
  return d;
}

const tooLarge = (file: string) =>
  fileDiagnostic('FILE_TOO_LARGE', file, `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB and is not read`, 'split it into several files');
const missingSettings = () =>
  fileDiagnostic('MISSING_SETTINGS_FILE', SETTINGS_FILE, 'no monsync.yaml at the root of the config folder', 'create monsync.yaml with `apiVersion: monsync/v1` and a `manage:` mapping');

/**
 * A symlinked config file that leads outside the config tree is not read: its lines would be quoted in diagnostics,
 * so a link to, say, /proc/self/environ would print the CI job's credentials (the rule of `fromFile`, too).
 */
function outsideProblem(root: string, file: string): Diagnostic | undefined {
  const path = join(root, file);
  let real: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    real = realpathSync(path);
  } catch {
    return undefined; // a dangling link: reading it reports FILE_UNREADABLE
  }
  const realRoot = realpathSync(root);
  const inside = relative(realRoot, real);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return undefined;
  const d = fileDiagnostic(
    'CONFIG_FILE_OUTSIDE_TREE',
    file,
    'the file is a symbolic link that leads outside the config tree, so it is not read',
    'move the shared file into the config tree (a hidden folder such as .shared/ is not read on its own) and link to it there',
  );
  // Formatters read the file again for the snippet: they must not.
  d.redactSource = true;
  return d;
}

/** A diagnostic when the file is too large or cannot be stat-ed; nothing when it may be read. */
function sizeProblem(root: string, file: string): Diagnostic | undefined {
  try {
    return statSync(join(root, file)).size > MAX_FILE_BYTES ? tooLarge(file) : undefined;
  } catch (error) {
    return unreadable(file, error);
  }
}

function unreadable(file: string, error: unknown): Diagnostic {
  return fileDiagnostic('FILE_UNREADABLE', file, `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
}

/** Config files below `root`: `monsync.yaml` first, then the rest in code-point order of their relative paths. */
export function discoverConfigFiles(root: string): string[] {
  return discover(resolve(root)).files;
}

function discover(root: string): { files: string[]; diagnostics: Diagnostic[] } {
  const found: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      const what = prefix === '' ? `the config folder ${root}` : `the folder ${prefix}`;
      diagnostics.push(fileDiagnostic('CONFIG_DIR_UNREADABLE', prefix === '' ? '.' : prefix, `${what} cannot be read (${code})`, prefix === '' ? 'pass the folder that holds monsync.yaml' : undefined));
      return false;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), rel);
      // Symlinked files are read (shared snippets); symlinked folders are not followed (no loops).
      else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.yaml')) found.push(rel);
    }
    return true;
  };
  if (!walk(root, '')) return { files: [], diagnostics };
  const rest = found.filter((f) => f !== SETTINGS_FILE).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hasSettings = found.includes(SETTINGS_FILE);
  if (!hasSettings) diagnostics.push(missingSettings());
  return { files: hasSettings ? [SETTINGS_FILE, ...rest] : rest, diagnostics };
}

// ---------------------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Where a declaration lives, for positioning later findings on its fields. */
interface Located {
  src: YamlSource;
  path: PathSegment[];
}

interface Record_<T> extends Located {
  declared: Declared<T>;
  key: unknown;
}

const SETTINGS_KEYS = ['apiVersion', 'manage', 'ignore', 'safety'] as const;
const BINARY_VAULT_TYPES = new Set(['CertificateArchive', 'File']);

class Assembler {
  readonly diagnostics: Diagnostic[];
  readonly secrets: { secret: Secret; at: Located; vaultFile: boolean }[] = [];
  readonly monitors: Record_<MonitorConfig>[] = [];
  readonly groups: Record_<MonitorGroupConfig>[] = [];
  readonly sections: Record_<VaultSectionConfig>[] = [];
  readonly items: (Record_<VaultItemConfig> & { section: string })[] = [];
  readonly slas: Record_<SlaConfig>[] = [];
  readonly periods: (Record_<ExclusionPeriodConfig> & { sla: string })[] = [];
  readonly reports: Record_<ScheduledReportConfig>[] = [];
  readonly alertDefinitions: Record_<AlertDefinitionConfig>[] = [];
  settings: Settings = { apiVersion: API_VERSION, manage: {}, ignore: [], safety: { ...DEFAULT_SAFETY } };
  settingsSource: SourceRef | undefined;
  settingsRead = false;

  constructor(
    readonly root: string,
    readonly options: LoadOptions,
    diagnostics: Diagnostic[],
  ) {
    this.diagnostics = diagnostics;
  }

  report(code: DiagnosticCode, message: string, at: Located, where: 'value' | 'key' = 'value', hint?: string): void {
    const pos = at.src.position(at.path, where);
    const d: Diagnostic = { severity: DIAGNOSTIC_CODES[code].severity, code, message, file: at.src.file, ...pos };
    if (hint !== undefined) d.hint = hint;
    this.diagnostics.push(d);
  }

  sourceRef(at: Located): SourceRef {
    const { line, column } = at.src.position(at.path);
    return { file: at.src.file, line, column };
  }

  addFile(src: YamlSource): void {
    this.diagnostics.push(...src.diagnostics);
    const syntaxBroken = src.diagnostics.some((d) => d.code === 'YAML_SYNTAX');
    // Zero bytes, only comments, `null` or `{}`: nothing is declared, whatever the reason.
    const empty = !syntaxBroken && (src.value === undefined || src.value === null || (isObj(src.value) && Object.keys(src.value).length === 0));
    if (empty && src.file !== SETTINGS_FILE) {
      // An emptied file (a bad merge, a truncated write) must not turn silently into deletes (DESIGN §3).
      this.diagnostics.push(
        fileDiagnostic(
          'EMPTY_FILE',
          src.file,
          'the file declares nothing: objects it used to declare will be planned as deletes in kinds with `prune: true`',
          'if removing everything it declared is intended, delete the file instead; otherwise restore its declarations',
        ),
      );
    }
    if (!isObj(src.value)) {
      if (src.file === SETTINGS_FILE && empty) {
        this.report('MISSING_API_VERSION', 'monsync.yaml is empty; it needs `apiVersion: monsync/v1`', { src, path: [] }, 'value', 'add `apiVersion: monsync/v1` and a `manage:` mapping');
      }
      return;
    }
    const value = src.value;
    if (!syntaxBroken) this.diagnostics.push(...schemaDiagnostics(src));
    this.walkPassThrough(src, value, configJsonSchema(), []);

    if (src.file === SETTINGS_FILE) this.readSettings(src, value);
    else {
      for (const key of SETTINGS_KEYS) {
        if (Object.hasOwn(value, key)) {
          this.report('SETTINGS_OUTSIDE_ROOT', `\`${key}\` belongs in monsync.yaml at the root of the config folder`, { src, path: [key] }, 'key');
        }
      }
    }
    this.readResources(src, value);
  }

  private readSettings(src: YamlSource, value: Obj): void {
    this.settingsRead = true;
    this.settingsSource = this.sourceRef({ src, path: [] });
    if (!Object.hasOwn(value, 'apiVersion')) {
      this.report('MISSING_API_VERSION', 'monsync.yaml needs `apiVersion: monsync/v1`', { src, path: [] }, 'value', 'add `apiVersion: monsync/v1` as the first line');
    }
    const manage = isObj(value.manage) ? value.manage : {};
    for (const kind of MANAGED_KINDS) {
      const entry = manage[kind];
      if (isObj(entry)) {
        const removal = (REMOVAL_STRATEGIES as readonly unknown[]).includes(entry.removal) ? (entry.removal as RemovalStrategy) : undefined;
        this.settings.manage[kind] = { prune: entry.prune === true, ...(kind === 'monitors' ? { removal: removal ?? 'auto' } : {}) };
      }
      else if (entry === null) this.settings.manage[kind] = { prune: false, ...(kind === 'monitors' ? { removal: 'auto' as const } : {}) }; // `monitors:` with nothing after it
    }
    const ignore = [manage.ignore, value.ignore].flatMap((list) => (Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : []));
    this.settings.ignore = ignore;
    const safety = isObj(value.safety) ? value.safety : {};
    for (const field of ['maxDeletePercent', 'maxUpdatePercent'] as const) {
      const v = safety[field];
      if (typeof v === 'number' && v >= 0 && v <= 100) this.settings.safety[field] = v;
    }
  }

  private list(value: Obj, key: string): unknown[] {
    const v = value[key];
    return Array.isArray(v) ? v : [];
  }

  private readResources(src: YamlSource, value: Obj): void {
    this.list(value, 'monitors').forEach((entry, i) => {
      if (!isObj(entry)) return;
      const at = { src, path: ['monitors', i] };
      this.monitors.push({ ...at, key: entry.Name, declared: { value: this.decode(entry, at, false) as MonitorConfig, source: this.sourceRef(at) } });
    });
    this.list(value, 'monitorGroups').forEach((entry, i) => {
      if (!isObj(entry)) return;
      const at = { src, path: ['monitorGroups', i] };
      this.groups.push({ ...at, key: entry.Description, declared: { value: this.decode(entry, at, false) as MonitorGroupConfig, source: this.sourceRef(at) } });
    });
    const vault = isObj(value.vault) ? value.vault : {};
    this.list(vault, 'sections').forEach((entry, i) => {
      if (!isObj(entry)) return;
      const at = { src, path: ['vault', 'sections', i] };
      const { items, ...rest } = entry;
      const section = this.decode(rest, at, false) as VaultSectionConfig;
      const declaredItems: Declared<VaultItemConfig>[] = [];
      (Array.isArray(items) ? items : []).forEach((item, j) => {
        if (!isObj(item)) return;
        const itemAt = { src, path: [...at.path, 'items', j] };
        const declared = { value: this.decodeVaultItem(item, itemAt), source: this.sourceRef(itemAt) };
        declaredItems.push(declared);
        this.items.push({ ...itemAt, key: item.Name, section: typeof entry.Name === 'string' ? entry.Name : '', declared });
      });
      if (items !== undefined) section.items = declaredItems;
      this.sections.push({ ...at, key: entry.Name, declared: { value: section, source: this.sourceRef(at) } });
    });
    this.list(value, 'slas').forEach((entry, i) => {
      if (!isObj(entry)) return;
      const at = { src, path: ['slas', i] };
      const { exclusionPeriods, ...rest } = entry;
      const sla = this.decode(rest, at, false) as SlaConfig;
      const declaredPeriods: Declared<ExclusionPeriodConfig>[] = [];
      (Array.isArray(exclusionPeriods) ? exclusionPeriods : []).forEach((period, j) => {
        if (!isObj(period)) return;
        const periodAt = { src, path: [...at.path, 'exclusionPeriods', j] };
        const declared = { value: this.decode(period, periodAt, false) as ExclusionPeriodConfig, source: this.sourceRef(periodAt) };
        declaredPeriods.push(declared);
        this.periods.push({ ...periodAt, key: period.Description, sla: typeof entry.Description === 'string' ? entry.Description : '', declared });
      });
      if (exclusionPeriods !== undefined) sla.exclusionPeriods = declaredPeriods;
      this.slas.push({ ...at, key: entry.Description, declared: { value: sla, source: this.sourceRef(at) } });
    });
    this.list(value, 'scheduledReports').forEach((entry, i) => {
      if (!isObj(entry)) return;
      const at = { src, path: ['scheduledReports', i] };
      this.reports.push({ ...at, key: entry.key, declared: { value: this.decode(entry, at, false) as ScheduledReportConfig, source: this.sourceRef(at) } });
    });
    this.list(value, 'alertDefinitions').forEach((entry, i) => {
      if (!isObj(entry)) return;
      const at = { src, path: ['alertDefinitions', i] };
      this.alertDefinitions.push({ ...at, key: entry.AlertDefinitionGuid, declared: { value: this.decode(entry, at, false) as AlertDefinitionConfig, source: this.sourceRef(at) } });
    });
  }

  private decodeVaultItem(item: Obj, at: Located): VaultItemConfig {
    const binary = typeof item.VaultItemType === 'string' && BINARY_VAULT_TYPES.has(item.VaultItemType);
    const out: Obj = {};
    for (const [key, v] of Object.entries(item)) {
      const fieldAt = { src: at.src, path: [...at.path, key] };
      if (key === 'Value') out[key] = this.decode(v, fieldAt, binary, item.VaultItemType === 'File');
      else if (key === 'CertificateArchive' && isObj(v)) {
        const archive: Obj = {};
        for (const [k, w] of Object.entries(v)) archive[k] = this.decode(w, { src: at.src, path: [...fieldAt.path, k] }, k === 'ArchiveData');
        out[key] = archive;
      } else out[key] = this.decode(v, fieldAt, false);
    }
    return out as VaultItemConfig;
  }

  /** Copies a value, turning every `{ fromEnv }` / `{ fromFile }` mapping into a `Secret`. */
  private decode(value: unknown, at: Located, binary: boolean, vaultFile = false): unknown {
    if (Array.isArray(value)) return value.map((v, i) => this.decode(v, { src: at.src, path: [...at.path, i] }, binary));
    if (!isObj(value)) return value;
    const keys = Object.keys(value);
    const only = keys.length === 1 ? keys[0] : undefined;
    if ((only === 'fromEnv' || only === 'fromFile') && typeof value[only] === 'string' && value[only] !== '') {
      const ref = only === 'fromEnv' ? { fromEnv: value[only] as string } : { fromFile: value[only] as string };
      const encoding: SecretEncoding = binary ? 'base64' : 'utf8';
      const secretOptions = { baseDir: dirname(join(this.root, at.src.file)), root: this.root, encoding, ...(this.options.env !== undefined ? { env: this.options.env } : {}) };
      const secret = new Secret(ref, this.sourceRef(at), secretOptions);
      const problem = 'fromFile' in ref ? fromFilePathProblem(ref.fromFile, secretOptions.baseDir, this.root) : undefined;
      if (problem !== undefined) {
        // Not probed at all (no existence check): the file is refused whatever it is.
        this.reportOutside(`\`fromFile\` path \`${String(value[only])}\` ${problem === 'absolute' ? 'is absolute' : 'leads outside the config tree'}`, { src: at.src, path: [...at.path, 'fromFile'] });
      } else this.secrets.push({ secret, at, vaultFile });
      return secret;
    }
    const out: Obj = {};
    for (const key of keys) out[key] = this.decode(value[key], { src: at.src, path: [...at.path, key] }, binary);
    return out;
  }

  private reportOutside(what: string, at: Located): void {
    this.report(
      'SECRET_FILE_OUTSIDE_TREE',
      `${what}: secret files are named relative to the YAML file and must stay inside the config tree, or a change to the config could read any file of the machine running monsync into a vault item`,
      at,
      'value',
      'move the file into the config folder (keep it out of git) and name it relative to this YAML file',
    );
  }

  /** Near misses of known fields among pass-through keys, and literal secrets in pass-through fields. */
  private walkPassThrough(src: YamlSource, value: unknown, schema: unknown, path: PathSegment[]): void {
    const s = resolveSchema(schema);
    if (s === undefined) return;
    if (Array.isArray(s.anyOf)) {
      const branch = pickBranch(s.anyOf, value);
      if (branch !== undefined) this.walkPassThrough(src, value, branch, path);
      return;
    }
    if (Array.isArray(value)) {
      if (s.items !== undefined) value.forEach((item, i) => this.walkPassThrough(src, item, s.items, [...path, i]));
      return;
    }
    if (!isObj(value) || !isObj(s.properties)) return;
    const properties = s.properties;
    const passes = isObj(s.patternProperties);
    const known = Object.keys(properties).filter((k) => !isObj(properties[k]) || !Object.hasOwn(properties[k] as Obj, 'not'));
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        this.walkPassThrough(src, value[key], properties[key], [...path, key]);
        continue;
      }
      if (!passes || !new RegExp(PASS_THROUGH_PATTERN).test(key)) continue;
      const meant = likelyMeant(key, known);
      if (meant !== undefined) {
        this.report(
          'LIKELY_TYPO',
          `\`${key}\` is not a known field here and is sent to the API as is; did you mean \`${meant}\`?`,
          { src, path: [...path, key] },
          'key',
          'unknown PascalCase fields pass through so that new API fields work; rename it if it is a typo',
        );
      }
      const v = value[key];
      if (isSecretFieldName(key) && typeof v === 'string' && v !== '') {
        this.report('LITERAL_SECRET', `\`${key}\` looks like a secret and must be given by reference, not as a literal value`, { src, path: [...path, key] }, 'value', 'write `{ fromEnv: NAME }` or `{ fromFile: path }`');
      }
    }
  }

  // -------------------------------------------------------------------------------------------------------------

  finish(): DesiredState {
    this.checkDuplicates();
    this.checkReferences();
    this.checkResources();
    this.checkSecrets();
    this.checkManaged();
    const desired: DesiredState = {
      root: this.root,
      settings: this.settings,
      monitors: this.monitors.map((r) => r.declared),
      monitorGroups: this.groups.map((r) => r.declared),
      vaultSections: this.sections.map((r) => r.declared),
      slas: this.slas.map((r) => r.declared),
      scheduledReports: this.reports.map((r) => r.declared),
      alertDefinitions: this.alertDefinitions.map((r) => r.declared),
    };
    if (this.settingsSource !== undefined) desired.settingsSource = this.settingsSource;
    return desired;
  }

  private where(at: Located): string {
    const { line, column } = at.src.position(at.path);
    return `${at.src.file}:${line}:${column}`;
  }

  private unique<R extends Located & { key: unknown }>(records: readonly R[], what: string, keyField: string, keyOf: (r: R) => string | undefined = (r) => (typeof r.key === 'string' ? r.key : undefined)): void {
    const first = new Map<string, Located>();
    for (const r of records) {
      const key = keyOf(r);
      if (key === undefined) continue;
      const seen = first.get(key);
      if (seen === undefined) first.set(key, r);
      else {
        this.report('DUPLICATE_KEY', `${what} \`${key}\` is declared twice: here and at ${this.where({ src: seen.src, path: [...seen.path, keyField] })}`, { src: r.src, path: [...r.path, keyField] }, 'value', `${keyField} identifies the ${what}; rename or remove one of them`);
      }
    }
  }

  private uniqueGuid<T>(records: readonly Record_<T>[], what: string, guidField: string): void {
    const first = new Map<string, Located>();
    for (const r of records) {
      const guid = (r.declared.value as Obj)[guidField];
      if (typeof guid !== 'string') continue;
      const seen = first.get(guid.toLowerCase());
      if (seen === undefined) first.set(guid.toLowerCase(), r);
      else this.report('DUPLICATE_GUID', `${what} ${guidField} \`${guid}\` is pinned twice: here and at ${this.where({ src: seen.src, path: [...seen.path, guidField] })}`, { src: r.src, path: [...r.path, guidField] });
    }
  }

  private checkDuplicates(): void {
    this.unique(this.monitors, 'monitor', 'Name');
    this.unique(this.groups, 'monitor group', 'Description');
    this.unique(this.sections, 'vault section', 'Name');
    this.unique(this.items, 'vault item', 'Name', (r) => (typeof r.key === 'string' ? `${r.section}/${r.key}` : undefined));
    this.unique(this.slas, 'SLA', 'Description');
    this.unique(this.periods, 'exclusion period', 'Description', (r) => (typeof r.key === 'string' ? `${r.sla}/${r.key}` : undefined));
    this.unique(this.reports, 'scheduled report', 'key');
    // A GUID names one object whatever the case of its hex digits (the service's paths ignore it).
    this.unique(this.alertDefinitions, 'alert definition', 'AlertDefinitionGuid', (r) => (typeof r.key === 'string' ? r.key.toLowerCase() : undefined));
    this.uniqueGuid(this.monitors, 'monitor', 'MonitorGuid');
    this.uniqueGuid(this.groups, 'monitor group', 'MonitorGroupGuid');
    this.uniqueGuid(this.sections, 'vault section', 'VaultSectionGuid');
    this.uniqueGuid(this.items, 'vault item', 'VaultItemGuid');
    this.uniqueGuid(this.slas, 'SLA', 'SlaGuid');
    this.uniqueGuid(this.reports, 'scheduled report', 'ScheduledReportGuid');

    // Sets inside one monitor.
    for (const m of this.monitors) {
      const value = m.declared.value as Obj;
      for (const [field, keyField] of [
        ['ErrorConditions', 'ErrorConditionType'],
        ['PredefinedVariables', 'Key'],
      ] as const) {
        const list = value[field];
        if (!Array.isArray(list)) continue;
        const first = new Map<string, number>();
        list.forEach((entry, i) => {
          const key = isObj(entry) ? entry[keyField] : undefined;
          if (typeof key !== 'string') return;
          const seen = first.get(key);
          if (seen === undefined) first.set(key, i);
          else {
            this.report('DUPLICATE_KEY', `${field} has two entries with ${keyField} \`${key}\`: here and at ${this.where({ src: m.src, path: [...m.path, field, seen, keyField] })}`, { src: m.src, path: [...m.path, field, i, keyField] }, 'value', `${field} is a set keyed by ${keyField}; keep one entry`);
          }
        });
      }
    }
  }

  private checkReferences(): void {
    const monitorNames = this.monitors.map((m) => m.key).filter((k): k is string => typeof k === 'string');
    const monitorSet = new Set(monitorNames);
    for (const g of this.groups) {
      const members = (g.declared.value as Obj).members;
      if (!Array.isArray(members)) continue;
      members.forEach((member, i) => {
        if (typeof member !== 'string' || monitorSet.has(member)) return;
        const meant = likelyMeant(member, monitorNames);
        this.report(
          'UNKNOWN_REFERENCE',
          `member \`${member}\` of group \`${String(g.key)}\` names no declared monitor${meant !== undefined ? `; did you mean \`${meant}\`?` : ''}`,
          { src: g.src, path: [...g.path, 'members', i] },
          'value',
          'members are monitor Names declared in this config tree',
        );
      });
    }

    const itemsBySection = new Map<string, string[]>();
    for (const s of this.sections) if (typeof s.key === 'string') itemsBySection.set(s.key, []);
    for (const item of this.items) if (typeof item.key === 'string') itemsBySection.get(item.section)?.push(item.key);
    for (const m of this.monitors) {
      const variables = (m.declared.value as Obj).PredefinedVariables;
      if (!Array.isArray(variables)) continue;
      variables.forEach((variable, i) => {
        const ref = isObj(variable) && isObj(variable.Value) ? variable.Value.vault : undefined;
        if (typeof ref !== 'string') return;
        if (ref.indexOf('/') <= 0) return; // the schema reports the form
        // Section and item names may hold a slash themselves (`Team/Prod/db`): the reference is good when any split
        // of it names a declared item; otherwise the longest declared section it starts with explains the miss.
        const splits = [...ref.matchAll(/\//g)].map((match) => [ref.slice(0, match.index), ref.slice(match.index + 1)] as const);
        if (splits.some(([section, item]) => itemsBySection.get(section)?.includes(item) === true)) return;
        const [sectionName, itemName] = splits.findLast(([section]) => itemsBySection.has(section)) ?? splits[0] ?? ['', ''];
        const at = { src: m.src, path: [...m.path, 'PredefinedVariables', i, 'Value', 'vault'] };
        const items = itemsBySection.get(sectionName);
        if (items === undefined) {
          const meant = likelyMeant(sectionName, itemsBySection.keys());
          this.report('UNKNOWN_REFERENCE', `vault reference \`${ref}\` names no declared vault section \`${sectionName}\`${meant !== undefined ? `; did you mean \`${meant}\`?` : ''}`, at, 'value', 'declare the section under vault.sections');
        } else if (!items.includes(itemName)) {
          const meant = likelyMeant(itemName, items);
          this.report('UNKNOWN_REFERENCE', `vault reference \`${ref}\` names no item \`${itemName}\` in section \`${sectionName}\`${meant !== undefined ? `; did you mean \`${sectionName}/${meant}\`?` : ''}`, at, 'value', 'declare the item under the section\'s items');
        }
      });
    }
  }

  private findings(findings: readonly Finding[], at: Located): void {
    for (const f of findings) this.report(f.code, f.message, f.field === undefined ? at : { src: at.src, path: [...at.path, f.field] }, f.code === 'SCHEDULE_FIELD_UNEXPECTED' ? 'key' : 'value');
  }

  private checkResources(): void {
    for (const g of this.groups) {
      const value = g.declared.value as Obj;
      if (value.IsAll === true) {
        this.report('ALL_MONITORS_GROUP', 'the All Monitors group (IsAll: true) cannot be declared: it holds every monitor and its membership cannot be changed', { src: g.src, path: [...g.path, 'IsAll'] }, 'key', 'remove this group; use another group to target monitors');
      } else if (typeof value.Description === 'string' && value.Description.trim().toLowerCase() === 'all monitors') {
        this.report('ALL_MONITORS_GROUP', 'a group named `All Monitors` would target the default All Monitors group, whose membership cannot be changed', { src: g.src, path: [...g.path, 'Description'] }, 'value', 'choose another Description');
      }
    }
    for (const s of this.slas) this.findings(checkSlaThresholds(s.declared.value), s);
    for (const p of this.periods) this.findings(checkExclusionPeriod(p.declared.value), p);
    for (const r of this.reports) {
      const schedule = (r.declared.value as Obj).Schedule;
      this.findings(checkReportSchedule(schedule), { src: r.src, path: [...r.path, 'Schedule'] });
    }
    for (const item of this.items) {
      const value = item.declared.value as Obj;
      const type = value.VaultItemType;
      const archive = isObj(value.CertificateArchive) ? value.CertificateArchive : undefined;
      const missing =
        (type === 'CredentialSet' && value.Password === undefined) ||
        (type === 'CertificateArchive' && value.Value === undefined && archive?.ArchiveData === undefined) ||
        ((type === 'Certificate' || type === 'File' || type === 'OneTimePassword') && value.Value === undefined);
      if (missing) {
        const field = type === 'CredentialSet' ? 'Password' : type === 'CertificateArchive' ? 'CertificateArchive.ArchiveData' : 'Value';
        this.report('VAULT_VALUE_MISSING', `vault item \`${String(item.key)}\` (${String(type)}) has no ${field}: an existing item keeps its value, a new one is created without it`, item);
      }
    }
  }

  private checkSecrets(): void {
    const needed = this.options.resolveSecrets === true;
    const env = this.options.env ?? process.env;
    for (const { secret, at, vaultFile } of this.secrets) {
      const ref = secret.ref;
      if ('fromEnv' in ref) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(ref.fromEnv)) continue; // reported by the schema
        const value = env[ref.fromEnv];
        if (value === undefined || value === '') {
          if (needed) this.report('SECRET_UNAVAILABLE', `environment variable ${ref.fromEnv} is not set and its value is needed`, at, 'value', `set ${ref.fromEnv} in the environment of monsync`);
          else this.report('ENV_VAR_UNSET', `environment variable ${ref.fromEnv} is not set; plan and apply will need it`, at, 'value', `set ${ref.fromEnv} where monsync plans and applies`);
        } else if (vaultFile && needed && Buffer.from(value, 'base64').length > MAX_VAULT_FILE_BYTES) {
          this.report('VAULT_FILE_TOO_LARGE', `the File item read from ${ref.fromEnv} is larger than 2 MB`, at);
        }
        continue;
      }
      const path = secret.filePath() ?? '';
      if (!fromFileStaysInside(path, this.root)) {
        this.reportOutside(`\`fromFile\` path \`${ref.fromFile}\` goes through a symbolic link that leads outside the config tree`, { src: at.src, path: [...at.path, 'fromFile'] });
        continue;
      }
      let size: number | undefined;
      try {
        const stat = statSync(path);
        size = stat.isFile() ? stat.size : undefined;
      } catch {
        size = undefined;
      }
      if (size === undefined) {
        if (needed) this.report('SECRET_UNAVAILABLE', `secret ${secret.describe()} cannot be read and its value is needed`, at, 'value', 'the path is relative to the YAML file that names it');
        else this.report('SECRET_FILE_MISSING', `secret ${secret.describe()} does not exist; plan and apply will need it`, at, 'value', 'the path is relative to the YAML file that names it');
        continue;
      }
      if (vaultFile && size > MAX_VAULT_FILE_BYTES) {
        this.report('VAULT_FILE_TOO_LARGE', `${secret.describe()} is ${(size / 1024 / 1024).toFixed(1)} MB; File vault items hold at most 2 MB`, at);
      } else if (needed && !secret.isAvailable()) {
        this.report('SECRET_UNAVAILABLE', `secret ${secret.describe()} cannot be read and its value is needed`, at);
      }
    }
  }

  private checkManaged(): void {
    if (!this.settingsRead) return;
    const declared: [ManagedKind, readonly Located[], string][] = [
      ['monitors', this.monitors, 'monitors'],
      ['monitorGroups', this.groups, 'monitor groups'],
      ['vault', this.sections, 'vault sections'],
      ['slas', this.slas, 'SLAs'],
      ['scheduledReports', this.reports, 'scheduled reports'],
      ['alertDefinitions', this.alertDefinitions, 'alert definitions'],
    ];
    for (const [kind, records, what] of declared) {
      const first = records[0];
      if (first === undefined || this.settings.manage[kind] !== undefined) continue;
      this.report(
        'KIND_NOT_MANAGED',
        `${records.length} ${what} declared, but \`${kind}\` is not under manage in monsync.yaml: they will not be planned`,
        first,
        'value',
        `add \`${kind}: { prune: false }\` under manage to plan them`,
      );
    }
  }
}

function resolveSchema(schema: unknown): Obj | undefined {
  if (!isObj(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const target = configJsonSchema().$defs[ref.slice('#/$defs/'.length)];
    return isObj(target) ? target : undefined;
  }
  return schema;
}

function pickBranch(branches: unknown[], value: unknown): unknown {
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  const fitting = branches
    .map(resolveSchema)
    .filter((b): b is Obj => b !== undefined && (b.type === type || (type === 'object' && b.type === undefined && isObj(b.properties))));
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** Marks every diagnostic that sits on a line holding a literal secret, so that no formatter quotes that line. */
function markSecretLines(diagnostics: Diagnostic[]): void {
  const lines = new Set<string>();
  for (const d of diagnostics) {
    if (d.code !== 'LITERAL_SECRET') continue;
    for (let line = d.line; line <= (d.endLine ?? d.line); line++) lines.add(`${d.file}\u0000${line}`);
  }
  for (const d of diagnostics) if (lines.has(`${d.file}\u0000${d.line}`)) d.redactSource = true;
}

function assemble(root: string, texts: readonly ConfigText[], options: LoadOptions, diagnostics: Diagnostic[], files: string[]): LoadResult {
  const assembler = new Assembler(root, options, diagnostics);
  for (const { file, text } of texts) assembler.addFile(new YamlSource(file, text));
  const desired = assembler.finish();
  markSecretLines(assembler.diagnostics);
  return { desired, diagnostics: sortDiagnostics(assembler.diagnostics), files };
}
