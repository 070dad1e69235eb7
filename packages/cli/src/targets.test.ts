import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { parseTarget, targetPlan } from './targets.js';

const step = (id: string, action: string, dependsOn: string[] = []) => {
  const [kind = '', key = ''] = id.split(/:(.*)/s);
  return { id, action, kind, key, dependsOn, changes: [] };
};

const plan = {
  formatVersion: 1 as const,
  configDigest: 'c',
  liveDigest: 'l',
  summary: { create: 3, update: 1, delete: 2, ensure: 1, unchanged: 4, unmanaged: 2 },
  safe: false,
  violations: [{ kind: 'monitor', action: 'delete' as const, count: 2, total: 4, percent: 50, limit: 30, message: 'too many' }],
  steps: [
    step('vaultSection:Web', 'create'),
    step('vaultItem:Web/login', 'create', ['vaultSection:Web']),
    step('monitor:Shop api', 'update', ['vaultItem:Web/login']),
    step('monitorGroup:Shop', 'create'),
    step('monitor:Old one', 'delete'),
    step('monitor:Old two', 'delete'),
    step('alertDefinition:abc', 'ensure'),
  ],
  unmanaged: [
    { kind: 'monitor', key: 'Shop stray', guid: 'g1' },
    { kind: 'scheduledReport', key: 'r', guid: 'g2' },
  ],
  warnings: [] as { code: string; message: string }[],
};

describe('--target', () => {
  it('keeps the targeted step and everything it depends on, and recounts the summary', () => {
    const narrowed = targetPlan(plan, [parseTarget('monitor:Shop api')]);
    expect(narrowed.steps.map((s) => s.id)).toEqual(['vaultSection:Web', 'vaultItem:Web/login', 'monitor:Shop api']);
    expect(narrowed.summary).toEqual({ create: 2, update: 1, delete: 0, ensure: 0, unchanged: 4, unmanaged: 0 });
    expect(narrowed.safe).toBe(true);
    expect(narrowed.warnings.map((w) => w.code)).toEqual(['TARGETED_PLAN']);
    expect(narrowed.configDigest).toBe('c');
  });

  it('takes a parent with its children, and matches globs', () => {
    expect(targetPlan(plan, [parseTarget('vaultSection:Web')]).steps.map((s) => s.id)).toEqual(['vaultSection:Web', 'vaultItem:Web/login']);
    const shop = targetPlan(plan, [parseTarget('monitor:Shop*')]);
    expect(shop.steps.map((s) => s.id)).toContain('monitor:Shop api');
    expect(shop.unmanaged).toEqual([{ kind: 'monitor', key: 'Shop stray', guid: 'g1' }]);
  });

  it('keeps a safety violation only while the remaining steps still pass the limit', () => {
    const one = targetPlan(plan, [parseTarget('monitor:Old one')]);
    expect(one.violations).toEqual([]);
    const both = targetPlan(plan, [parseTarget('monitor:Old *')]);
    expect(both.safe).toBe(false);
    expect(both.violations[0]).toMatchObject({ count: 2, percent: 50, limit: 30 });
  });

  it('returns the plan untouched without targets', () => {
    expect(targetPlan(plan, [])).toBe(plan);
  });

  it('rejects an unknown kind or a missing key with the list of kinds', () => {
    expect(() => parseTarget('monitors:x')).toThrow(UsageError);
    expect(() => parseTarget('monitor')).toThrow(/expected kind:key with kind one of monitor, monitorGroup/);
  });

  it('splits on the first colon only, so keys may hold colons', () => {
    expect(parseTarget('monitor:API: login').matches('API: login')).toBe(true);
  });
});
