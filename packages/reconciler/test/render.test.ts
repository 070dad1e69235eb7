import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { planJsonSchema } from '@monsync/schema';
import { describe, expect, it } from 'vitest';
import { markdownLength, MARKDOWN_MARKER, renderJson, renderMarkdown, renderPolicySection, renderText, type Plan } from '../src/index.js';
import { aLiveItem, aLiveMonitor, aLiveSection, aMonitor, aSection, CANARY, desiredState, liveSnapshot, OTHER_OPERATOR, planFor, secret } from '../src/test-utils/index.js';
import { scenario } from './scenario.js';

/** `UPDATE_GOLDEN=1` rewrites the golden files instead of comparing. */
function golden(name: string, actual: string): void {
  const path = fileURLToPath(new URL(`./golden/${name}`, import.meta.url));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

interface Validator {
  (data: unknown): boolean;
  errors?: unknown;
}

/**
 * The plan schema's own validator, ajv from the schema package (the package that owns the schema); the
 * reconciler does not depend on ajv itself.
 */
function planValidator(): Validator {
  const schemaDir = fileURLToPath(new URL('../../schema/package.json', import.meta.url));
  const require = createRequire(schemaDir);
  const { Ajv2020 } = require('ajv/dist/2020.js') as { Ajv2020: new (options: Record<string, unknown>) => { compile(schema: unknown): Validator } };
  return new Ajv2020({ allErrors: true, strict: false }).compile(planJsonSchema());
}

const full = (): Plan => {
  const { parts, live } = scenario(true);
  return planFor(desiredState(parts), liveSnapshot(live));
};
const partial = (): Plan => {
  const { parts, live } = scenario(false);
  // One membership of two removed: over the relations' share, and at their count only when it is 1.
  const relations = { maxDeletePercent: 30, maxUpdatePercent: 50, minDeleteCount: 1, minUpdateCount: 10 };
  return planFor(desiredState({ ...parts, safety: { maxDeletePercent: 30, maxUpdatePercent: 50, relations }, ignore: ['gadget:*'] }), liveSnapshot(live));
};
const unsafe = (): Plan =>
  planFor(desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'a' })] }), liveSnapshot({ monitors: ['a', 'b', 'c', 'd'].map((n) => aLiveMonitor({ Name: n })) }));

/** 10,000 creates with names in several scripts, each with a few field changes. */
function huge(): Plan {
  const monitors = Array.from({ length: 10_000 }, (_, i) =>
    aMonitor({ Name: `監視 ${i} — café 🚀 ${'ü'.repeat(i % 7)}`, IsActive: i % 2 === 0, ErrorConditions: [{ ErrorConditionType: 'HttpStatus', Value: '200' }] }),
  );
  return planFor(desiredState({ manage: { monitors: { prune: false } }, monitors }), liveSnapshot());
}

describe('text renderer', () => {
  it('matches the golden plan with every action, drift and dependencies', () => golden('plan.txt', renderText(full())));
  it('matches the golden plan with unmanaged objects, warnings and violations', () => golden('plan-partial.txt', renderText(partial())));
  it('matches the golden unsafe plan', () => golden('plan-unsafe.txt', renderText(unsafe())));
  it('says so when there is nothing to do', () => golden('no-changes.txt', renderText(planFor(desiredState({ manage: { monitors: { prune: true } } }), liveSnapshot()))));

  it('names the first five steps a step waits for and counts the rest', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const plan = planFor(
      desiredState({ manage: { vault: { prune: true } }, safety: { maxDeletePercent: 100 }, vaultSections: [aSection()] }),
      liveSnapshot({ vaultSections: [aLiveSection(), aLiveSection({ Name: 'Old' })], vaultItems: names.map((n) => aLiveItem('Old', { Name: n })) }),
    );
    expect(plan.steps.find((s) => s.id === 'vaultSection:Old')?.dependsOn).toHaveLength(7);
    expect(renderText(plan)).toContain('      after: vaultItem:Old/a, vaultItem:Old/b, vaultItem:Old/c, vaultItem:Old/d, vaultItem:Old/e and 2 more\n');
  });

  it('colours only when asked', () => {
    const plan = full();
    expect(renderText(plan)).not.toContain('\u001b[');
    const coloured = renderText(plan, { color: true });
    expect(coloured).toContain('\u001b[32m+ create\u001b[0m');
    expect(coloured.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g'), '')).toBe(renderText(plan));
  });
});

describe('markdown renderer', () => {
  it('matches the golden comment: marker, summary table, deletions first, a section per kind, drift', () => golden('plan.md', renderMarkdown(full())));
  it('matches the golden comment with unmanaged objects and warnings', () => golden('plan-partial.md', renderMarkdown(partial())));
  it('calls out an unsafe plan at the top', () => {
    const md = renderMarkdown(unsafe());
    golden('plan-unsafe.md', md);
    expect(md.indexOf('[!CAUTION]')).toBeLessThan(md.indexOf('<details>'));
  });

  it('starts with the hidden marker line so a bot can update its own comment', () => {
    expect(renderMarkdown(full()).split('\n')[0]).toBe(MARKDOWN_MARKER);
  });

  it('stays within 65,000 characters for 10,000 changes with multibyte names, says how many are not shown and where the full plan is', () => {
    const plan = huge();
    const md = renderMarkdown(plan, { fullPlanHint: 'the plan.json artifact of this run' });
    expect(markdownLength(md)).toBeLessThanOrEqual(65_000);
    expect(md.length).toBeLessThanOrEqual(65_000);
    const shown = md.split('\n').filter((l) => l.startsWith('+ create monitor ')).length;
    expect(shown).toBeGreaterThan(50);
    expect(shown).toBeLessThan(10_000);
    expect(md).toContain(`> ${(10_000 - shown).toLocaleString('en-US')} of 10,000 steps are not shown: this comment is limited to 65,000 characters. The full plan: the plan.json artifact of this run`);
    expect(md).toContain('| monitor | 10,000 | 0 | 0 | 0 |');
    // Fences and collapsible sections are balanced, and no character is cut in half.
    expect(md.split('\n').filter((l) => /^`{3,}/.test(l)).length % 2).toBe(0);
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect(md).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('counts multibyte text by its UTF-8 size, so a budget in bytes is never exceeded', () => {
    const plan = huge();
    const md = renderMarkdown(plan, { budget: 20_000 });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(20_000);
    expect(Buffer.byteLength(md, 'utf8')).toBeGreaterThan(15_000);
    expect(markdownLength('監視🚀')).toBe(3 + 3 + 4);
  });

  it('cuts nothing and adds no note when the plan fits', () => {
    expect(renderMarkdown(full())).not.toContain('not shown');
  });

  it('escapes names so Markdown and HTML in them stay text', () => {
    const plan = planFor(
      desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: '<img src=x> | *bold* `tick`', IsActive: false })] }),
      liveSnapshot({ monitors: [aLiveMonitor({ Name: '<img src=x> | *bold* `tick`', LastModifiedByOperatorId: OTHER_OPERATOR })] }),
    );
    const md = renderMarkdown(plan);
    const drift = md.split('\n').find((l) => l.startsWith('| monitor "'));
    expect(drift).toBe('| monitor "&lt;img src=x&gt; \\| \\*bold\\* \\`tick\\`" | Jane Doe | 2026-01-02T00:00:00 | sets back IsActive |');
  });
});

describe('JSON renderer', () => {
  const validate = planValidator();

  it.each([
    ['every action', full],
    ['unmanaged and warnings', partial],
    ['unsafe', unsafe],
    ['10,000 creates', huge],
  ])('produces a plan valid against schemas/plan.schema.json (%s)', (_name, make) => {
    const document: unknown = JSON.parse(renderJson(make()));
    const ok = validate(document);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is rejected by the schema when a required field is missing (the validator is live)', () => {
    const document = JSON.parse(renderJson(full())) as Record<string, unknown>;
    delete document.liveDigest;
    expect(validate(document)).toBe(false);
  });
});

describe('secrets in renderings', () => {
  it('shows (sensitive) and never the canary value in text, markdown or JSON', () => {
    const desired = desiredState({
      manage: { monitors: { prune: false } },
      monitors: [aMonitor({ Name: 'API', BearerToken: secret(CANARY, 'API_TOKEN') }), aMonitor({ Name: 'Other', BearerToken: secret(`${CANARY}-2`), IsActive: false })],
    });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Other', BearerToken: '' })] }));
    const outputs = [renderJson(plan), renderText(plan), renderText(plan, { color: true }), renderMarkdown(plan), renderMarkdown(plan, { budget: 2_000 })];
    for (const out of outputs) {
      expect(out).not.toContain(CANARY);
      expect(out).toContain('(sensitive)');
    }
    // Monitors keep a fingerprint of their secrets in Notes, so nothing is left uncompared.
    expect(plan.warnings.map((w) => w.code)).toEqual([]);
    expect(plan.steps.find((step) => step.key === 'Other')?.reason).toBe('no fingerprint marker');
  });
});

describe('the Policy section alone', () => {
  const finding = (n: number) => ({ rule: 'namePattern', severity: 'warning' as const, kind: 'monitor' as const, key: `m${n}`, message: `monitor \`m${n}\` does not match`, fix: 'rename it', file: 'monitors.yaml', line: n, column: 5 });
  const more = (count: number) => `\n… ${count} more\n`;

  it('lists every finding that fits, then says how many more', () => {
    const plan = { policy: [finding(1), finding(2), finding(3)] };
    const whole = renderPolicySection(plan, 10_000, more);
    expect(whole).toBe(
      '### Policy: 0 errors, 3 warnings\n\n' +
        [1, 2, 3].map((n) => `- **warning** \`namePattern\` monitor "m${n}" (\`monitors.yaml:${n}:5\`): monitor \\\`m${n}\\\` does not match. Fix: rename it.\n`).join('') +
        '\n',
    );
    const cut = renderPolicySection(plan, markdownLength(whole) - 10, more);
    expect(cut).toContain('"m2"');
    expect(cut).not.toContain('"m3"');
    expect(cut).toContain('\n… 1 more\n');
  });

  it('is empty without findings', () => {
    expect(renderPolicySection({ policy: [] }, 10_000, more)).toBe('');
    expect(renderPolicySection({}, 10_000, more)).toBe('');
  });
});
