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

  it('refuses a truncated file as invalid JSON', async () => {
    const error = await refusal(JSON.stringify(plan).slice(0, 40));
    expect(error.code).toBe('PLAN_FILE_INVALID');
    expect(error.message).toMatch(/^not valid JSON/);
  });

  it('refuses a hand-edited step, naming where it is wrong', async () => {
    const edited = { ...plan, steps: [{ id: 'monitor:x', action: 'destroy', kind: 'monitor', key: 'x', changes: [], dependsOn: [] }] };
    expect((await refusal(JSON.stringify(edited))).message).toContain('/steps/0/action');
  });

  it('refuses a plan of another format version before looking further', async () => {
    const error = await refusal(JSON.stringify({ ...plan, formatVersion: PLAN_FORMAT_VERSION + 1, steps: 'not even a list' }));
    expect(error.code).toBe('PLAN_FILE_VERSION');
  });
});
