import { fieldRename, type FieldRename } from '@monsync/client/wire';
import { statSync, type Stats } from 'node:fs';
import { fileKind, sizeLabel } from './bounded-read.js';
import { dirname, join, resolve } from 'node:path';
import { checkDutySchedule, checkExclusionPeriod, checkReportSchedule, checkRumWebsite, checkSlaThresholds, type Finding } from './checks.js';
import { dutyContent, dutyLabel } from './duty-schedule.js';
import { API_VERSION, MANAGED_KINDS, REMOVAL_STRATEGIES, UNASSIGNABLE_AUTHORIZATION_TYPES } from './config-schema.js';
import { DIAGNOSTIC_CODES, sortDiagnostics, type Diagnostic, type DiagnosticCode } from './diagnostics.js';
import { configJsonSchema } from './render-schemas.js';
import { PASS_THROUGH_PATTERN } from './schema-builder.js';
import { MAX_SECRET_FILE_BYTES, MAX_VAULT_FILE_BYTES, Secret, fromFilePathProblem, isReservedEnvName, fromFileRealProblem, type FromFileProblem, type SecretEncoding, type SourceRef } from './secret.js';
import { SECRET_SHAPE_TEXT, isSecretLeaf, secretPairName, secretShape } from './secret-fields.js';
import { lookAlikeDifference, lookAlikeForm } from './look-alike.js';
import { likelyMeant } from './suggest.js';
import {
  ALERT_DEFINITION_KIND,
  KINDS_AS_LISTED,
  MONITOR_GROUP_KIND,
  MONITOR_KIND,
  OPERATOR_GROUP_KIND,
  OPERATOR_KIND,
  SCHEDULED_REPORT_KIND,
  SLA_EXCLUSION_PERIOD_KIND,
  SLA_KIND,
  RUM_WEBSITE_KIND,
  VAULT_ITEM_KIND,
  VAULT_SECTION_KIND,
  childKinds,
  topLevelKinds,
  type KindEntry,
} from './kinds.js';
import type { Declared, DesiredState, RemovalStrategy, Settings, VaultItemConfig } from './types.js';
import { DEFAULT_SAFETY, safetyLimits } from './safety.js';
import { allowKeyOf, NOTHING_ALLOWED, publishedFieldsOf, readAllowUnknown, type AllowUnknown } from './published-fields.js';
import { PolicyReader, type Guarded } from './policy/read.js';
import { wireKindAt } from './wire-kinds.js';
import { schemaDiagnostics } from './validate.js';
import { MAX_FILE_BYTES, YamlSource, type PathSegment } from './yaml-source.js';
import { SETTINGS_FILE, fileDiagnostic, missingSettings, readConfigTree, tooLarge, type ConfigText } from './tree-files.js';

export { SETTINGS_FILE, discoverConfigFiles, type ConfigText } from './tree-files.js';

export { MAX_VAULT_FILE_BYTES } from './secret.js';
export { DEFAULT_SAFETY } from './safety.js';

export interface LoadOptions {
  /**
   * Values are needed (plan, apply): an unset variable or a missing file is left to the plan, which refuses only a
   * step that sends the value (SECRET_UNAVAILABLE there). Otherwise (validate) it is a warning. No value is ever put
   * in a diagnostic.
   */
  resolveSecrets?: boolean;
  /** Environment for `fromEnv` references; `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock policy waivers are checked against (`until`); now by default. */
  now?: Date;
}

export interface LoadResult {
  /** Best effort even when there are errors: do not act on it when `hasErrors(diagnostics)`. */
  desired: DesiredState;
  diagnostics: Diagnostic[];
  /** Files read, relative to the root, in the order read. */
  files: string[];
  /**
   * The text of each file read, by its path relative to the root: what a diagnostic quotes. A refused file (a link
   * out of the tree, a device) has none, and nothing may read it again to quote it.
   */
  sources: ReadonlyMap<string, string>;
}

/**
 * Reads `monsync.yaml` and every `*.yaml` below `dir` (not hidden folders, not node_modules; symbolic links inside the
 * tree followed: tree-files.ts). Config trees are
 * small (5 MB per file at most), so the async form reads synchronously rather than keeping a second copy of the loop.
 */
export async function loadConfig(dir: string, options: LoadOptions = {}): Promise<LoadResult> {
  return loadConfigSync(dir, options);
}

/** Synchronous `loadConfig`. */
export function loadConfigSync(dir: string, options: LoadOptions = {}): LoadResult {
  const root = resolve(dir);
  const { files, texts, diagnostics } = readConfigTree(root);
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
  // monsync.yaml first, as readConfigTree reads it: its `allowUnknown` applies to every other file.
  const ordered = [...kept.filter((t) => t.file === SETTINGS_FILE), ...kept.filter((t) => t.file !== SETTINGS_FILE)];
  return assemble(resolve(root), ordered, options, diagnostics, texts.map((t) => t.file));
}

// ---------------------------------------------------------------------------------------------------------------

/** Whether a text holds anything besides blanks, comments, document markers and an explicit empty value. */
function hasContent(text: string): boolean {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.replace(/(^|\s)#.*$/, '').trim());
  const rest = lines.filter((line) => line !== '' && line !== '---' && line !== '...').join(' ');
  return rest !== '' && !/^(null|Null|NULL|~|\{\s*\})$/.test(rest);
}

/** A YAML mapping, as parsed. */
type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === 'object' && !Array.isArray(v);
/** `{ fromEnv: NAME }` or `{ fromFile: path }`: a secret given the one allowed way. */
const isSecretRefMapping = (v: Mapping): boolean => {
  const keys = Object.keys(v);
  return keys.length === 1 && (keys[0] === 'fromEnv' || keys[0] === 'fromFile');
};
/** `{ literal: "...", notSecret: "why" }`: a value that looks like a secret, kept in clear on purpose (NotSecret). */
const isNotSecretMapping = (v: Mapping): boolean => {
  const keys = Object.keys(v);
  return keys.length === 2 && Object.hasOwn(v, 'literal') && Object.hasOwn(v, 'notSecret');
};
/** A literal that looks like a secret: the fix, for every such finding. */
const LITERAL_SECRET_FIX =
  'write `{ fromEnv: NAME }` (or a vault reference `{ vault: Section/Item }` in a variable); if it is not a secret, write `{ literal: ..., notSecret: <why> }` so reviewers see why';
/** A place in the tree, as a set key. */
const placeKey = (at: Located): string => `${at.src.file}\u0000${at.path.join('\u0000')}`;

/** The list at `path` below `value` (`['vault', 'sections']`); none when a step of the way is not there. */
function listAt(value: Mapping, path: readonly string[]): unknown[] {
  let current: unknown = value;
  for (const segment of path) current = isMapping(current) ? current[segment] : undefined;
  return Array.isArray(current) ? current : [];
}

/** Where a declaration lives, for positioning later findings on its fields. */
interface Located {
  src: YamlSource;
  path: PathSegment[];
}

/** One declaration of a kind, where it is, and its key as written (not yet known to be a string). */
interface Declaration extends Located, Guarded {
  declared: Declared<Mapping>;
  key: unknown;
  /** The key of the declaration it is declared in (a vault item's section), for a child kind. */
  parentKey: string;
}

const SETTINGS_KEYS = ['apiVersion', 'manage', 'ignore', 'safety', 'protect', 'policy', 'apiOperator', 'allowUnknown'] as const;
const BINARY_VAULT_TYPES = new Set(['CertificateArchive', 'File']);

class Assembler {
  readonly diagnostics: Diagnostic[];
  readonly secrets: { secret: Secret; at: Located; vaultFile: boolean }[] = [];
  /** Values written `{ literal, notSecret }` (placeKey): exempt from the literal-secret checks. */
  readonly #notSecret = new Set<string>();
  /** Literal secrets already reported (placeKey): one finding per value. */
  readonly #secretReported = new Set<string>();
  /** Declarations per kind of the registry (kinds.ts), in the order read. */
  readonly #declarations = new Map<KindEntry, Declaration[]>(KINDS_AS_LISTED.map((entry) => [entry, []]));
  settings: Settings = { apiVersion: API_VERSION, manage: {}, ignore: [], safety: { ...DEFAULT_SAFETY, relations: { ...DEFAULT_SAFETY.relations } } };
  settingsSource: SourceRef | undefined;
  settingsRead = false;
  readonly policy = new PolicyReader();
  /** Files with a syntax error: nothing of them is declared, so a reference may name what one of them holds. */
  readonly unparsed: string[] = [];
  /** `allowUnknown:` of monsync.yaml: API fields and enum values let through on purpose. */
  allow: AllowUnknown = NOTHING_ALLOWED;

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

  /**
   * A reference (`subject`) that names nothing declared (`missing`: "no declared monitor"): an error with the closest
   * declared name (`meant`), unless a file failed to parse, which may declare it; then the reference is reported as
   * not checked, and the syntax error is the one error.
   */
  unresolved(subject: string, missing: string, meant: string | undefined, at: Located, hint: string): void {
    const first = this.unparsed[0];
    if (first === undefined) {
      this.report('UNKNOWN_REFERENCE', `${subject} names ${missing}${meant !== undefined ? `; did you mean \`${meant}\`?` : ''}`, at, 'value', hint);
      return;
    }
    const files = this.unparsed.length === 1 ? first : `${first} and ${this.unparsed.length - 1} other file${this.unparsed.length === 2 ? '' : 's'}`;
    this.report('UNCHECKED_REFERENCE', `${subject} was not checked: it names ${missing} in the files that parsed, and ${files} failed to parse`, at, 'value', `fix the syntax error in ${files}; validate then checks this reference`);
  }

  sourceRef(at: Located): SourceRef {
    const { line, column } = at.src.position(at.path);
    return { file: at.src.file, line, column };
  }

  addFile(src: YamlSource): void {
    this.diagnostics.push(...src.diagnostics);
    const syntaxBroken = src.diagnostics.some((d) => d.code === 'YAML_SYNTAX');
    if (syntaxBroken) {
      // What the parser made of the rest of the file is a guess: checking it would report errors that follow from
      // the syntax error (a monitor without the list the error cut off), and what it lost would be missing.
      this.unparsed.push(src.file);
      return;
    }
    const refused = src.diagnostics.some((d) => d.severity === 'error');
    // Zero bytes, only comments, `null` or `{}`: nothing is declared, whatever the reason.
    const empty = !refused && (src.value === undefined || src.value === null || (isMapping(src.value) && Object.keys(src.value).length === 0));
    if (empty && hasContent(src.text)) {
      // Bytes that are neither comments nor an explicit empty value, read as nothing: the parser misread the file.
      this.diagnostics.push(
        fileDiagnostic('FILE_PARSED_EMPTY', src.file, 'the file has content but parses to nothing, so none of it would be planned', 'check the file\'s encoding and line endings; save it as UTF-8 with LF line endings'),
      );
      return;
    }
    if (empty && src.file !== SETTINGS_FILE) {
      // An emptied file (a bad merge, a truncated write) must not turn silently into deletes (docs/architecture.md, Identity, ownership and secrets).
      this.diagnostics.push(
        fileDiagnostic(
          'EMPTY_FILE',
          src.file,
          'the file declares nothing: objects it used to declare will be planned as deletes in kinds with `prune: true`',
          'if removing everything it declared is intended, delete the file instead; otherwise restore its declarations',
        ),
      );
    }
    if (!isMapping(src.value)) {
      if (src.file === SETTINGS_FILE && empty) {
        this.report('MISSING_API_VERSION', 'monsync.yaml is empty; it needs `apiVersion: monsync/v1`', { src, path: [] }, 'value', 'add `apiVersion: monsync/v1` and a `manage:` mapping');
      }
      return;
    }
    const value = src.value;
    // monsync.yaml is read first: what it lets through applies to every file, itself included.
    if (src.file === SETTINGS_FILE) this.allow = readAllowUnknown(value.allowUnknown);
    this.diagnostics.push(...schemaDiagnostics(src, this.allow));
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

  private readSettings(src: YamlSource, value: Mapping): void {
    this.settingsRead = true;
    this.settingsSource = this.sourceRef({ src, path: [] });
    if (!Object.hasOwn(value, 'apiVersion')) {
      this.report('MISSING_API_VERSION', 'monsync.yaml needs `apiVersion: monsync/v1`', { src, path: [] }, 'value', 'add `apiVersion: monsync/v1` as the first line');
    }
    const manage = isMapping(value.manage) ? value.manage : {};
    for (const kind of MANAGED_KINDS) {
      const entry = manage[kind];
      if (isMapping(entry)) {
        const removal = (REMOVAL_STRATEGIES as readonly unknown[]).includes(entry.removal) ? (entry.removal as RemovalStrategy) : undefined;
        this.settings.manage[kind] = { prune: entry.prune === true, ...(kind === 'monitors' ? { removal: removal ?? 'auto' } : {}) };
      }
      else if (entry === null) this.settings.manage[kind] = { prune: false, ...(kind === 'monitors' ? { removal: 'auto' as const } : {}) }; // `monitors:` with nothing after it
    }
    const ignore = [manage.ignore, value.ignore].flatMap((list) => (Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : []));
    this.settings.ignore = ignore;
    if (typeof value.apiOperator === 'string' && value.apiOperator.trim() !== '') this.settings.apiOperator = value.apiOperator.trim();
    const safety = isMapping(value.safety) ? value.safety : {};
    this.settings.safety = { ...safetyLimits(safety, DEFAULT_SAFETY), relations: safetyLimits(safety.relations, DEFAULT_SAFETY.relations) };
    this.diagnostics.push(...this.policy.readSettings(src, value, this.settings, this.allow));
    if (Object.keys(this.allow.fields).length + Object.keys(this.allow.values).length > 0) this.settings.allowUnknown = this.allow;
  }

  /** The declarations of one kind (every kind of the registry has a list, empty or not). */
  of(entry: KindEntry): Declaration[] {
    const list = this.#declarations.get(entry);
    if (list === undefined) throw new Error(`no declarations kept for kind ${entry.kind}`);
    return list;
  }

  /** Each kind's list at its path in the file; child kinds are read inside their parent's declarations. */
  private readResources(src: YamlSource, value: Mapping): void {
    for (const entry of topLevelKinds()) {
      const list = listAt(value, entry.path);
      list.forEach((item, i) => {
        if (isMapping(item)) this.readDeclaration(entry, item, { src, path: [...entry.path, i] }, '');
      });
    }
  }

  /**
   * Decodes one declaration. The lists of its child kinds declared as objects (a section's `items`) become
   * `Declared` lists of their own; a list of names (a group's `members`) stays as written.
   */
  private readDeclaration(entry: KindEntry, item: Mapping, at: Located, parentKey: string): Declared<Mapping> {
    const children = childKinds(entry).filter((child) => child.keyField !== undefined);
    const fields = children.map((child) => child.path[child.path.length - 1] ?? '');
    const own: Mapping = {};
    // protect and policyWaivers are monsync's own: never sent, never compared (kept beside the declaration).
    for (const key of Object.keys(item)) if (!fields.includes(key) && key !== 'protect' && key !== 'policyWaivers') own[key] = item[key];
    // Vault items decode their Value by type (base64 for files and archives): the one kind with a decoder of its own.
    const value = (entry === VAULT_ITEM_KIND ? this.decodeVaultItem(own, at) : this.decode(own, at, 'utf8')) as Mapping;
    const key = entry.keyField === undefined ? undefined : item[entry.keyField];
    // A child's parent key is the whole way down (`<definition>/<level>` for an integration of an escalation level).
    const ownKey = typeof key === 'string' ? key : typeof key === 'number' ? String(key) : '';
    const childParentKey = parentKey === '' ? ownKey : `${parentKey}/${ownKey}`;
    children.forEach((child, c) => {
      const field = fields[c] ?? '';
      const list = item[field];
      const declared: Declared<Mapping>[] = [];
      (Array.isArray(list) ? list : []).forEach((childItem, j) => {
        if (isMapping(childItem)) declared.push(this.readDeclaration(child, childItem, { src: at.src, path: [...at.path, field, j] }, childParentKey));
      });
      if (list !== undefined) value[field] = declared;
    });
    const declared: Declared<Mapping> = { value, source: this.sourceRef(at) };
    const resolvedLater = entry === OPERATOR_KIND && typeof item.outgoingPhoneNumber === 'string' ? ['outgoingPhoneNumber'] : [];
    if (resolvedLater.length > 0) declared.fieldSources = Object.fromEntries(resolvedLater.map((f) => [f, this.sourceRef({ src: at.src, path: [...at.path, f] })]));
    this.of(entry).push({ ...at, key, parentKey, declared, protect: item.protect === true, waivers: Array.isArray(item.policyWaivers) ? item.policyWaivers : [] });
    return declared;
  }

  private decodeVaultItem(item: Mapping, at: Located): VaultItemConfig {
    const type = item.VaultItemType;
    // The published provider sends a Certificate as base-64 of its PEM file, not as the PEM text the spec describes.
    const valueEncoding: SecretEncoding = type === 'Certificate' ? 'pem' : typeof type === 'string' && BINARY_VAULT_TYPES.has(type) ? 'base64' : 'utf8';
    const out: Mapping = {};
    for (const [key, v] of Object.entries(item)) {
      const fieldAt = { src: at.src, path: [...at.path, key] };
      if (key === 'Value') out[key] = this.decode(v, fieldAt, valueEncoding, type === 'File');
      else if (key === 'CertificateArchive' && isMapping(v)) {
        const archive: Mapping = {};
        for (const [k, w] of Object.entries(v)) archive[k] = this.decode(w, { src: at.src, path: [...fieldAt.path, k] }, k === 'ArchiveData' ? 'base64' : 'utf8');
        out[key] = archive;
      } else out[key] = this.decode(v, fieldAt, 'utf8');
    }
    return out as VaultItemConfig;
  }

  /** Copies a value, turning every `{ fromEnv }` / `{ fromFile }` mapping into a `Secret`. */
  private decode(value: unknown, at: Located, encoding: SecretEncoding, vaultFile = false): unknown {
    if (Array.isArray(value)) return value.map((v, i) => this.decode(v, { src: at.src, path: [...at.path, i] }, encoding));
    if (!isMapping(value)) return value;
    const keys = Object.keys(value);
    if (isNotSecretMapping(value) && typeof value.literal === 'string') return this.notSecretLiteral(value, at);
    const only = keys.length === 1 ? keys[0] : undefined;
    if ((only === 'fromEnv' || only === 'fromFile') && typeof value[only] === 'string' && value[only] !== '') {
      const ref = only === 'fromEnv' ? { fromEnv: value[only] as string } : { fromFile: value[only] as string };
      if ('fromEnv' in ref && isReservedEnvName(ref.fromEnv)) {
        this.report(
          'SECRET_ENV_RESERVED',
          `\`fromEnv\` names ${ref.fromEnv}, one of monsync's own variables (MONSYNC_*: its API credentials, its fingerprint key, its settings): they are never sent to the account`,
          { src: at.src, path: [...at.path, 'fromEnv'] },
          'value',
          'name a variable of your own for this secret; placeholders written by `monsync pull` are named MONSYNC_SECRET_*, the one MONSYNC_ prefix a tree may read',
        );
        return new Secret(ref, this.sourceRef(at), { baseDir: this.root, root: this.root, env: {} });
      }
      const maxBytes = vaultFile ? MAX_VAULT_FILE_BYTES : MAX_SECRET_FILE_BYTES;
      const secretOptions = { baseDir: dirname(join(this.root, at.src.file)), root: this.root, encoding, maxBytes, ...(this.options.env !== undefined ? { env: this.options.env } : {}) };
      const secret = new Secret(ref, this.sourceRef(at), secretOptions);
      const problem = 'fromFile' in ref ? fromFilePathProblem(ref.fromFile, secretOptions.baseDir, this.root) : undefined;
      // Not probed at all (no existence check): the file is refused whatever it is.
      if (problem !== undefined) this.refuseFromFile(String(value[only]), problem, { src: at.src, path: [...at.path, 'fromFile'] });
      else this.secrets.push({ secret, at, vaultFile });
      return secret;
    }
    const out: Mapping = {};
    for (const key of keys) out[key] = this.decode(value[key], { src: at.src, path: [...at.path, key] }, encoding);
    return out;
  }

  /** A `fromFile` path that is never read, whatever the file is: absolute, out of the tree, or hidden. */
  /** `{ literal, notSecret }`: the literal, sent as written, and exempt from the literal-secret checks once `notSecret` says why. */
  private notSecretLiteral(value: Mapping, at: Located): string {
    if (typeof value.notSecret !== 'string' || value.notSecret.trim() === '') {
      this.report('INVALID_VALUE', '`notSecret` must say why the value is not a secret (for reviewers of the tree)', { src: at.src, path: [...at.path, 'notSecret'] }, 'value', 'e.g. `notSecret: "public demo key, documented in the API\'s README"`');
    } else this.#notSecret.add(placeKey(at));
    return value.literal as string;
  }

  private refuseFromFile(path: string, problem: FromFileProblem | 'linked-out', at: Located): void {
    const shown = `\`fromFile\` path \`${path}\``;
    if (problem === 'hidden') {
      this.report(
        'SECRET_FILE_HIDDEN',
        `${shown} goes through a hidden folder or names a hidden file: hidden paths (.git, .github, .env) hold tools' state and credentials, such as the token a CI checkout keeps in .git/config, so they are never read into the account`,
        at,
        'value',
        'move the secret file to a path with no part starting with "." (keep it out of git), or use `{ fromEnv: NAME }`',
      );
      return;
    }
    const what = problem === 'absolute' ? 'is absolute' : problem === 'outside' ? 'leads outside the config tree' : 'goes through a symbolic link that leads outside the config tree';
    this.report(
      'SECRET_FILE_OUTSIDE_TREE',
      `${shown} ${what}: secret files are named relative to the YAML file and must stay inside the config tree, or a change to the config could read any file of the machine running monsync into a vault item`,
      at,
      'value',
      'move the file into the config folder (keep it out of git) and name it relative to this YAML file',
    );
  }

  /**
   * Unknown PascalCase keys: an error in an object whose fields the published definition lists (`PUBLISHED_FIELDS`),
   * unless monsync.yaml allows the field; a near miss of a known field (a warning) elsewhere. Literal secrets in
   * pass-through fields. `api`: the value is a field of an API object (whose open lists are the service's).
   */
  private walkPassThrough(src: YamlSource, value: unknown, schema: unknown, path: PathSegment[], api = false): void {
    const object = definitionOf(schema);
    const s = resolveSchema(schema);
    if (s === undefined) return;
    if (Array.isArray(s.anyOf)) {
      const open = openEnumValues(s.anyOf);
      if (api && open !== undefined && typeof value === 'string') this.checkOpenEnum(src, path, value, open);
      const branch = pickBranch(s.anyOf, value);
      if (branch !== undefined) this.walkPassThrough(src, value, branch, path, api);
      return;
    }
    if (Array.isArray(value)) {
      if (s.items !== undefined) value.forEach((item, i) => this.walkPassThrough(src, item, s.items, [...path, i], api));
      return;
    }
    if (!isMapping(value) || !isMapping(s.properties)) return;
    const properties = s.properties;
    const passes = isMapping(s.patternProperties);
    const known = Object.keys(properties).filter((k) => !isMapping(properties[k]) || !Object.hasOwn(properties[k] as Mapping, 'not'));
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        this.walkPassThrough(src, value[key], properties[key], [...path, key], passes);
        continue;
      }
      if (!passes || !new RegExp(PASS_THROUGH_PATTERN).test(key)) continue;
      const kind = wireKindAt([...path, key]);
      const renamed = kind === undefined ? undefined : fieldRename(kind, key);
      if (renamed !== undefined) {
        this.reportRenamedField(renamed, { src, path: [...path, key] });
        continue;
      }
      this.checkUnknownKey(src, [...path, key], object, known);
      this.literalSecrets(src, [key], value[key], [...path, key]);
    }
  }

  /**
   * An unknown PascalCase key: an error where the published definition lists the object's fields (unless monsync.yaml
   * allows it), else a warning when it is a near miss of a known field.
   */
  private checkUnknownKey(src: YamlSource, path: PathSegment[], object: string | undefined, known: readonly string[]): void {
    const key = String(path[path.length - 1]);
    // A key holding a NUL is refused where it is read (NUL_CHARACTER): one error for one cause.
    if (key.includes('\u0000')) return;
    const published = publishedFieldsOf(object);
    if (published !== undefined && object !== undefined) {
      if (!published.includes(key) && !(this.allow.fields[allowKeyOf(object)] ?? []).includes(key)) this.reportUnknownApiField(src, path, object, [...new Set([...known, ...published])]);
      return;
    }
    const meant = likelyMeant(key, known);
    if (meant === undefined) return;
    this.report(
      'LIKELY_TYPO',
      `\`${key}\` is not a known field here and is sent to the API as is; did you mean \`${meant}\`?`,
      { src, path },
      'key',
      'unknown PascalCase fields pass through so that new API fields work; rename it if it is a typo',
    );
  }

  /**
   * An open list of the service's (values the schema offers, any string accepted: an operator group's
   * `authorizations`): a near miss of an offered value is a typo all the same.
   */
  private checkOpenEnum(src: YamlSource, path: PathSegment[], value: string, offered: readonly string[]): void {
    const last = path[path.length - 1];
    const field = typeof last === 'number' ? path[path.length - 2] : last;
    if (offered.includes(value) || typeof field !== 'string' || (this.allow.values[field] ?? []).includes(value)) return;
    const meant = likelyMeant(value, offered);
    if (meant === undefined) return;
    this.report(
      'INVALID_ENUM',
      `\`${field}: ${value}\` is not one of ${offered.join(', ')}; did you mean \`${meant}\`?`,
      { src, path },
      'value',
      `write \`${meant}\`; if the service really has \`${value}\`, let it through in monsync.yaml: allowUnknown: { values: { ${field}: [${value}] } }`,
    );
  }

  private reportUnknownApiField(src: YamlSource, path: PathSegment[], object: string, known: readonly string[]): void {
    const key = String(path[path.length - 1]);
    const meant = likelyMeant(key, known);
    const allowKey = allowKeyOf(object);
    this.report(
      'UNKNOWN_API_FIELD',
      `unknown field \`${key}\`: the service's published definition of ${object} has no such field${meant === undefined ? '' : `; did you mean \`${meant}\`?`}`,
      { src, path },
      'key',
      meant === undefined
        ? `fix the name, or if the service added this field after this release of monsync, let it through in monsync.yaml: allowUnknown: { fields: { ${allowKey}: [${key}] } }`
        : `rename it to ${meant}; if the service really added \`${key}\` after this release, let it through in monsync.yaml: allowUnknown: { fields: { ${allowKey}: [${key}] } }`,
    );
  }

  /**
   * A pass-through field holding a secret, at any depth (`Auth: { ClientSecret: ... }`), must be a reference;
   * `keys` are the field names down to `v` (list indexes left out).
   */
  private literalSecrets(src: YamlSource, keys: readonly string[], v: unknown, path: PathSegment[]): void {
    const key = keys[keys.length - 1] ?? '';
    if (typeof v === 'string' && v !== '' && isSecretLeaf(keys)) {
      this.#secretReported.add(placeKey({ src, path }));
      this.report('LITERAL_SECRET', `\`${key}\` looks like a secret and must be given by reference, not as a literal value`, { src, path }, 'value', LITERAL_SECRET_FIX);
    } else if (Array.isArray(v)) v.forEach((item, i) => this.literalSecrets(src, keys, item, [...path, i]));
    else if (isMapping(v) && !isSecretRefMapping(v) && !isNotSecretMapping(v)) for (const [k, w] of Object.entries(v)) this.literalSecrets(src, [...keys, k], w, [...path, k]);
  }

  private reportRenamedField(renamed: FieldRename, at: Located): void {
    const unit = renamed.unit === undefined ? '' : renamed.unit.factor === 1 ? ` (${renamed.unit.to}, as before)` : ` (in ${renamed.unit.to}: the value is converted)`;
    this.report(
      'RENAMED_FIELD',
      `\`${renamed.from}\` is the ${renamed.origin === 'v3' ? 'v3 API' : "spec's"} name; the service calls it \`${renamed.to}\`${unit} and drops \`${renamed.from}\`, so the plan would show it as a change forever (run \`monsync migrate\`)`,
      at,
      'key',
      `write \`${renamed.to}:\`; \`monsync migrate\` rewrites every such field, keeping comments and formatting`,
    );
  }

  // -------------------------------------------------------------------------------------------------------------

  finish(): DesiredState {
    this.checkDuplicates();
    this.checkReferences();
    this.checkPeopleReferences();
    this.checkResources();
    this.checkWritten();
    this.checkPeople();
    this.checkDutySchedules();
    this.checkAlertDefinitions();
    this.checkSecrets();
    this.checkManaged();
    const desired: DesiredState = { root: this.root, settings: this.settings, monitors: [], monitorGroups: [], vaultSections: [], slas: [], scheduledReports: [], alertDefinitions: [], operators: [], operatorGroups: [], rumWebsites: [] };
    for (const entry of topLevelKinds()) {
      // The config schema types each list's declarations (types.ts); here they are mappings as read.
      if (entry.stateField !== undefined) (desired[entry.stateField] as Declared<Mapping>[]) = this.of(entry).map((r) => r.declared);
    }
    if (this.settingsSource !== undefined) desired.settingsSource = this.settingsSource;
    const today = (this.options.now ?? new Date()).toISOString().slice(0, 10);
    const guards = this.policy.finish(KINDS_AS_LISTED.map((entry) => [entry, this.of(entry)] as const), this.settings, today);
    this.diagnostics.push(...guards.diagnostics);
    if (guards.protection.length > 0) desired.protection = guards.protection;
    if (guards.findings.length > 0) desired.policy = guards.findings;
    if (guards.planWaivers.length > 0) desired.planWaivers = guards.planWaivers;
    return desired;
  }

  private where(at: Located): string {
    const { line, column } = at.src.position(at.path);
    return `${at.src.file}:${line}:${column}`;
  }

  private unique<R extends Located & { key: unknown }>(records: readonly R[], what: string, keyField: string, keyOf: (r: R) => string | undefined, why = ''): void {
    const first = new Map<string, R>();
    // Keys that read the same (look-alike.ts): by their look-alike form, with the key that form was first seen as.
    const alike = new Map<string, { key: string; r: R }>();
    for (const r of records) {
      const key = keyOf(r);
      if (key === undefined) continue;
      const seen = first.get(key);
      if (seen === undefined) {
        first.set(key, r);
        const form = lookAlikeForm(key);
        const other = alike.get(form);
        if (other === undefined) alike.set(form, { key, r });
        else this.lookAlike(what, keyField, r, other.r);
      } else {
        const spelled = why !== '' && typeof r.key === 'string' && r.key !== seen.key;
        this.report('DUPLICATE_KEY', `${what} \`${why !== '' && typeof r.key === 'string' ? r.key : key}\` is declared twice${spelled ? why : ''}: here and at ${this.where({ src: seen.src, path: [...seen.path, keyField] })}`, { src: r.src, path: [...r.path, keyField] }, 'value', `${keyField} identifies the ${what}; rename or remove one of them`);
      }
    }
  }

  /** Two declarations whose keys differ only in characters nobody sees: an error naming both, the keys escaped. */
  private lookAlike(what: string, keyField: string, r: Located & { key: unknown }, seen: Located & { key: unknown }): void {
    const [key, earlier] = [String(r.key), String(seen.key)];
    this.report(
      'LOOKALIKE_KEY',
      `${what} ${JSON.stringify(key)} reads the same as ${JSON.stringify(earlier)} at ${this.where({ src: seen.src, path: [...seen.path, keyField] })}, but the service keeps them apart (${lookAlikeDifference(key, earlier)}): a plan would show two of them that nobody can tell apart`,
      { src: r.src, path: [...r.path, keyField] },
      'value',
      `${keyField} identifies the ${what}; write both names with plain spaces and no invisible characters, then rename or remove one`,
    );
  }

  private uniqueGuid(records: readonly Declaration[], what: string, guidField: string): void {
    const first = new Map<string, Located>();
    for (const r of records) {
      const guid = r.declared.value[guidField];
      if (typeof guid !== 'string') continue;
      const seen = first.get(guid.toLowerCase());
      if (seen === undefined) first.set(guid.toLowerCase(), r);
      else this.report('DUPLICATE_GUID', `${what} ${guidField} \`${guid}\` is pinned twice: here and at ${this.where({ src: seen.src, path: [...seen.path, guidField] })}`, { src: r.src, path: [...r.path, guidField] });
    }
  }

  private checkDuplicates(): void {
    for (const entry of KINDS_AS_LISTED) {
      const keyField = entry.keyField;
      if (keyField === undefined) continue; // a list of names: each must name a declared object (checkReferences)
      // A GUID names one object whatever the case of its hex digits (the service's paths ignore it).
      const caseless = keyField === entry.guidField;
      const keyOf = (key: string) => (caseless ? key.toLowerCase() : entry.keyIgnoresCase === true ? key.trim().toLowerCase() : key);
      // Keys are names, or numbers (an escalation level's Id).
      const written = (r: Declaration): string | undefined => (typeof r.key === 'string' ? r.key : typeof r.key === 'number' ? String(r.key) : undefined);
      this.unique(this.of(entry), entry.title.one, keyField, (r) => { const k = written(r); return k === undefined ? undefined : entry.parent !== undefined ? `${r.parentKey}/${k}` : keyOf(k); }, entry.keyIgnoresCase === true ? ' (the service compares them ignoring case and surrounding spaces)' : '');
    }
    for (const entry of KINDS_AS_LISTED) {
      if (entry.guidField === '' || entry.guidField === entry.keyField || entry.guidUnique !== 'account') continue;
      this.uniqueGuid(this.of(entry), entry.title.one, entry.guidField);
    }
    for (const entry of KINDS_AS_LISTED) for (const set of entry.setFields) this.uniqueInSets(entry, set);
  }

  /** Entries of a keyed set at the top of a declaration (a monitor's `ErrorConditions`) must differ in their key. */
  private uniqueInSets(entry: KindEntry, set: KindEntry['setFields'][number]): void {
    const [field, ...deeper] = set.path;
    const keyField = set.key;
    if (field === undefined || deeper.length > 0 || keyField === undefined) return;
    for (const m of this.of(entry)) {
      const list = m.declared.value[field];
      if (!Array.isArray(list)) continue;
      const first = new Map<string, number>();
      list.forEach((item, i) => {
        const key = isMapping(item) ? item[keyField] : undefined;
        if (typeof key !== 'string') return;
        const seen = first.get(key);
        if (seen === undefined) first.set(key, i);
        else {
          this.report('DUPLICATE_KEY', `${field} has two entries with ${keyField} \`${key}\`: here and at ${this.where({ src: m.src, path: [...m.path, field, seen, keyField] })}`, { src: m.src, path: [...m.path, field, i, keyField] }, 'value', `${field} is a set keyed by ${keyField}; keep one entry`);
        }
      });
    }
  }

  private checkReferences(): void {
    const monitorNames = this.of(MONITOR_KIND).map((m) => m.key).filter((k): k is string => typeof k === 'string');
    const monitorSet = new Set(monitorNames);
    for (const g of this.of(MONITOR_GROUP_KIND)) {
      const members = (g.declared.value as Mapping).members;
      if (!Array.isArray(members)) continue;
      members.forEach((member, i) => {
        if (typeof member !== 'string' || monitorSet.has(member)) return;
        this.unresolved(`member \`${member}\` of group \`${String(g.key)}\``, 'no declared monitor', likelyMeant(member, monitorNames), { src: g.src, path: [...g.path, 'members', i] }, 'members are monitor Names declared in this config tree');
      });
    }

    const itemsBySection = new Map<string, string[]>();
    for (const s of this.of(VAULT_SECTION_KIND)) if (typeof s.key === 'string') itemsBySection.set(s.key, []);
    for (const item of this.of(VAULT_ITEM_KIND)) if (typeof item.key === 'string') itemsBySection.get(item.parentKey)?.push(item.key);
    for (const m of this.of(MONITOR_KIND)) {
      const variables = (m.declared.value as Mapping).PredefinedVariables;
      if (!Array.isArray(variables)) continue;
      variables.forEach((variable, i) => {
        const ref = isMapping(variable) && isMapping(variable.Value) ? variable.Value.vault : undefined;
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
          this.unresolved(`vault reference \`${ref}\``, `no declared vault section \`${sectionName}\``, likelyMeant(sectionName, itemsBySection.keys()), at, 'declare the section under vault.sections');
        } else if (!items.includes(itemName)) {
          const meant = likelyMeant(itemName, items);
          this.unresolved(`vault reference \`${ref}\``, `no item \`${itemName}\` in section \`${sectionName}\``, meant === undefined ? undefined : `${sectionName}/${meant}`, at, 'declare the item under the section\'s items');
        }
      });
    }
  }

  /** Group members and vault access name declared operators (by Email, ignoring case) and groups (by Description). */
  private checkPeopleReferences(): void {
    const emails = this.of(OPERATOR_KIND).map((o) => o.key).filter((k): k is string => typeof k === 'string');
    const known = new Set(emails.map((e) => e.toLowerCase()));
    const groups = this.of(OPERATOR_GROUP_KIND).map((g) => g.key).filter((k): k is string => typeof k === 'string');
    const unknownOperator = (email: unknown, at: Located, what: string): void => {
      if (typeof email !== 'string' || known.has(email.toLowerCase())) return;
      this.unresolved(`${what} \`${email}\``, 'no declared operator', likelyMeant(email, emails), at, 'declare the operator under operators: (key: Email)');
    };
    for (const g of this.of(OPERATOR_GROUP_KIND)) {
      const members = (g.declared.value as Mapping).members;
      if (Array.isArray(members)) members.forEach((m, i) => unknownOperator(m, { src: g.src, path: [...g.path, 'members', i] }, `member of operator group \`${String(g.key)}\``));
    }
    for (const s of this.of(VAULT_SECTION_KIND)) {
      const access = (s.declared.value as Mapping).access;
      if (!Array.isArray(access)) continue;
      access.forEach((a, i) => {
        if (!isMapping(a)) return;
        const at = (field: string): Located => ({ src: s.src, path: [...s.path, 'access', i, field] });
        // The key of an operator's access is the kind's name (`operator: <Email>`).
        unknownOperator(a.operator, at(OPERATOR_KIND.kind), `access to vault section \`${String(s.key)}\` of operator`);
        if (typeof a.group === 'string' && !groups.includes(a.group)) {
          this.unresolved(`access to vault section \`${String(s.key)}\` of group \`${a.group}\``, 'no declared operator group', likelyMeant(a.group, groups), at('group'), 'declare the group under operatorGroups: (key: Description)');
        }
      });
    }
  }

  /** What the service never lets a client do to groups: change Everyone, assign Administrator; one way to name a phone number. */
  private checkPeople(): void {
    for (const o of this.of(OPERATOR_KIND)) {
      const value = o.declared.value as Mapping;
      this.unassignable(value.authorizations, { src: o.src, path: [...o.path, 'authorizations'] });
      if (value.outgoingPhoneNumber === undefined || value.OutgoingPhoneNumberId === undefined) continue;
      this.report(
        'CONFLICTING_FIELDS',
        '`outgoingPhoneNumber` and `OutgoingPhoneNumberId` both set the number alerts are sent from',
        { src: o.src, path: [...o.path, 'outgoingPhoneNumber'] },
        'key',
        'keep one: `outgoingPhoneNumber` names the number, `OutgoingPhoneNumberId` is its id in GET /OutgoingPhoneNumber',
      );
    }
    for (const g of this.of(OPERATOR_GROUP_KIND)) {
      const value = g.declared.value as Mapping;
      if (typeof value.Description === 'string' && value.Description.trim().toLowerCase() === 'everyone') {
        this.report('EVERYONE_GROUP', 'the system group Everyone cannot be declared: every operator is a member and the group cannot be changed', { src: g.src, path: [...g.path, 'Description'] }, 'value', 'remove this group; use another group');
      }
      this.unassignable(value.authorizations, { src: g.src, path: [...g.path, 'authorizations'] });
    }
  }

  /** An operator's or a group's `authorizations` naming a type the service never lets a client assign. */
  private unassignable(authorizations: unknown, at: Located): void {
    if (!Array.isArray(authorizations)) return;
    authorizations.forEach((type, i) => {
      if (!(UNASSIGNABLE_AUTHORIZATION_TYPES as readonly unknown[]).includes(type)) return;
      this.report(
        'AUTHORIZATION_NOT_ASSIGNABLE',
        `the authorization \`${String(type)}\` cannot be assigned: the service gives it only to the Administrators group and the account administrator`,
        { src: at.src, path: [...at.path, i] },
        'value',
        'to make someone an administrator, list their Email in the members of the group `Administrators`',
      );
    });
  }

  /**
   * Duty schedules of operators and groups: the fields of each mode, no `Id` (a schedule is known by its content), no
   * schedule twice in one list, and `members` on a group that declares them (its schedules are copies on them).
   */
  private checkDutySchedules(): void {
    const declarations = [...this.of(OPERATOR_KIND).map((d) => ({ d, group: false })), ...this.of(OPERATOR_GROUP_KIND).map((d) => ({ d, group: true }))];
    for (const { d: declaration, group } of declarations) {
      const value = declaration.declared.value as Mapping;
      const schedules = value.dutySchedules;
      if (!Array.isArray(schedules)) continue;
      const at = (i: number): Located => ({ src: declaration.src, path: [...declaration.path, 'dutySchedules', i] });
      const seen = new Map<string, number>();
      schedules.forEach((schedule, i) => {
        if (!isMapping(schedule)) return;
        this.findings(checkDutySchedule(schedule), at(i));
        if (schedule.Id !== undefined) {
          this.report('SCHEDULE_FIELD_UNEXPECTED', 'a duty schedule is known by its content, and `Id` is assigned by the service; remove it', { ...at(i), path: [...at(i).path, 'Id'] }, 'key');
        }
        const label = dutyLabel(dutyContent(schedule));
        const first = seen.get(label);
        if (first === undefined) seen.set(label, i);
        else this.report('DUPLICATE_ITEM', `the duty schedule ${label} is declared twice in this list: here and at ${this.where(at(first))}`, at(i), 'value', 'a schedule is known by its content; keep one of them');
      });
      if (group && !Array.isArray(value.members)) {
        this.report(
          'DUTY_SCHEDULES_WITHOUT_MEMBERS',
          `operator group \`${String(declaration.key)}\` declares dutySchedules but no members: the service keeps a group's schedules only as copies on its members, so monsync copies them onto the members it is given`,
          { src: declaration.src, path: [...declaration.path, 'dutySchedules'] },
          'key',
          'add `members:` with the e-mails of the operators who take these schedules',
        );
      }
    }
  }

  /** A definition is named (`AlertName`) or, in the older form, pinned by its GUID alone. */
  private checkAlertDefinitions(): void {
    for (const d of this.of(ALERT_DEFINITION_KIND)) {
      const value = d.declared.value as Mapping;
      if (value.AlertName !== undefined || value.AlertDefinitionGuid !== undefined) continue;
      this.report(
        'MISSING_FIELD',
        'an alert definition needs `AlertName` (its key), or, in the older form, `AlertDefinitionGuid`',
        d,
        'value',
        'add `AlertName:` with the name the web app shows; `monsync pull --into` writes the named form of an existing definition',
      );
    }
  }

  private findings(findings: readonly Finding[], at: Located): void {
    for (const f of findings) this.report(f.code, f.message, f.field === undefined ? at : { src: at.src, path: [...at.path, f.field] }, f.code === 'SCHEDULE_FIELD_UNEXPECTED' ? 'key' : 'value');
  }

  /**
   * A load-time limit counts milliseconds (the vendor's provider: `"3500"`); one under 100 was almost surely written
   * in seconds, and would alert on every check. A warning, not an error: a limit of 50 ms may be meant.
   */
  private checkLoadTimes(m: Declaration): void {
    const conditions = (m.declared.value as Mapping).ErrorConditions;
    if (!Array.isArray(conditions)) return;
    conditions.forEach((condition, i) => {
      if (!isMapping(condition)) return;
      const type = condition.ErrorConditionType;
      const value = condition.Value;
      if ((type !== 'LoadTimeLimit1' && type !== 'LoadTimeLimit2') || typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value.trim())) return;
      const ms = Number(value);
      if (ms >= 100) return;
      this.report(
        'LOAD_TIME_IN_SECONDS',
        `${type} Value "${value}" is ${value} milliseconds: the service reads load-time limits in milliseconds, so this alerts whenever a page takes longer than ${value} ms`,
        { src: m.src, path: [...m.path, 'ErrorConditions', i, 'Value'] },
        'value',
        `write the limit in milliseconds, e.g. Value: "${Math.round(ms * 1000)}" for ${value} seconds`,
      );
    });
  }

  private checkResources(): void {
    for (const g of this.of(MONITOR_GROUP_KIND)) {
      const value = g.declared.value as Mapping;
      if (value.IsAll === true) {
        this.report('ALL_MONITORS_GROUP', 'the All Monitors group (IsAll: true) cannot be declared: it holds every monitor and its membership cannot be changed', { src: g.src, path: [...g.path, 'IsAll'] }, 'key', 'remove this group; use another group to target monitors');
      } else if (typeof value.Description === 'string' && value.Description.trim().toLowerCase() === 'all monitors') {
        this.report('ALL_MONITORS_GROUP', 'a group named `All Monitors` would target the default All Monitors group, whose membership cannot be changed', { src: g.src, path: [...g.path, 'Description'] }, 'value', 'choose another Description');
      }
    }
    for (const m of this.of(MONITOR_KIND)) this.checkLoadTimes(m);
    for (const s of this.of(SLA_KIND)) this.findings(checkSlaThresholds(s.declared.value), s);
    for (const p of this.of(SLA_EXCLUSION_PERIOD_KIND)) this.findings(checkExclusionPeriod(p.declared.value), p);
    for (const w of this.of(RUM_WEBSITE_KIND)) this.findings(checkRumWebsite(w.declared.value), w);
    for (const r of this.of(SCHEDULED_REPORT_KIND)) {
      const schedule = (r.declared.value as Mapping).Schedule;
      this.findings(checkReportSchedule(schedule), { src: r.src, path: [...r.path, 'Schedule'] });
    }
    for (const item of this.of(VAULT_ITEM_KIND)) {
      const value = item.declared.value as Mapping;
      const type = value.VaultItemType;
      const archive = isMapping(value.CertificateArchive) ? value.CertificateArchive : undefined;
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

  /** Blank keys, hand-written vault placeholders and literals that look like secrets, in every declaration of every kind. */
  private checkWritten(): void {
    for (const entry of KINDS_AS_LISTED) {
      const children = new Set(childKinds(entry).map((child) => child.path[child.path.length - 1]));
      for (const d of this.of(entry)) {
        if (entry.keyField !== undefined && typeof d.key === 'string' && d.key !== '' && d.key.trim() === '') {
          this.report('EMPTY_VALUE', `\`${entry.keyField}\` is blank: it names the ${entry.title.one}, so it needs a visible name`, { src: d.src, path: [...d.path, entry.keyField] }, 'value', `write a ${entry.keyField} with letters or digits`);
        }
        for (const [field, value] of Object.entries(d.declared.value)) {
          if (!children.has(field)) this.checkValues(value, { src: d.src, path: [...d.path, field] });
        }
      }
    }
  }

  /**
   * Every value below a declared field: a `{{vault:<guid>}}` written by hand (what monsync sends, which bypasses the
   * reference check and the item's declaration), and a literal that looks like a secret where none is expected (a
   * credential-shaped string; the `Value` of an entry whose `Key` or `Name` names a credential).
   */
  private checkValues(value: unknown, at: Located): void {
    if (typeof value === 'string') {
      if (/\{\{\s*vault:/i.test(value)) {
        this.report('VAULT_PLACEHOLDER_WRITTEN', 'a vault placeholder `{{vault:...}}` is written by hand: monsync cannot check that the item exists or keep it when the item is replaced', at, 'value', 'write `Value: { vault: Section/Item }` naming a declared vault item');
      }
      const shape = secretShape(value);
      if (shape !== undefined) this.literalSecret(at, `\`${String(at.path.findLast((segment) => typeof segment === 'string'))}\` holds ${SECRET_SHAPE_TEXT[shape]} written as a literal`);
    } else if (Array.isArray(value)) value.forEach((v, i) => this.checkValues(v, { src: at.src, path: [...at.path, i] }));
    else if (isMapping(value) && !(value instanceof Secret)) {
      const named = secretPairName(value);
      if (named !== undefined && typeof value.Value === 'string' && value.Value !== '') {
        this.literalSecret({ src: at.src, path: [...at.path, 'Value'] }, `the \`Value\` of \`${named}\` is a literal, and its name says it is a credential`);
      }
      for (const [k, v] of Object.entries(value)) this.checkValues(v, { src: at.src, path: [...at.path, k] });
    }
  }

  /** A literal that looks like a secret, reported once, never quoting it; not when written `{ literal, notSecret }`. */
  private literalSecret(at: Located, what: string): void {
    const place = placeKey(at);
    if (this.#notSecret.has(place) || this.#secretReported.has(place)) return;
    this.#secretReported.add(place);
    this.report('LITERAL_SECRET', `${what}: it would be sent, stored and shown in plans and comments in clear`, at, 'value', LITERAL_SECRET_FIX);
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
          // Plan and apply need a value only where they send or compare it, which the plan knows (SECRET_UNAVAILABLE there).
          if (!needed) this.report('ENV_VAR_UNSET', `environment variable ${ref.fromEnv} is not set; plan and apply will need it`, at, 'value', `set ${ref.fromEnv} where monsync plans and applies`);
        } else if (vaultFile && needed && Buffer.from(value, 'base64').length > MAX_VAULT_FILE_BYTES) {
          this.report('VAULT_FILE_TOO_LARGE', `the File item read from ${ref.fromEnv} is larger than 2 MB`, at);
        }
        continue;
      }
      this.checkSecretFile(secret, at, vaultFile, needed);
    }
  }

  /** A `fromFile` secret: judged by what the path is (stat, never open) before it is read, if its value is needed. */
  private checkSecretFile(secret: Secret, at: Located, vaultFile: boolean, needed: boolean): void {
    const ref = secret.ref as { fromFile: string };
    const fieldAt = { src: at.src, path: [...at.path, 'fromFile'] };
    const path = secret.filePath() ?? '';
    const real = fromFileRealProblem(path, this.root);
    if (real !== undefined) {
      this.refuseFromFile(ref.fromFile, real === 'outside' ? 'linked-out' : real, fieldAt);
      return;
    }
    let stat: Stats;
    try {
      stat = statSync(path);
    } catch {
      if (!needed) this.report('SECRET_FILE_MISSING', `secret ${secret.describe()} does not exist; plan and apply will need it`, at, 'value', 'the path is relative to the YAML file that names it');
      return;
    }
    if (!stat.isFile()) {
      // Never read: a folder cannot be, and reading a pipe or a device would block or never end.
      this.report('SECRET_FILE_NOT_REGULAR', `\`fromFile\` path \`${ref.fromFile}\` is ${fileKind(stat)}, not a file`, fieldAt, 'value', 'name the regular file that holds the secret, relative to this YAML file');
    } else if (vaultFile && stat.size > MAX_VAULT_FILE_BYTES) {
      this.report('VAULT_FILE_TOO_LARGE', `${secret.describe()} is ${(stat.size / 1024 / 1024).toFixed(1)} MB; File vault items hold at most 2 MB`, at);
    } else if (!vaultFile && stat.size > MAX_SECRET_FILE_BYTES) {
      this.report(
        'SECRET_FILE_TOO_LARGE',
        `\`fromFile\` path \`${ref.fromFile}\` is ${stat.size} bytes; a secret file holds at most ${sizeLabel(MAX_SECRET_FILE_BYTES)} (a File vault item ${sizeLabel(MAX_VAULT_FILE_BYTES)}), so it is not read`,
        fieldAt,
        'value',
        'check that the path names the secret (a password, token, certificate or key archive), not another file',
      );
    } else if (needed && !secret.isAvailable()) {
      this.report('SECRET_UNAVAILABLE', `secret ${secret.describe()} cannot be read and its value is needed`, at);
    }
  }

  private checkManaged(): void {
    if (!this.settingsRead) return;
    const declared = topLevelKinds().map((entry) => [entry.section, this.of(entry), entry.title.many] as const);
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

function resolveSchema(schema: unknown): Mapping | undefined {
  if (!isMapping(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const target = configJsonSchema().$defs[ref.slice('#/$defs/'.length)];
    return isMapping(target) ? target : undefined;
  }
  return schema;
}

/** The branch of a union that fits the value's type, as written (a `$ref` keeps the name of its definition). */
function pickBranch(branches: unknown[], value: unknown): unknown {
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  const fitting = branches.filter((branch) => {
    const b = resolveSchema(branch);
    return b !== undefined && (b.type === type || (type === 'object' && b.type === undefined && isMapping(b.properties)));
  });
  return fitting.length === 1 ? fitting[0] : undefined;
}

/** The values an open list offers (`OpenEnum`: an enum branch beside a plain string), or undefined for another union. */
function openEnumValues(branches: unknown[]): string[] | undefined {
  if (branches.length !== 2) return undefined;
  const [offered, any] = branches.map(resolveSchema);
  if (offered === undefined || any === undefined || !Array.isArray(offered.enum) || any.type !== 'string' || any.enum !== undefined || any.pattern !== undefined) return undefined;
  return offered.enum.filter((v): v is string => typeof v === 'string');
}

/** The name of the definition a schema node refers to (`{ $ref: '#/$defs/Monitor' }` -> `Monitor`). */
function definitionOf(schema: unknown): string | undefined {
  if (!isMapping(schema) || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#/$defs/')) return undefined;
  return schema.$ref.slice('#/$defs/'.length);
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
  return { desired, diagnostics: sortDiagnostics(assembler.diagnostics), files, sources: new Map(texts.map((t) => [t.file, t.text])) };
}
