import type { Plan, PlanStep } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { renderPlan } from './renderers.js';

/** A plan too big for one comment: `count` monitor creates with long names. */
function bigPlan(count: number): Plan {
  const steps: PlanStep[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = `Monitor ${String(i).padStart(5, '0')} ${'x'.repeat(60)}`;
    steps.push({ id: `monitor:${name}`, action: 'create', kind: 'monitor', key: name, changes: [{ op: 'add', path: '/Name', after: name }], dependsOn: [], desired: { Name: name } });
  }
  return {
    formatVersion: 1,
    configDigest: 'a'.repeat(64),
    liveDigest: 'b'.repeat(64),
    summary: { create: count, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 },
    safe: true,
    violations: [],
    steps,
    unmanaged: [],
    warnings: [],
  };
}

describe('renderPlan as markdown', () => {
  it('names the saved plan file once in the note of a cut comment, without repeating "the full plan"', () => {
    const md = renderPlan(bigPlan(2000), 'markdown', { color: false, planFile: 'plan.json' });
    const note = md.split('\n').find((line) => line.startsWith('> ') && line.includes('are not shown'));
    expect(note).toMatch(/^> [\d,]+ of 2,000 steps are not shown: this comment is limited to 65,000 characters\. The full plan: saved as `plan\.json`$/);
    expect(md.match(/full plan/gi)).toHaveLength(1);
  });

  it('tells to run monsync plan when no plan file was saved', () => {
    const md = renderPlan(bigPlan(2000), 'markdown', { color: false });
    expect(md).toMatch(/are not shown: this comment is limited to 65,000 characters\. Run `monsync plan` to see the full plan\.\n/);
  });
});
