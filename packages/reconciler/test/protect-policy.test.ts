import { loadConfigTexts, parsePlanFile, type DesiredState } from '@monsync/schema';
import { describe, expect, it } from 'vitest';
import { applyPlan, PlanRefusedError, renderMarkdown, renderText, type WriteClient } from '../src/index.js';
import { aLiveItem, aLiveMonitor, aLiveSection, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true, removal: deactivate }\n  monitorGroups: { prune: true }\n  vault: { prune: true }\n';

/** A tree as the loader reads it: monsync.yaml (settings plus `extra`) and `files`. */
function tree(extra: string, files: Record<string, string> = {}): DesiredState {
  const { desired, diagnostics } = loadConfigTexts('/tmp/protect-test', [{ file: 'monsync.yaml', text: `${SETTINGS}${extra}` }, ...Object.entries(files).map(([file, text]) => ({ file, text }))]);
  const errors = diagnostics.filter((d) => d.severity === 'error' && d.code !== 'POLICY_ERROR');
  if (errors.length > 0) throw new Error(errors.map((d) => d.message).join('; '));
  return desired;
}

describe('protect', () => {
  it('marks the delete (here a retire) of an object a pattern protects with the pattern and where it is written', () => {
    const desired = tree('protect: ["monitor:prod-*"]\n', { 'monitors.yaml': 'monitors:\n  - { Name: keep }\n' });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'keep' }), aLiveMonitor({ Name: 'prod-db' }), aLiveMonitor({ Name: 'test-db' })] }));
    const deletes = plan.steps.filter((s) => s.action === 'delete').map((s) => [s.key, s.removal, s.protectedBy]);
    expect(deletes).toEqual([
      ['prod-db', 'deactivate', { rule: 'monitor:prod-*', source: { file: 'monsync.yaml', line: 6, column: 11 } }],
      ['test-db', 'deactivate', undefined],
    ]);
  });

  it('protects the objects inside a protected one: the items of a protected vault section, by pattern or protect: true', () => {
    const live = liveSnapshot({ vaultSections: [aLiveSection({ Name: 'payments' })], vaultItems: [aLiveItem('payments', { Name: 'stripe' })] });
    const byPattern = planFor(tree('protect: ["vaultSection:pay*"]\n', { 'vault.yaml': 'vault:\n  sections:\n    - { Name: payments }\n' }), live);
    expect(byPattern.steps.map((s) => [s.action, s.key, s.protectedBy?.rule])).toEqual([['delete', 'payments/stripe', 'vaultSection:pay*']]);
    const byFlag = planFor(tree('', { 'vault.yaml': 'vault:\n  sections:\n    - { Name: payments, protect: true }\n' }), live);
    expect(byFlag.steps.map((s) => [s.action, s.key, s.protectedBy])).toEqual([['delete', 'payments/stripe', { rule: 'protect: true', source: { file: 'vault.yaml', line: 3, column: 25 } }]]);
  });

  it('protect: true sends nothing and compares nothing: a declared protected monitor plans no change', () => {
    const plan = planFor(tree('', { 'monitors.yaml': 'monitors:\n  - { Name: db, IsActive: true, protect: true }\n' }), liveSnapshot({ monitors: [aLiveMonitor({ Name: 'db' })] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
  });

  it('never protects a group membership: removing a member of a protected group is an edit of the group', () => {
    const desired = tree('protect: ["monitorGroup:*", "monitor:*"]\n', { 'all.yaml': 'monitors:\n  - { Name: a }\n  - { Name: b }\nmonitorGroups:\n  - { Description: Shop, members: [a] }\n' });
    const plan = planFor(
      desired,
      liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'b' })], monitorGroups: [{ MonitorGroupGuid: guidFor('monitorGroup', 'Shop'), Description: 'Shop' }], members: { Shop: [guidFor('monitor', 'a'), guidFor('monitor', 'b')] } }),
    );
    expect(plan.steps.map((s) => [s.action, s.kind, s.key, s.protectedBy])).toEqual([['delete', 'groupMembership', 'Shop/b', undefined]]);
  });

  it('a plan with a protected delete is shown as refused, and applyPlan refuses it before any request', async () => {
    const plan = planFor(tree('protect: ["monitor:prod-*"]\n'), liveSnapshot({ monitors: [aLiveMonitor({ Name: 'prod-db' })] }));
    expect(renderText(plan)).toContain('REFUSED: protected by monitor:prod-* (monsync.yaml:6:11); no option allows it');
    expect(renderText(plan)).toContain('REFUSED PLAN: it deletes or retires 1 protected object');
    expect(renderMarkdown(plan)).toContain('> **Refused plan:** apply writes nothing');
    const requests: string[] = [];
    const client = new Proxy({}, { get: (_, family) => new Proxy({}, { get: (__, method) => () => requests.push(`${String(family)}.${String(method)}`) }) }) as WriteClient;
    await expect(applyPlan(plan, client)).rejects.toBeInstanceOf(PlanRefusedError);
    expect(requests).toEqual([]);
  });
});

describe('policy on the plan', () => {
  const POLICY = 'policy:\n  maxInactiveShare: { percent: 40, severity: warning }\n  monitorInGroup: {}\n';

  it('maxInactiveShare counts the monitors after the plan: declared as declared, unmanaged kept, retired ones gone', () => {
    const monitors = 'monitors:\n  - { Name: a, IsActive: false }\n  - { Name: b }\n';
    const live = [aLiveMonitor({ Name: 'a' }), aLiveMonitor({ Name: 'b', IsActive: false }), aLiveMonitor({ Name: 'legacy', IsActive: false })];
    // Declared: a off, b (IsActive not declared) keeps its live false; legacy is retired: 2 of 2 inactive.
    const plan = planFor(tree(POLICY.replace('  monitorInGroup: {}\n', ''), { 'monitors.yaml': monitors }), liveSnapshot({ monitors: live }));
    expect(plan.policy).toEqual([
      { rule: 'maxInactiveShare', severity: 'warning', message: '2 of 2 monitors (100%) would be inactive after this plan, over the policy\'s 40%', fix: 'activate or remove inactive monitors, or raise the percentage', file: 'monsync.yaml', line: 7, column: 3 },
    ]);
    const fine = planFor(tree(POLICY.replace('  monitorInGroup: {}\n', ''), { 'monitors.yaml': 'monitors:\n  - { Name: a }\n  - { Name: b, IsActive: true }\n' }), liveSnapshot({ monitors: live }));
    expect(fine.policy).toBeUndefined();
  });

  it('puts the tree\'s findings in the plan JSON, valid against the plan schema, and in a Policy section', async () => {
    const plan = planFor(tree(POLICY, { 'monitors.yaml': 'monitors:\n  - { Name: loose, MonitorType: Https }\n' }), liveSnapshot());
    expect(plan.policy?.map((f) => [f.rule, f.severity, f.key, `${f.file}:${f.line}:${f.column}`])).toEqual([['monitorInGroup', 'error', 'loose', 'monitors.yaml:2:13']]);
    // A plan file is validated against schemas/plan.schema.json when read.
    expect((await parsePlanFile(JSON.stringify(plan))).policy).toEqual(plan.policy);
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('### Policy: 1 error, 0 warnings');
    expect(markdown).toContain('- **error** `monitorInGroup` monitor "loose" (`monitors.yaml:2:13`): monitor \\`loose\\` is in no monitor group. Fix: add the monitor to the members of a monitor group.');
    expect(renderText(plan)).toMatch(/Policy:\n {2}✗ monitorInGroup: monitor `loose` is in no monitor group {2}\(monitors\.yaml:2:13\)\n {6}fix: /);
  });
});
