/**
 * A saved plan records where it was made (the API URL, normalised, and a hash of URL and API user name), and
 * `monsync apply PLANFILE` refuses it against another service or API account, even when that account is in the same
 * state (so every digest of the plan matches): exit 1, the reason, nothing read or written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEEDED } from '@monsync/emulator';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

// Two accounts in the same state: the same seed gives the same objects, GUIDs and all.
const production = useEmulator({ seed: 'demo', eachTest: { reset: true, clearLog: true } });
const staging = useEmulator({ seed: 'demo', eachTest: { reset: true, clearLog: true } });

const TREE = {
  'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n',
  'monitors.yaml': 'monitors:\n  - Name: Target check\n    MonitorType: Https\n    Url: https://example.com/\n    CheckInterval: 5\n',
};

const requests = (suite: typeof production): number => suite.emulator.control.requestLog().total;

async function savedPlan(): Promise<{ tree: string; plan: Plan }> {
  const tree = tempTree(TREE);
  const made = await monsync(['plan', '--out', 'plan.json'], { env: production.env, cwd: tree });
  expect(made.code, made.err).toBe(ExitCode.Ok);
  return { tree, plan: JSON.parse(readFileSync(join(tree, 'plan.json'), 'utf8')) as Plan };
}

describe('a saved plan and its target', () => {
  it('records the API URL without credentials and the account as a hash, never the user name or password', async () => {
    const { tree, plan } = await savedPlan();
    expect(plan.target?.apiUrl).toBe(production.env['MONSYNC_API_URL']?.replace(/\/+$/, ''));
    expect(plan.target?.account).toMatch(/^[0-9a-f]{64}$/);
    const text = readFileSync(join(tree, 'plan.json'), 'utf8');
    expect(text).not.toContain(production.env['MONSYNC_API_PASSWORD']);
    expect(text).not.toContain('"demo"');
  });

  it('is refused against another account in the same state, before anything is read there', async () => {
    const { tree } = await savedPlan();
    // The same state: a plan made there has the same digests.
    const there = await monsync(['plan', '--format', 'json'], { env: staging.env, cwd: tree });
    const saved = JSON.parse(readFileSync(join(tree, 'plan.json'), 'utf8')) as Plan;
    expect((JSON.parse(there.out) as Plan).liveDigest).toBe(saved.liveDigest);
    staging.emulator.control.clearLog();
    const { code, out, err } = await monsync(['apply', 'plan.json', '--auto-approve', '--replan'], { env: staging.env, cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain(
      `apply refused: plan.json is a plan for another target: it was made against the service at ${saved.target?.apiUrl ?? ''}, and this apply would write to ${staging.env['MONSYNC_API_URL'] ?? ''}.`,
    );
    expect(err).toContain('Check MONSYNC_API_URL and MONSYNC_API_USERNAME');
    expect(out).toBe('');
    expect(requests(staging)).toBe(0);
  });

  it('is refused with another API account of the same service', async () => {
    const { tree } = await savedPlan();
    production.emulator.control.clearLog();
    const env = { ...production.env, MONSYNC_API_USERNAME: SEEDED.viewer.apiUser, MONSYNC_API_PASSWORD: SEEDED.viewer.apiPassword };
    const { code, err } = await monsync(['apply', 'plan.json', '--auto-approve'], { env, cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain(`apply refused: plan.json is a plan for another target: it was made with another API account of ${production.env['MONSYNC_API_URL'] ?? ''} than the one this apply signs in with.`);
    expect(err).not.toContain(SEEDED.viewer.apiPassword);
    expect(requests(production)).toBe(0);
  });

  it('is applied where it was made, the URL written with a trailing slash or in capitals all the same', async () => {
    const { tree, plan } = await savedPlan();
    const url = (production.env['MONSYNC_API_URL'] ?? '').replace('http://127.0.0.1', 'HTTP://127.0.0.1');
    const { code, out, err } = await monsync(['apply', 'plan.json', '--auto-approve'], { env: { ...production.env, MONSYNC_API_URL: `${url}/` }, cwd: tree });
    expect(code, err).toBe(ExitCode.Ok);
    expect(out).toContain(`Apply complete: ${plan.steps.length} of ${plan.steps.length} steps done`);
  });

  it('without a recorded target (a plan made by an older monsync) is applied as before', async () => {
    const { tree } = await savedPlan();
    const path = join(tree, 'plan.json');
    const plan = JSON.parse(readFileSync(path, 'utf8')) as Plan;
    delete plan.target;
    writeFileSync(path, JSON.stringify(plan));
    const { code, err } = await monsync(['apply', 'plan.json', '--auto-approve'], { env: production.env, cwd: tree });
    expect(code, err).toBe(ExitCode.Ok);
  });
});
