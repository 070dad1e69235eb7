import { readFileSync } from 'node:fs';
import { startEmulator, type RunningEmulator } from '@monsync/emulator';
import type { Plan } from '@monsync/reconciler';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { planMarker } from '../src/markers.js';
import {
  ALL_SECRETS,
  API_PASSWORD,
  apiInputs,
  demoWorkspace,
  FakeThread,
  gitHub,
  masksComeFirst,
  pullRequestEvent,
  runAction,
  stageFingerprints,
  type ActionResult,
} from './harness.js';

let emulator: RunningEmulator;
const scopes: nock.Scope[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo', password: API_PASSWORD });
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterAll(async () => {
  nock.enableNetConnect();
  await emulator.close();
});
beforeEach(async () => {
  await emulator.control.reset('demo');
  await stageFingerprints(emulator);
  emulator.control.clearLog();
});
afterEach(() => {
  try {
    for (const scope of scopes) expect(scope.pendingMocks()).toEqual([]);
  } finally {
    scopes.length = 0;
    nock.cleanAll();
  }
});

function scope(): nock.Scope {
  const s = gitHub();
  scopes.push(s);
  return s;
}

/** The secrets reach stdout only as the masks that hide them; nowhere else. */
function expectNoSecrets(result: ActionResult, more: string[] = [], mustMask: readonly string[] = ALL_SECRETS): void {
  expect(masksComeFirst(result)).toBe(true);
  const masked = result.commands.filter((c) => c.command === 'add-mask').map((c) => c.message);
  for (const secret of mustMask) expect(masked).toContain(secret);
  const log = result.lines.filter((line) => !line.startsWith('::add-mask::')).join('\n');
  for (const text of [log, result.summary, JSON.stringify(result.outputs), ...more]) {
    for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
  }
}

describe('plan on a pull request', () => {
  it('creates the plan comment on the first run, with the plan, the per-folder marker and the run link', async () => {
    const workspace = demoWorkspace();
    const thread = new FakeThread(7);
    thread.addOther(2);
    const s = scope();
    thread.expectList(s);
    thread.expectCreate(s);
    const result = await runAction({ workspace, inputs: { command: 'plan', config: 'configs', ...apiInputs(emulator.url) }, event: pullRequestEvent(7) });
    expect(result.failure).toBeUndefined();
    expect(result.failed).toBe(false);
    expect(s.isDone()).toBe(true);
    const [body = ''] = thread.sentBodies;
    expect(body.split('\n')[0]).toBe('<!-- monsync:plan config=configs -->');
    expect(body).toContain('## monsync plan: configs');
    expect(body).toMatch(/\*\*\d+ to create, \d+ to update, 1 to delete/);
    expect(body).toContain('> **This plan deletes 1 object:** monitor (1).');
    expect(body).toContain('[workflow run](https://github.com/acme/monitoring/actions/runs/4242)');
    expect(result.outputs['comment-url']).toBe(thread.withMarker(planMarker('configs'))[0]?.html_url);
    expect(result.outputs['has-changes']).toBe('true');
    const summary = JSON.parse(result.outputs['summary'] ?? '{}') as Plan['summary'];
    expect(summary.delete).toBe(1);
    const saved = JSON.parse(readFileSync(result.outputs['plan-file'] ?? '', 'utf8')) as Plan;
    expect(saved.summary).toEqual(summary);
    expect(result.summary).toContain('## monsync plan: configs');
    expectNoSecrets(result, thread.sentBodies);
  });
});
