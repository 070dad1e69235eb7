import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileConfigValidator } from '../src/compile-validator.js';
import { configJsonSchema } from '../src/render-schemas.js';
import { conformsToSchema } from '../src/schema-conforms.js';
import { YamlSource } from '../src/yaml-source.js';

/**
 * The schema walk (schema-conforms.ts) answers for ajv on the files it accepts: it must accept exactly the values
 * ajv's validator accepts, on every YAML file of the repository's fixtures and examples, and on mutations of the demo
 * tree that break each rule the schema states (types, required fields, unknown fields, enum values, patterns, lengths,
 * ranges, duplicates).
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ajv = compileConfigValidator();
const document = configJsonSchema();

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name) && !entry.parentPath.split(sep).some((part) => part === 'node_modules' || part === 'dist'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

const valueOf = (file: string): unknown => new YamlSource(file, readFileSync(file, 'utf8')).value ?? {};

/** Both answers for one value, so a failure names the value. */
const answers = (value: unknown) => ({ walk: conformsToSchema(document, value), ajv: ajv(value) });

/** Values near `value`: at each place in it, the value replaced by another of each JSON type, removed, or given a neighbour. */
function* mutations(value: unknown, depth = 0): Generator<unknown> {
  const replacements: unknown[] = [null, true, 0, -1, 1.5, 100000, '', 'x', 'Bogus', 'not a guid', 'a@b', [], {}, ['x', 'x'], { Bogus: 1 }, { bogus: 1 }];
  for (const replacement of replacements) yield replacement;
  if (depth > 6) return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      for (const mutated of mutations(item, depth + 1)) yield value.map((other, j) => (j === i ? mutated : other));
      yield [...value, item];
      yield value.filter((_, j) => j !== i);
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    for (const [key, item] of entries) {
      for (const mutated of mutations(item, depth + 1)) yield { ...value, [key]: mutated };
      yield Object.fromEntries(entries.filter(([other]) => other !== key));
      if (typeof item === 'string') yield { ...value, [key]: `${item}\u{1F600}` };
    }
    yield { ...value, Bogus: 1 };
    yield { ...value, bogus: 1 };
    yield { ...value, Name: 'x' };
  }
}

describe('the config schema walk', () => {
  const files = [...yamlFiles(join(ROOT, 'configs')), ...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'packages'))];

  it('reads the repository\'s YAML files, valid and invalid ones', () => {
    const verdicts = files.map((file) => ajv(valueOf(file)));
    expect(files.length).toBeGreaterThan(100);
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(20);
    expect(verdicts.filter((valid) => !valid).length).toBeGreaterThan(20);
  });

  it('accepts exactly the files ajv accepts', () => {
    for (const file of files) {
      const value = valueOf(file);
      const { walk, ajv: valid } = answers(value);
      expect(walk, relative(ROOT, file)).toBe(valid);
    }
  });

  it('accepts exactly the values ajv accepts among mutations of the demo tree', () => {
    let refused = 0;
    let accepted = 0;
    for (const file of yamlFiles(join(ROOT, 'configs'))) {
      for (const mutated of mutations(valueOf(file))) {
        const { walk, ajv: valid } = answers(mutated);
        if (walk !== valid) expect({ file: relative(ROOT, file), value: mutated, walk }).toEqual({ file: relative(ROOT, file), value: mutated, walk: valid });
        if (valid) accepted += 1;
        else refused += 1;
      }
    }
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });

  it('answers "does not conform" to a keyword or reference it does not read, leaving the answer to ajv', () => {
    expect(conformsToSchema({ type: 'object', propertyNames: { maxLength: 3 } }, { a: 1 })).toBe(false);
    expect(conformsToSchema({ $ref: 'https://example.com/other.json' }, {})).toBe(false);
    expect(conformsToSchema({ $ref: '#/$defs/Missing', $defs: {} }, {})).toBe(false);
    expect(conformsToSchema({ type: ['string', 'null'] }, null)).toBe(false);
    expect(conformsToSchema({ type: 'string', format: 'uri' }, 'https://example.com')).toBe(false);
    expect(conformsToSchema({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x' })).toBe(true);
    // Under `not`, "cannot tell" must not turn into "conforms": ajv refuses this value (its length is 5).
    expect(conformsToSchema({ not: { type: 'string', propertyNames: true, maxLength: 3 } }, 'abcde')).toBe(false);
    expect(conformsToSchema({ type: 'object', properties: { Gone: { not: {} } } }, { Gone: 1 })).toBe(false);
    expect(conformsToSchema({ type: 'object', properties: { Gone: { not: {} } } }, {})).toBe(true);
  });
});
