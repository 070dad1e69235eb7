import { describe, expect, it } from 'vitest';
import { parsePlanFile, PlanFileError, PLAN_FORMAT_VERSION } from '../src/index.js';

const digest = 'a'.repeat(64);
const plan = {
  formatVersion: PLAN_FORMAT_VERSION,
  configDigest: digest,
  liveDigest: digest,
  summary: { create: 0, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 },
  safe: true,
  violations: [],
  steps: [],
  unmanaged: [],
  warnings: [],
};

async function refusal(text: string): Promise<PlanFileError> {
  try {
    await parsePlanFile(text);
  } catch (error) {
    if (error instanceof PlanFileError) return error;
    throw error;
  }
  throw new Error('expected the plan file to be refused');
}

describe('reading a plan file', () => {
  it('accepts a plan as monsync plan --out writes it', async () => {
    expect(await parsePlanFile(JSON.stringify(plan))).toEqual(plan);
  });

  it('refuses a truncated file as invalid JSON, placed where the text stops', async () => {
    const text = JSON.stringify(plan, null, 2).slice(0, 40);
    const error = await refusal(text);
    expect(error.code).toBe('PLAN_FILE_INVALID');
    expect(error.message).toMatch(/^not valid JSON/);
    const lines = text.split('\n');
    expect(error.position).toEqual({ line: lines.length, col: (lines.at(-1)?.length ?? 0) + 1 });
  });

  it('places a syntax error inside the text at the character JSON.parse stopped at', async () => {
    const text = JSON.stringify(plan, null, 2).replace('"safe": true', '"safe": tru');
    const error = await refusal(text);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"safe": tru')) + 1;
    // At the comma after `tru`, where the literal turns out not to be `true`.
    expect(error.position).toEqual({ line, col: (lines[line - 1] ?? '').indexOf('tru,') + 4 });
  });

  it('refuses a hand-edited step, naming where it is wrong by pointer and by line and column', async () => {
    const edited = { ...plan, steps: [{ id: 'monitor:x', action: 'destroy', kind: 'monitor', key: 'x', changes: [], dependsOn: [] }] };
    const text = JSON.stringify(edited, null, 2);
    const error = await refusal(text);
    expect(error.message).toContain('/steps/0/action');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"action": "destroy"')) + 1;
    expect(error.position).toEqual({ line, col: (lines[line - 1] ?? '').indexOf('"destroy"') + 1 });
  });

  it('places an error JSON.parse reports with its offset at that offset', async () => {
    const text = `${JSON.stringify(plan, null, 2)}\n}`;
    const error = await refusal(text);
    expect(error.position).toEqual({ line: text.split('\n').length, col: 1 });
  });

  it('places a missing field at the object that lacks it', async () => {
    const { configDigest: _left, ...rest } = plan;
    const error = await refusal(JSON.stringify(rest, null, 2));
    expect(error.message).toContain('lacks configDigest');
    expect(error.position).toEqual({ line: 1, col: 1 });
  });

  it('refuses a plan of another format version before looking further', async () => {
    const error = await refusal(JSON.stringify({ ...plan, formatVersion: PLAN_FORMAT_VERSION + 1, steps: 'not even a list' }));
    expect(error.code).toBe('PLAN_FILE_VERSION');
  });
});
