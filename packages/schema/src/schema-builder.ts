import { Type, type TSchema, type TUnsafe, type SchemaOptions, type TObject, type TProperties, type ObjectOptions } from '@sinclair/typebox';

/**
 * Marks a schema object as a named definition. A symbol survives TypeBox's copies (`Type.Optional`, spreads), so
 * the renderer can emit `{ "$ref": "#/$defs/<name>" }` wherever the definition is used, without a second
 * hand-written JSON file.
 */
export const DEF_NAME = Symbol.for('monsync.schema.def');

type Marked = TSchema & { [DEF_NAME]?: string };

const registry = new Map<string, TSchema>();

/** Registers `schema` as `$defs/<name>` and returns it. */
export function def<T extends TSchema>(name: string, schema: T): T {
  const known = registry.get(name);
  if (known !== undefined && known !== schema) throw new Error(`schema definition ${name} is registered twice`);
  (schema as Marked)[DEF_NAME] = name;
  registry.set(name, schema);
  return schema;
}

/** The definition registered under `name`. */
export function definition(name: string): TSchema | undefined {
  return registry.get(name);
}

/** Name of the definition a schema object is (or is a use of). */
export function definitionName(schema: unknown): string | undefined {
  return typeof schema === 'object' && schema !== null ? (schema as Marked)[DEF_NAME] : undefined;
}

/** A use of a definition with its own description (JSON Schema 2020-12 allows siblings next to `$ref`). */
export function use<T extends TSchema>(schema: T, description?: string): T {
  return description === undefined ? schema : { ...schema, description };
}

/** A closed string enumeration, rendered as `enum` (completion in editors, one clear error). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** An integer enumeration. */
export function IntegerEnum<const T extends readonly number[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'integer', enum: [...values] });
}

/**
 * An open list: the values the spec shows are offered for completion, any other string is accepted because the
 * spec says the full set is not shown.
 */
export function OpenEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<string> {
  return Type.Unsafe<string>({ ...options, anyOf: [{ type: 'string', enum: [...values] }, { type: 'string' }] });
}

/** Pattern of the keys that pass through unchecked: API fields the schema does not know (docs/architecture.md, The config format: rule of case). */
export const PASS_THROUGH_PATTERN = '^[A-Z]';

/**
 * An API object: the listed fields are checked, any other PascalCase field passes through verbatim, and any other
 * camelCase key is an error (monsync's own keys are all known).
 */
export function ApiObject<T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> {
  return Type.Object(properties, {
    ...options,
    additionalProperties: false,
    patternProperties: { [PASS_THROUGH_PATTERN]: {} },
  });
}

/** An object of monsync's own settings: every key is known. */
export function ClosedObject<T extends TProperties>(properties: T, options: ObjectOptions = {}): TObject<T> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}
