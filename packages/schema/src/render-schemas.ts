import type { TSchema } from '@sinclair/typebox';
import { ConfigFileSchema, EXTRA_CONFIG_DEFS } from './config-schema.js';
import { ApplyResultSchema, InitResultSchema, MigrateResultSchema, PullResultSchema, UnlockResultSchema, ValidateResultSchema } from './output-schemas.js';
import { PlanDocumentSchema } from './plan-schema.js';
import { definition, definitionName } from './schema-builder.js';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const CONFIG_SCHEMA_ID = 'https://monsync.dev/schemas/config.schema.json';
export const PLAN_SCHEMA_ID = 'https://monsync.dev/schemas/plan.schema.json';
export const VALIDATE_SCHEMA_ID = 'https://monsync.dev/schemas/validate.schema.json';
export const APPLY_SCHEMA_ID = 'https://monsync.dev/schemas/apply.schema.json';
export const PULL_SCHEMA_ID = 'https://monsync.dev/schemas/pull.schema.json';
export const MIGRATE_SCHEMA_ID = 'https://monsync.dev/schemas/migrate.schema.json';
export const UNLOCK_SCHEMA_ID = 'https://monsync.dev/schemas/unlock.schema.json';
export const INIT_SCHEMA_ID = 'https://monsync.dev/schemas/init.schema.json';

export type JsonSchemaDocument = Record<string, unknown> & { $defs: Record<string, unknown> };

/**
 * Renders a TypeBox schema as a standalone JSON Schema 2020-12 document: each named definition once under
 * `$defs`, uses as `$ref` (plus the use's own description when it differs).
 */
function renderDocument(root: TSchema, id: string, extraDefs: readonly TSchema[] = []): JsonSchemaDocument {
  const defs = new Map<string, unknown>();

  const ensureDef = (name: string): void => {
    if (defs.has(name)) return;
    const schema = definition(name);
    if (schema === undefined) throw new Error(`unknown schema definition ${name}`);
    defs.set(name, null); // reserve the name: definitions may refer to each other
    defs.set(name, visit(schema, true));
  };

  const visit = (node: unknown, isDefinitionBody: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, false));
    if (node === null || typeof node !== 'object') return node;
    const name = definitionName(node);
    if (name !== undefined && !isDefinitionBody) {
      ensureDef(name);
      const ref: Record<string, unknown> = { $ref: `#/$defs/${name}` };
      const description = (node as { description?: unknown }).description;
      if (description !== undefined && description !== definition(name)?.description) ref.description = description;
      return ref;
    }
    const out: Record<string, unknown> = {};
    // Object.keys skips TypeBox's symbol-keyed metadata.
    for (const key of Object.keys(node)) out[key] = visit((node as Record<string, unknown>)[key], false);
    return out;
  };

  const body = visit(root, true) as Record<string, unknown>;
  for (const extra of extraDefs) {
    const name = definitionName(extra);
    if (name !== undefined) ensureDef(name);
  }
  const sortedDefs = Object.fromEntries([...defs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { $schema: JSON_SCHEMA_DIALECT, $id: id, ...body, $defs: sortedDefs };
}

let configDocument: JsonSchemaDocument | undefined;
let planDocument: JsonSchemaDocument | undefined;

/** The JSON Schema of config files (what `schemas/config.schema.json` holds). */
export function configJsonSchema(): JsonSchemaDocument {
  configDocument ??= renderDocument(ConfigFileSchema, CONFIG_SCHEMA_ID, EXTRA_CONFIG_DEFS);
  return configDocument;
}

/** The JSON Schema of the plan JSON contract (what `schemas/plan.schema.json` holds). */
export function planJsonSchema(): JsonSchemaDocument {
  planDocument ??= renderDocument(PlanDocumentSchema, PLAN_SCHEMA_ID);
  return planDocument;
}

/** The JSON Schema of `monsync validate --json` (what `schemas/validate.schema.json` holds). */
export function validateJsonSchema(): JsonSchemaDocument {
  return renderDocument(ValidateResultSchema, VALIDATE_SCHEMA_ID);
}

/** The JSON Schema of `monsync apply --json` (what `schemas/apply.schema.json` holds). */
export function applyJsonSchema(): JsonSchemaDocument {
  return renderDocument(ApplyResultSchema, APPLY_SCHEMA_ID);
}

/** The JSON Schema of `monsync pull --json` and `monsync import --json` (what `schemas/pull.schema.json` holds). */
export function pullJsonSchema(): JsonSchemaDocument {
  return renderDocument(PullResultSchema, PULL_SCHEMA_ID);
}

/** The JSON Schemas of `monsync migrate --json`, `unlock --json` and `init --json`. */
export function commandJsonSchemas(): Record<'migrate' | 'unlock' | 'init', JsonSchemaDocument> {
  return {
    migrate: renderDocument(MigrateResultSchema, MIGRATE_SCHEMA_ID),
    unlock: renderDocument(UnlockResultSchema, UNLOCK_SCHEMA_ID),
    init: renderDocument(InitResultSchema, INIT_SCHEMA_ID),
  };
}

type SchemaFile = 'config' | 'plan' | 'validate' | 'apply' | 'pull' | 'migrate' | 'unlock' | 'init';

/** File name (in `schemas/`) -> file text, exactly as committed. */
export function renderSchemas(): Record<`${SchemaFile}.schema.json`, string> {
  const commands = commandJsonSchemas();
  return {
    'config.schema.json': `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
    'plan.schema.json': `${JSON.stringify(planJsonSchema(), null, 2)}\n`,
    'validate.schema.json': `${JSON.stringify(validateJsonSchema(), null, 2)}\n`,
    'apply.schema.json': `${JSON.stringify(applyJsonSchema(), null, 2)}\n`,
    'pull.schema.json': `${JSON.stringify(pullJsonSchema(), null, 2)}\n`,
    'migrate.schema.json': `${JSON.stringify(commands.migrate, null, 2)}\n`,
    'unlock.schema.json': `${JSON.stringify(commands.unlock, null, 2)}\n`,
    'init.schema.json': `${JSON.stringify(commands.init, null, 2)}\n`,
  };
}
