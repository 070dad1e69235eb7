/**
 * Reading a plan file (`monsync plan --out`): JSON, then the plan JSON Schema this package renders (the same one
 * `schemas/plan.schema.json` holds), so an installed CLI checks a plan without the repository's files. A truncated
 * or hand-edited file is refused with the first thing wrong in it, never half-applied.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { PLAN_FORMAT_VERSION, type Plan } from './plan-schema.js';
import { planJsonSchema } from './render-schemas.js';

export type PlanFileErrorCode = 'PLAN_FILE_INVALID' | 'PLAN_FILE_VERSION';

/** The text is not a plan this version of monsync can apply; `message` says what is wrong and where. */
export class PlanFileError extends Error {
  constructor(
    readonly code: PlanFileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PlanFileError';
  }
}

let validator: ValidateFunction | undefined;

type AjvClass = typeof Ajv2020;

// ajv is CommonJS: Node's own loader gives its class as a named export, but the CLI's bundle (a split chunk) gives
// only `default`, the module object, which carries the class as a property. Both shapes must work.
function ajvClass(loaded: unknown): AjvClass {
  const named = (loaded as { Ajv2020?: unknown }).Ajv2020;
  if (typeof named === 'function') return named as AjvClass;
  const module = (loaded as { default?: { Ajv2020?: unknown } }).default;
  if (typeof module?.Ajv2020 === 'function') return module.Ajv2020 as AjvClass;
  if (typeof module === 'function') return module as AjvClass;
  throw new TypeError('ajv/dist/2020.js did not load as expected: reinstall monsync');
}

// ajv's compiler is loaded only here, when a plan file is read: every other command starts without it (its module
// set costs about as much as Node's own start, and `monsync validate` and `plan` never read a plan file).
async function validatePlan(value: unknown): Promise<ErrorObject[]> {
  if (validator === undefined) {
    const Ajv = ajvClass(await import('ajv/dist/2020.js'));
    validator = new Ajv({ allErrors: false, strict: false }).compile(planJsonSchema());
  }
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? 'the plan' : error.instancePath;
  if (error.keyword === 'required') return `${at} lacks ${String((error.params as { missingProperty?: unknown }).missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${at} has an unknown field ${String((error.params as { additionalProperty?: unknown }).additionalProperty)}`;
  return `${at} ${error.message ?? 'is not valid'}`;
}

/** Parses and validates a plan file's text; rejects with `PlanFileError` naming the first problem. */
export async function parsePlanFile(text: string): Promise<Plan> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PlanFileError('PLAN_FILE_INVALID', `not valid JSON (${(error as Error).message})`);
  }
  const version = typeof parsed === 'object' && parsed !== null ? (parsed as { formatVersion?: unknown }).formatVersion : undefined;
  if (version !== undefined && version !== PLAN_FORMAT_VERSION) {
    throw new PlanFileError('PLAN_FILE_VERSION', `plan formatVersion ${JSON.stringify(version)} is not supported by this monsync (expected ${PLAN_FORMAT_VERSION}); make the plan again with this version`);
  }
  const [first] = await validatePlan(parsed);
  if (first !== undefined) throw new PlanFileError('PLAN_FILE_INVALID', `not a monsync plan: ${describe(first)} (schemas/plan.schema.json)`);
  return parsed as Plan;
}
