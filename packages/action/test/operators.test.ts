import type { Plan } from '@monsync/reconciler';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiInputs, demoWorkspace, pullRequestEvent, runAction, useHarness } from './harness.js';

const harness = useHarness();

async function planWith(extra: Record<string, string>, env: Record<string, string | undefined> = {}) {
  const inputs = { command: 'plan', config: 'configs', comment: 'false', ...apiInputs(harness.emulator.url), ...extra };
  const result = await runAction({ workspace: demoWorkspace(), inputs, event: pullRequestEvent(31), env });
  expect(result.failure).toBeUndefined();
  const plan = JSON.parse(readFileSync(result.outputs['plan-file'] ?? '', 'utf8')) as Plan;
  return { result, blog: plan.steps.find((step) => step.id === 'monitor:Blog') };
}

describe('the input operators', () => {
  it('takes every operator listed (both API accounts) as monsync itself: their changes are not drift', async () => {
    const { blog } = await planWith({ operators: 'admin@example.com\nsam.ops@example.com' }, { MONSYNC_OPERATOR: undefined });
    expect(blog?.action).toBe('update');
    expect(blog?.drift).toBeUndefined();
  });

  it('adds MONSYNC_OPERATOR to the list, and warns about a value that matches no operator', async () => {
    const { result, blog } = await planWith({ operators: 'sam.ops@exmaple.com' }, { MONSYNC_OPERATOR: 'admin@example.com' });
    expect(blog?.drift).toMatchObject({ operatorName: 'Sam Ops' });
    const warnings = result.commands.filter((command) => command.command === 'warning').map((command) => command.message);
    expect(warnings).toContain('input operators: "sam.ops@exmaple.com" matches no operator of the account (by GUID or e-mail), so the changes of that account are reported as drift');
  });
});
