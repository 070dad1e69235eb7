import standalone from 'ajv/dist/standalone/index.js';
import { configAjv } from './compile-validator.js';

/**
 * The source of a module that stands in for compile-validator.ts in a bundle: ajv's standalone code of the config
 * validator, compiled with the very options `compileConfigValidator` uses. Build-time only (bundlers import it
 * from dist/precompile-validator.js); no package entry exports it.
 */
export function precompiledValidatorModule(): string {
  const { ajv, validate } = configAjv({ source: true });
  // A CommonJS module: its function is its default export's `default` under Node's ESM interop.
  const code = standalone.default(ajv, validate);
  return `${code}\nexport function compileConfigValidator() { return validate; }\n`;
}
