import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { EMAIL_PATTERN } from './email.js';
import { configJsonSchema } from './render-schemas.js';

/** The validator's compiler, as `compileConfigValidator` uses it and as precompile-validator.ts writes it out as code. */
export function configAjv(options: { source?: boolean } = {}): { ajv: Ajv2020; validate: ValidateFunction } {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, allowUnionTypes: true, ...(options.source === true ? { code: { source: true, esm: true } } : {}) });
  ajv.addFormat('email', EMAIL_PATTERN);
  return { ajv, validate: ajv.compile(configJsonSchema()) };
}

/**
 * Compiles the config schema (about 0.5 s). A bundle replaces this module by one that returns the validator
 * compiled at build time (precompile-validator.ts, used by packages/cli/scripts/bundle.mjs), so that neither the
 * compile nor ajv's compiler is part of a bundled `monsync validate`'s start.
 */
export function compileConfigValidator(): ValidateFunction {
  return configAjv().validate;
}
