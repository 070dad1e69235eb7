/**
 * Reading a plan file (`monsync plan --out`): JSON, then the plan JSON Schema this package renders (the same one
 * `schemas/plan.schema.json` holds), so an installed CLI checks a plan without the repository's files. A truncated
 * or hand-edited file is refused with the first thing wrong in it, never half-applied.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { PLAN_FORMAT_VERSION, type Plan } from './plan-schema.js';
import { planJsonSchema } from './render-schemas.js';
import { pointerToPath, YamlSource } from './yaml-source.js';

export type PlanFileErrorCode = 'PLAN_FILE_INVALID' | 'PLAN_FILE_VERSION';

/** Where in the file a problem is: 1-based, as an editor counts lines and columns. */
export interface PlanFilePosition {
  line: number;
  col: number;
}

/**
 * The text is not a plan this version of monsync can apply; `message` says what is wrong, and `position` where, when
 * the problem has a place in the text (`file:line:col` in the CLI's message).
 */
export class PlanFileError extends Error {
  constructor(
    readonly code: PlanFileErrorCode,
    message: string,
    readonly position?: PlanFilePosition,
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

/** The line and column of a character offset of the text. */
function positionAt(text: string, offset: number): PlanFilePosition {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, col: before.length - lineStart + 1 };
}

/**
 * Where JSON.parse stopped. V8 names the offset of most errors ("at position 500"), and a truncated file stops at
 * its end ("Unexpected end of JSON input"); Node 20's "Unexpected token" names none, so the shortest prefix of the
 * text that fails for a reason other than ending early is searched for: it ends just past the offending character.
 */
function syntaxErrorPosition(text: string, message: string): PlanFilePosition {
  const stated = statedOffset(message);
  if (stated !== undefined) return positionAt(text, stated);
  if (endedEarly(message)) return positionAt(text, text.length);
  // Invariant: the prefix of length `low` fails only by ending early, the one of length `high` fails inside.
  let low = 0;
  let high = text.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (failsInside(text.slice(0, middle))) high = middle;
    else low = middle;
  }
  return positionAt(text, high - 1);
}

function failsInside(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (error) {
    const { message } = error as Error;
    if (endedEarly(message)) return false;
    const at = statedOffset(message);
    return at === undefined || at < prefix.length;
  }
}

/** The offset V8's JSON.parse message names ("... in JSON at position 500"), if it names one. */
function statedOffset(message: string): number | undefined {
  const at = /at position (\d+)/.exec(message)?.[1];
  return at === undefined ? undefined : Number(at);
}

function endedEarly(message: string): boolean {
  return message.includes('end of JSON input');
}

/**
 * Where the value at a JSON pointer (ajv's `instancePath`) starts in the text. JSON is YAML, so the config loader's
 * `YamlSource` finds it as it finds a config value; this runs only for a file already refused.
 */
function valuePosition(text: string, pointer: string): PlanFilePosition {
  const { line, column } = new YamlSource('plan', text).position(pointerToPath(pointer));
  return { line, col: column };
}

/** Parses and validates a plan file's text; rejects with `PlanFileError` naming the first problem and where it is. */
export async function parsePlanFile(text: string): Promise<Plan> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const { message } = error as Error;
    throw new PlanFileError('PLAN_FILE_INVALID', `not valid JSON (${message})`, syntaxErrorPosition(text, message));
  }
  const version = typeof parsed === 'object' && parsed !== null ? (parsed as { formatVersion?: unknown }).formatVersion : undefined;
  if (version !== undefined && version !== PLAN_FORMAT_VERSION) {
    throw new PlanFileError('PLAN_FILE_VERSION', `plan formatVersion ${JSON.stringify(version)} is not supported by this monsync (expected ${PLAN_FORMAT_VERSION}); make the plan again with this version`);
  }
  const [first] = await validatePlan(parsed);
  if (first !== undefined) throw new PlanFileError('PLAN_FILE_INVALID', `not a monsync plan: ${describe(first)} (schemas/plan.schema.json)`, valuePosition(text, first.instancePath));
  return parsed as Plan;
}
