import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { compileConfigValidator } from './compile-validator.js';
import { GUID_PATTERN, OPERATOR_REFUSED_FIELDS, REMOVED_MONITOR_FIELDS, TIMESTAMP_PATTERN, IGNORE_KINDS, IGNORE_PATTERN, REPORT_KEY_PATTERN, UNASSIGNABLE_AUTHORIZATION_TYPES } from './config-schema.js';
import type { Diagnostic, DiagnosticCode } from './diagnostics.js';
import { DIAGNOSTIC_CODES } from './diagnostics.js';
import { configJsonSchema } from './render-schemas.js';
import { conformsToSchema } from './schema-conforms.js';
import { likelyMeant } from './suggest.js';
import { wireKindAt } from './wire-kinds.js';
import { valueRename } from '@monsync/client/wire';
import { pointerToPath, type PathSegment, type YamlSource } from './yaml-source.js';
import { NOTHING_ALLOWED, type AllowUnknown } from './published-fields.js';

let compiled: ValidateFunction | undefined;

/** The config schema, compiled once for the process. */
export function configValidator(): ValidateFunction {
  compiled ??= compileConfigValidator();
  return compiled;
}

type SchemaNode = Record<string, unknown>;

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

const A_TYPE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'empty',
};

function describeType(value: unknown): string {
  const type = jsonType(value);
  return type === 'integer' ? 'a number' : (A_TYPE[type] ?? type);
}

/** A readable name for the place: `UserAgent`, `monitors[2]`, or `the file`. */
function label(path: readonly PathSegment[]): string {
  if (path.length === 0) return 'the file';
  const last = path[path.length - 1];
  if (typeof last === 'number') {
    const parent = path[path.length - 2];
    return parent === undefined ? `item ${last + 1}` : `${String(parent)}[${last}]`;
  }
  return String(last);
}

function typeMatches(branch: SchemaNode, value: unknown): boolean {
  const type = branch.type;
  if (typeof type !== 'string') return true;
  const actual = jsonType(value);
  return type === actual || (type === 'number' && actual === 'integer');
}

function isRefusedField(schema: unknown): boolean {
  return schema !== null && typeof schema === 'object' && Object.hasOwn(schema, 'not');
}

/** The definition a `{ $ref: '#/$defs/Name' }` branch points at. */
function refTarget(branch: SchemaNode): { name: string; node: SchemaNode } | undefined {
  const ref = branch.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return undefined;
  const name = ref.slice('#/$defs/'.length);
  const node = (configJsonSchema().$defs as Record<string, unknown>)[name];
  return node !== null && typeof node === 'object' ? { name, node: node as SchemaNode } : undefined;
}

/** Whether a value has the shape (type and required keys) of a union branch, so that branch's errors are the ones to show. */
function fits(branch: SchemaNode, value: unknown, depth = 0): boolean {
  const target = depth < 4 ? refTarget(branch) : undefined;
  if (target !== undefined) return fits(target.node, value, depth + 1);
  if (Array.isArray(branch.anyOf)) return (branch.anyOf as SchemaNode[]).some((sub) => fits(sub, value, depth + 1));
  if (!typeMatches(branch, value)) return false;
  const required = Array.isArray(branch.required) ? (branch.required as string[]) : [];
  return typeof value !== 'object' || value === null || required.every((key) => Object.hasOwn(value, key));
}

/** GUID fields that pin an entry's identity (as opposed to naming another object, like `DashboardGuid`). */
const PIN_FIELDS = new Set(['MonitorGuid', 'MonitorGroupGuid', 'VaultSectionGuid', 'VaultItemGuid', 'SlaGuid', 'ScheduledReportGuid']);

/** The value as a message quotes it: short, on one line. */
function quoted(value: unknown): string {
  if (typeof value !== 'string') return describeType(value);
  if (value === '') return 'an empty string';
  const line = value.replace(/\s+/g, ' ');
  return `\`${line.length > 60 ? `${line.slice(0, 57)}...` : line}\``;
}

const SECRET_HINT = 'write `{ fromEnv: NAME }` (an environment variable) or `{ fromFile: path }` (a file relative to this YAML file)';

/**
 * Turns ajv's errors into diagnostics positioned on the YAML nodes. Union errors are collapsed into one
 * message (or into the errors of the one branch that fits the value's type), so that a user sees one line per
 * mistake.
 */
export function schemaDiagnostics(source: YamlSource, allow: AllowUnknown = NOTHING_ALLOWED): Diagnostic[] {
  const value = source.value === undefined || source.value === null ? {} : source.value;
  // A file the schema's own walk accepts, ajv accepts too: its validator is loaded (and, bundled, parsed) only for a
  // file with something to report.
  if (conformsToSchema(configJsonSchema(), value)) return [];
  const validate = configValidator();
  if (validate(value)) return [];
  const errors = [...(validate.errors ?? [])];
  const dropped = new Set<ErrorObject>();

  for (const error of errors) {
    if (error.keyword !== 'anyOf' || dropped.has(error)) continue;
    // ajv reports errors inside a `$ref` branch under the definition's path, not under the anyOf's.
    const branches = ((error.schema as SchemaNode[] | undefined) ?? []).map((branch, index) => {
      const target = refTarget(branch);
      return target === undefined
        ? { node: branch, prefix: `${error.schemaPath}/${index}/` }
        : { node: target.node, prefix: `#/$defs/${target.name}/` };
    });
    const under = (e: ErrorObject) =>
      e !== error && e.instancePath.startsWith(error.instancePath) && (e.schemaPath.startsWith(`${error.schemaPath}/`) || branches.some((b) => e.schemaPath.startsWith(b.prefix)));
    const fitting = branches.filter(({ node }) => fits(node, error.data));
    const chosen = fitting.length === 1 ? fitting[0] : undefined;
    for (const e of errors) {
      if (!under(e)) continue;
      if (chosen !== undefined && e.schemaPath.startsWith(chosen.prefix)) continue;
      dropped.add(e);
    }
    if (chosen !== undefined) dropped.add(error);
  }

  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (dropped.has(error) || allowedValue(error, allow) || unassignable(error)) continue;
    const diagnostic = toDiagnostic(source, error);
    if (diagnostic === undefined || source.isRefused(diagnostic.line, diagnostic.column)) continue;
    const key = `${diagnostic.line}:${diagnostic.column}:${diagnostic.code}:${diagnostic.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}

/** The field an enum value belongs to: the key holding it, or holding the list it is in. */
function enumField(path: readonly PathSegment[]): string | undefined {
  const last = path[path.length - 1];
  const field = typeof last === 'number' ? path[path.length - 2] : last;
  return typeof field === 'string' ? field : undefined;
}

/** A value outside an enum that monsync.yaml lets through (`allowUnknown.values`), compared exactly. */
function allowedValue(error: ErrorObject, allow: AllowUnknown): boolean {
  if (error.keyword !== 'enum' || typeof error.data !== 'string') return false;
  const field = enumField(pointerToPath(error.instancePath));
  return field !== undefined && (allow.values[field] ?? []).includes(error.data);
}

/**
 * `AccountAdministrator` in an operator's `authorizations`: outside the enum, but the loader says why it can never be
 * assigned (`AUTHORIZATION_NOT_ASSIGNABLE`), which is more use than the list of the values that can.
 */
function unassignable(error: ErrorObject): boolean {
  return error.keyword === 'enum' && enumField(pointerToPath(error.instancePath)) === 'authorizations' && (UNASSIGNABLE_AUTHORIZATION_TYPES as readonly unknown[]).includes(error.data);
}

/** Builds a diagnostic of the file at a path of it. */
type Make = (code: DiagnosticCode, message: string, at: readonly PathSegment[], where?: 'value' | 'key', hint?: string) => Diagnostic;

function toDiagnostic(source: YamlSource, error: ErrorObject): Diagnostic | undefined {
  const path = pointerToPath(error.instancePath);
  const parent = (error.parentSchema ?? {}) as SchemaNode;
  const name = label(path);
  const make: Make = (code, message, at, where = 'value', hint) => {
    const pos = source.position(at, where);
    const diagnostic: Diagnostic = { severity: DIAGNOSTIC_CODES[code].severity, code, message, file: source.file, ...pos };
    if (hint !== undefined) diagnostic.hint = hint;
    return diagnostic;
  };

  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
      const what = typeof parent.title === 'string' && parent.title !== 'monsync config file' ? `${parent.title} ${name}` : name;
      return make('MISSING_FIELD', `${what} is missing the required field \`${missing}\``, path, 'value', `add \`${missing}:\` to this mapping`);
    }
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      const properties = (parent.properties as SchemaNode | undefined) ?? {};
      // Removed and obsolete fields are in the schema only to be refused: never suggest them.
      const known = Object.keys(properties).filter((k) => !(k in REMOVED_MONITOR_FIELDS) && !isRefusedField(properties[k]));
      const meant = likelyMeant(key, known);
      const where = path.length === 0 ? 'at the top level' : `in ${name}`;
      const message = meant !== undefined ? `unknown field \`${key}\` ${where}; did you mean \`${meant}\`?` : `unknown field \`${key}\` ${where}`;
      const passes = (parent.patternProperties as SchemaNode | undefined) !== undefined;
      const hint = passes
        ? `known fields here: ${known.join(', ')}; camelCase keys are monsync's own, PascalCase keys are API fields and unknown ones are passed through`
        : `known keys here: ${known.join(', ')}`;
      return make('UNKNOWN_FIELD', message, [...path, key], 'key', hint);
    }
    case 'not':
      return refusedField(make, path, name);
    case 'enum': {
      const kind = wireKindAt(path);
      const field = path[path.length - 1];
      const renamed = kind === undefined || typeof field !== 'string' ? undefined : valueRename(kind, field, error.data);
      if (renamed !== undefined) {
        return make(
          'RENAMED_VALUE',
          `\`${field}: ${renamed.from}\` is the spec's spelling; the service spells it \`${renamed.to}\` and refuses this one (run \`monsync migrate\`)`,
          path,
          'value',
          `write \`${renamed.to}\`; \`monsync migrate\` rewrites every such value, keeping comments and formatting`,
        );
      }
      const allowed = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
      const got = typeof error.data === 'string' || typeof error.data === 'number' ? String(error.data) : describeType(error.data);
      const meant = typeof error.data === 'string' ? likelyMeant(error.data, allowed) : undefined;
      const shown = allowed.map((v) => (v === '' ? '""' : v)).join(', ');
      const message = `\`${name}\` must be one of ${shown} (got \`${got}\`)${meant !== undefined ? `; did you mean \`${meant}\`?` : ''}`;
      const named = enumField(path);
      // Only where a string names a value of an API field (PascalCase) can the service have added one since.
      const hint =
        typeof error.data === 'string' && named !== undefined && /^[A-Z]/.test(named)
          ? `${meant === undefined ? 'use one of the values listed' : `write \`${meant}\``}; if the service added \`${error.data}\` after this release of monsync, let it through in monsync.yaml: allowUnknown: { values: { ${named}: [${error.data}] } }`
          : undefined;
      return make('INVALID_ENUM', message, path, 'value', hint);
    }
    case 'const':
      return make('INVALID_VALUE', `\`${name}\` must be \`${String((error.params as { allowedValue?: unknown }).allowedValue)}\``, path);
    case 'type': {
      const expected = String((error.params as { type?: unknown }).type)
        .split(',')
        .map((t) => A_TYPE[t] ?? t)
        .join(' or ');
      const wanted = String((error.params as { type?: unknown }).type);
      const hint =
        wanted === 'string' && (typeof error.data === 'number' || typeof error.data === 'boolean')
          ? 'quote the value ("4") so that YAML keeps it a string'
          : wanted === 'boolean' && typeof error.data === 'string'
            ? 'write true or false without quotes (YAML 1.2: yes/no/on/off are strings)'
            : undefined;
      return make('TYPE_MISMATCH', `\`${name}\` must be ${expected}, not ${describeType(error.data)}`, path, 'value', hint);
    }
    case 'pattern':
      return patternMismatch(make, error, path, name, parent);
    case 'format':
      if ((error.params as { format?: unknown }).format === 'email') {
        return make('INVALID_EMAIL', `\`${typeof error.data === 'string' ? error.data : describeType(error.data)}\` is not a valid e-mail address`, path);
      }
      return make('INVALID_FORMAT', `\`${name}\` does not have the expected format`, path);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const min = parent.minimum;
      const max = parent.maximum;
      const range = typeof min === 'number' && typeof max === 'number' ? `between ${min} and ${max}` : typeof min === 'number' ? `at least ${min}` : `at most ${String(max)}`;
      return make('OUT_OF_RANGE', `\`${name}\` must be ${range} (got ${String(error.data)})`, path);
    }
    case 'minLength':
    case 'minItems':
      return make('EMPTY_VALUE', `\`${name}\` must not be empty`, path);
    case 'maxLength':
      return make('VALUE_TOO_LONG', `\`${name}\` is longer than ${String(parent.maxLength)} characters`, path);
    case 'uniqueItems': {
      const { j } = error.params as { i: number; j: number };
      const items = Array.isArray(error.data) ? error.data : [];
      return make('DUPLICATE_ITEM', `\`${name}\` lists \`${String(items[j])}\` more than once`, [...path, j]);
    }
    case 'anyOf': {
      if (parent.title === 'SecretRef') {
        if (error.data === null || typeof error.data !== 'object') {
          return make('LITERAL_SECRET', `\`${name}\` is a secret and must be given by reference, not as a literal value`, path, 'value', SECRET_HINT);
        }
        return make('INVALID_VALUE', `\`${name}\` must be a secret reference with exactly one of fromEnv or fromFile`, path, 'value', SECRET_HINT);
      }
      const description = typeof parent.description === 'string' ? `: ${parent.description}` : '';
      return make('INVALID_VALUE', `\`${name}\` has none of the accepted forms${description}`, path);
    }
    default:
      return make('INVALID_VALUE', `\`${name}\` ${error.message ?? 'is not valid'}`, path);
  }
}

/** A field the schema has only to refuse it: removed by the service, obsolete, or not allowed here. */
function refusedField(make: Make, path: readonly PathSegment[], name: string): Diagnostic {
    const field = path[path.length - 1];
    if (typeof field === 'string' && field in REMOVED_MONITOR_FIELDS) {
      const replacement = REMOVED_MONITOR_FIELDS[field as keyof typeof REMOVED_MONITOR_FIELDS];
      return make(
        'REMOVED_FIELD',
        `\`${field}\` was removed by the service on 2025-08-27; use an ErrorConditions entry of type ${replacement} (run \`monsync migrate\`)`,
        path,
        'key',
        '`monsync migrate` rewrites these fields into ErrorConditions, keeping comments and formatting',
      );
    }
    if (typeof field === 'string' && field in OPERATOR_REFUSED_FIELDS && path[0] === 'operators') {
      return make('OPERATOR_FIELD_REFUSED', `\`${field}\` ${OPERATOR_REFUSED_FIELDS[field as keyof typeof OPERATOR_REFUSED_FIELDS]}`, path, 'key');
    }
    if (field === 'RumScript' && path[0] === 'rumWebsites') {
      return make(
        'GENERATED_FIELD',
        '`RumScript` is the snippet the service makes for each RUM website to embed; monsync never sends it',
        path,
        'key',
        'remove `RumScript:`; the web app shows the script of each website',
      );
    }
    if (field === 'Sensitive' && path[path.length - 3] === 'PredefinedVariables') {
      return make(
        'OBSOLETE_FIELD',
        '`Sensitive` on a monitor variable is obsolete for multi-step API monitors and must not be sent: the service rejects the monitor (400), and apply would fail after other writes were made',
        path,
        'key',
        'remove `Sensitive:`; to keep the value out of the file use `Value: { fromEnv: NAME }` or a vault item `Value: { vault: Section/Item }`',
      );
    }
    return make('INVALID_VALUE', `\`${name}\` is not allowed here`, path, 'key');
}

/** A string of the wrong form, said in the words of the form expected (timestamp, time, GUID, key, reference). */
function patternMismatch(make: Make, error: ErrorObject, path: readonly PathSegment[], name: string, parent: SchemaNode): Diagnostic {
    const pattern = String((error.params as { pattern?: unknown }).pattern);
    if (pattern === TIMESTAMP_PATTERN) {
      return make('INVALID_TIMESTAMP', `\`${name}\` must be a timestamp YYYY-MM-DDTHH:MM:SS (no time zone, no milliseconds)`, path, 'value', 'e.g. "2026-11-27T00:00:00"');
    }
    if (pattern.includes('[0-5][0-9]')) {
      const form = pattern.endsWith(':[0-5][0-9]:[0-5][0-9]$') ? 'HH:MM:SS' : 'HH:mm';
      return make('INVALID_TIME', `\`${name}\` must be a 24-hour time ${form}`, path, 'value', 'quote it ("08:00:00") so YAML keeps it a string');
    }
    if (pattern === IGNORE_PATTERN) {
      const what = path[0] === 'protect' ? 'protect' : 'ignore';
      return make('INVALID_IGNORE_PATTERN', `${what} pattern \`${String(error.data)}\` must be kind:glob with a singular kind`, path, 'value', `e.g. monitor:${what === 'protect' ? 'prod' : 'legacy'}-*; kinds: ${IGNORE_KINDS.join(', ')}`);
    }
    if (pattern === GUID_PATTERN) {
      const field = typeof path[path.length - 1] === 'number' ? path[path.length - 2] : path[path.length - 1];
      const hint = PIN_FIELDS.has(String(field))
        ? `a pin is the GUID of an existing object as the API returns it (e.g. 3f2a7c1e-5b9d-4e8a-a1c2-0d9e8f7a6b5c); remove \`${String(field)}\` to match by key instead`
        : 'copy the GUID from the service; it looks like 3f2a7c1e-5b9d-4e8a-a1c2-0d9e8f7a6b5c';
      return make('INVALID_GUID', `\`${name}\` must be a GUID (8-4-4-4-12 hexadecimal digits), not ${quoted(error.data)}`, path, 'value', hint);
    }
    if (pattern === REPORT_KEY_PATTERN) {
      return make('INVALID_KEY', `report key \`${String(error.data)}\` may hold only letters, digits, ".", "_" and "-", starting with a letter or digit`, path);
    }
    if (name === 'fromEnv') return make('INVALID_REFERENCE', '`fromEnv` must be an environment variable name (letters, digits, _)', path);
    if (name === 'vault') return make('INVALID_REFERENCE', `vault reference \`${String(error.data)}\` must be Section/Item`, path, 'value', 'the section Name, a slash, the item Name');
    return make('INVALID_FORMAT', `\`${name}\` does not have the expected format`, path, 'value', typeof parent.description === 'string' ? parent.description : undefined);
}
