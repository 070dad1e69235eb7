import { EMAIL_PATTERN } from './email.js';

/**
 * Whether a value conforms to a JSON Schema document, by walking the schema itself: the quick answer for the common
 * case of a valid config file. The precompiled validator (ajv's generated code, about 400 KB) costs a `monsync
 * validate` more to parse and compile on a first run than to run; a file this walk accepts never needs it, and a
 * file it refuses goes to ajv, which finds and describes the errors (validate.ts).
 *
 * Each keyword reads as ajv's generated code reads it (options of compile-validator.ts; string lengths in code points
 * and deep equality as ajv's runtime helpers count and compare them). A keyword or `$ref` it does not know makes the answer "does not conform", so the
 * walk can only send a file to ajv, never let through one that ajv refuses (test/schema-conforms.test.ts compares the
 * two on every fixture and on mutations of the demo tree).
 */
export function conformsToSchema(document: JsonSchemaDocument, value: unknown): boolean {
  return conforms(document, document, value);
}

export interface JsonSchemaDocument {
  $defs?: Record<string, unknown>;
  [keyword: string]: unknown;
}

type Node = Record<string, unknown>;

/** Keywords that only annotate (and the document's own `$defs`, reached through `$ref`). */
const ANNOTATIONS = new Set(['$schema', '$id', '$defs', 'title', 'description', 'deprecated', 'default', 'examples']);

const patterns = new Map<string, RegExp>();

/** A `pattern` or `patternProperties` key, compiled as ajv compiles it (the `u` flag), once. */
function pattern(source: string): RegExp {
  let compiled = patterns.get(source);
  if (compiled === undefined) {
    compiled = new RegExp(source, 'u');
    patterns.set(source, compiled);
  }
  return compiled;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function hasType(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'number':
      return typeof value === 'number' && isFinite(value);
    case 'integer':
      return typeof value === 'number' && !(value % 1) && !isNaN(value) && isFinite(value);
    default:
      // A list of types, or a name JSON Schema does not have: not read here.
      return false;
  }
}

/** A string's length in code points, as ajv's `ucs2length` counts it (a lone surrogate counts one). */
function ucs2length(text: string): number {
  let length = 0;
  for (let at = 0; at < text.length; length += 1) {
    const unit = text.charCodeAt(at);
    at += 1;
    if (unit >= 0xd800 && unit <= 0xdbff && at < text.length && (text.charCodeAt(at) & 0xfc00) === 0xdc00) at += 1;
  }
  return length;
}

/** Deep equality of data read from YAML (strings, numbers, booleans, null, lists, mappings), as ajv's `equal` compares it. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b) || a.constructor !== b.constructor) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => equal(item, b[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** ajv's `uniqueItems`: no two items equal (strings by a set, as ajv indexes them; anything else pairwise). */
function unique(items: readonly unknown[]): boolean {
  if (items.every((item) => typeof item === 'string')) return new Set(items).size === items.length;
  return items.every((item, i) => items.findIndex((other) => equal(other, item)) === i);
}

/** As ajv's `enum` and `const`: `===` for a primitive, deep equality for an object or array. */
const sameValue = (allowed: unknown, value: unknown): boolean => (allowed !== null && typeof allowed === 'object' ? equal(value, allowed) : value === allowed);

function conforms(document: JsonSchemaDocument, schema: unknown, value: unknown): boolean {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !keywordHolds(document, schema, keyword, value)) return false;
  }
  return true;
}

function keywordHolds(document: JsonSchemaDocument, schema: Node, keyword: string, value: unknown): boolean {
  const argument = schema[keyword];
  switch (keyword) {
    case 'type':
      return hasType(argument, value);
    case '$ref': {
      if (typeof argument !== 'string' || !argument.startsWith('#/$defs/')) return false;
      const name = argument.slice('#/$defs/'.length);
      const defs = document.$defs;
      return defs !== undefined && Object.hasOwn(defs, name) && conforms(document, defs[name], value);
    }
    case 'enum':
      return Array.isArray(argument) && argument.some((allowed) => sameValue(allowed, value));
    case 'const':
      return sameValue(argument, value);
    case 'anyOf':
      return Array.isArray(argument) && argument.some((branch) => conforms(document, branch, value));
    case 'not':
      // Never negate the walk: its "does not conform" also means "cannot tell", which negated would let through a
      // value ajv refuses. The config schema's only `not` is `not: {}` (a field that must be absent), which no value
      // present holds; any other `not` is left to ajv.
      return false;
    default:
      return typedKeywordHolds(document, schema, keyword, argument, value);
  }
}

/** The keywords that apply to values of one type (JSON Schema: any other value passes them). */
function typedKeywordHolds(document: JsonSchemaDocument, schema: Node, keyword: string, argument: unknown, value: unknown): boolean {
  switch (keyword) {
    case 'minLength':
      return typeof value !== 'string' || (typeof argument === 'number' && ucs2length(value) >= argument);
    case 'maxLength':
      return typeof value !== 'string' || (typeof argument === 'number' && ucs2length(value) <= argument);
    case 'pattern':
      return typeof value !== 'string' || (typeof argument === 'string' && pattern(argument).test(value));
    case 'format':
      // The one format the config schema uses, as compile-validator.ts adds it.
      return argument === 'email' && (typeof value !== 'string' || EMAIL_PATTERN.test(value));
    case 'minimum':
      return typeof value !== 'number' || (typeof argument === 'number' && value >= argument);
    case 'maximum':
      return typeof value !== 'number' || (typeof argument === 'number' && value <= argument);
    case 'items':
      return !Array.isArray(value) || value.every((item) => conforms(document, argument, item));
    case 'minItems':
      return !Array.isArray(value) || (typeof argument === 'number' && value.length >= argument);
    case 'uniqueItems':
      return !Array.isArray(value) || argument === false || (argument === true && unique(value));
    case 'required':
      return !isObject(value) || (Array.isArray(argument) && argument.every((name) => typeof name === 'string' && value[name] !== undefined));
    case 'properties':
      return !isObject(value) || (isObject(argument) && Object.keys(argument).every((name) => value[name] === undefined || conforms(document, argument[name], value[name])));
    case 'patternProperties':
      return !isObject(value) || (isObject(argument) && patternPropertiesHold(document, argument, value));
    case 'additionalProperties':
      return !isObject(value) || additionalPropertiesHold(document, schema, argument, value);
    default:
      // A keyword this walk does not read: ajv decides.
      return false;
  }
}

function patternPropertiesHold(document: JsonSchemaDocument, byPattern: Node, value: Record<string, unknown>): boolean {
  for (const key in value) {
    for (const source of Object.keys(byPattern)) if (pattern(source).test(key) && !conforms(document, byPattern[source], value[key])) return false;
  }
  return true;
}

function additionalPropertiesHold(document: JsonSchemaDocument, schema: Node, argument: unknown, value: Record<string, unknown>): boolean {
  const declared = isObject(schema['properties']) ? schema['properties'] : {};
  const patternSources = isObject(schema['patternProperties']) ? Object.keys(schema['patternProperties']) : [];
  for (const key in value) {
    if (Object.hasOwn(declared, key) || patternSources.some((source) => pattern(source).test(key))) continue;
    if (!conforms(document, argument, value[key])) return false;
  }
  return true;
}
