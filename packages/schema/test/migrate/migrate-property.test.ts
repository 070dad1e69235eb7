import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LEGACY_ERROR_CONDITION_FIELDS, migrateConfig, type MigrationErrorCondition } from '@monsync/schema';

interface Field {
  key: string;
  /** YAML text of the value. */
  text: string;
  value: unknown;
  commentAbove: string | undefined;
  commentTrailing: string | undefined;
}

interface GeneratedMonitor {
  fields: Field[];
  expected: Record<string, unknown>;
}

const comment = fc.option(fc.integer({ min: 0, max: 1_000_000 }).map((n) => `note-${n}`), { nil: undefined });

const otherField = fc.constantFrom(
  { key: 'MonitorType', text: 'Https', value: 'Https' },
  { key: 'IsActive', text: 'true', value: true },
  { key: 'CheckInterval', text: '5', value: 5 },
  { key: 'Notes', text: "'kept: as written'", value: 'kept: as written' },
  { key: 'CustomMetrics', text: '[a, b]', value: ['a', 'b'] },
);

/** A legacy pair that migrates cleanly (no HttpStatus switched off: that one only drops fields). */
const legacyPair = fc.record({
  mapping: fc.constantFrom(...LEGACY_ERROR_CONDITION_FIELDS),
  flag: fc.boolean(),
  limit: fc.integer({ min: 0, max: 10_000_000 }),
  flagFirst: fc.boolean(),
});

const monitorArb = fc
  .record({
    others: fc.uniqueArray(otherField, { selector: (field) => field.key, maxLength: 4 }),
    legacy: fc.uniqueArray(legacyPair, { selector: (pair) => pair.mapping.type, minLength: 1, maxLength: 7 }),
    existing: fc.boolean(),
    seed: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
    comments: fc.array(fc.tuple(comment, comment), { minLength: 20, maxLength: 20 }),
  })
  .map(({ others, legacy, existing, seed, comments }): GeneratedMonitor => {
    const pairs = legacy.map((pair) => {
      const flag = pair.mapping.flagMeaning === 'specified' ? true : pair.flag;
      const fields = [
        { key: pair.mapping.flag, text: String(flag), value: flag },
        { key: pair.mapping.value, text: String(pair.limit), value: pair.limit },
      ];
      return pair.flagFirst ? fields : fields.reverse();
    });
    const shuffled: Array<Omit<Field, 'commentAbove' | 'commentTrailing'>> = [...others, ...pairs.flat()];
    // An existing list holds an HttpStatus entry; then the generated pairs never include HttpStatus (that would conflict).
    const withExisting = existing && !legacy.some((pair) => pair.mapping.type === 'HttpStatus');
    if (withExisting) {
      shuffled.push({
        key: 'ErrorConditions',
        text: '\n      - { ErrorConditionType: HttpStatus, Value: "200" }',
        value: [{ ErrorConditionType: 'HttpStatus', Value: '200' }],
      });
    }
    // Fisher-Yates driven by the generated seed, so the key order is part of the counterexample.
    for (let i = shuffled.length - 1; i > 0; i -= 1) {
      const j = (seed[i] ?? 0) % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j] as (typeof shuffled)[number], shuffled[i] as (typeof shuffled)[number]];
    }
    const fields: Field[] = shuffled.map((field, index) => ({
      ...field,
      commentAbove: comments[index]?.[0],
      commentTrailing: field.key === 'ErrorConditions' ? undefined : comments[index]?.[1],
    }));

    const byType = new Map(legacy.map((pair) => [pair.mapping.type, pair]));
    const added: MigrationErrorCondition[] = LEGACY_ERROR_CONDITION_FIELDS.filter((mapping) => byType.has(mapping.type)).map((mapping) => {
      const pair = byType.get(mapping.type) as (typeof legacy)[number];
      const limit = String(pair.limit);
      if (mapping.flagMeaning === 'specified') return { ErrorConditionType: mapping.type, Value: limit };
      const effect = pair.flag ? 'Error' : 'Indicate';
      return mapping.into === 'ValueAndPercentage'
        ? { ErrorConditionType: mapping.type, Value: limit, Percentage: limit, Effect: effect }
        : { ErrorConditionType: mapping.type, Value: limit, Effect: effect };
    });
    const legacyKeys = new Set(LEGACY_ERROR_CONDITION_FIELDS.flatMap((mapping) => [mapping.flag, mapping.value]));
    const expected: Record<string, unknown> = {};
    let placed = false;
    for (const field of fields) {
      if (field.key === 'ErrorConditions') expected.ErrorConditions = [...(field.value as unknown[]), ...added];
      else if (legacyKeys.has(field.key)) {
        if (!withExisting && !placed) expected.ErrorConditions = added;
        placed = true;
      } else expected[field.key] = field.value;
    }
    return { fields, expected };
  });

function render(monitors: GeneratedMonitor[]): string {
  let text = '# generated\nmonitors:\n';
  monitors.forEach((monitor, index) => {
    text += `  - Name: M${index}\n`;
    for (const field of monitor.fields) {
      if (field.commentAbove !== undefined) text += `    # ${field.commentAbove}\n`;
      text += `    ${field.key}: ${field.text}${field.commentTrailing === undefined ? '' : `   # ${field.commentTrailing}`}\n`;
    }
  });
  return text;
}

function commentsOf(monitors: GeneratedMonitor[]): string[] {
  return monitors
    .flatMap((monitor) => monitor.fields.flatMap((field) => [field.commentAbove, field.commentTrailing]))
    .filter((text): text is string => text !== undefined)
    .sort();
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-migrate-prop-'));
  await writeFile(join(dir, 'monsync.yaml'), 'apiVersion: monsync/v1\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('rewrites any arrangement of removed fields into the expected ErrorConditions, keeping key order and every comment', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(monitorArb, { minLength: 1, maxLength: 4 }), async (monitors) => {
      const file = join(dir, 'monitors.yaml');
      await writeFile(file, render(monitors));
      const first = await migrateConfig(dir);
      expect(first.problems.filter((problem) => problem.severity !== 'info')).toEqual([]);
      expect(first.changes).toHaveLength(monitors.length);

      const text = await readFile(file, 'utf8');
      const parsed = parse(text) as { monitors: Array<Record<string, unknown>> };
      monitors.forEach((monitor, index) => {
        const actual = parsed.monitors[index] ?? {};
        expect(actual).toEqual({ Name: `M${index}`, ...monitor.expected });
        expect(Object.keys(actual)).toEqual(['Name', ...Object.keys(monitor.expected)]);
      });
      const kept = [...text.matchAll(/note-\d+/g)].map((match) => match[0]).sort();
      expect(kept).toEqual(commentsOf(monitors));

      const second = await migrateConfig(dir);
      expect(second.changes).toEqual([]);
      expect(await readFile(file, 'utf8')).toBe(text);
    }),
    { numRuns: 60 },
  );
});
