/**
 * The acceptance suite: create -> plan empty -> update -> pull -> prune, through the `monsync` command, against a
 * real account (`live.test.ts`, with MONSYNC_LIVE=1) or the emulator in each profile (`emulator.test.ts`). Every
 * object it makes is named with a run prefix, every plan is narrowed to that prefix (`--target`) and applied as a
 * saved plan, so nothing else in the account is ever planned; and whatever happens, `cleanUp` removes every object
 * with the prefix at the end, and only those.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type ClientOptions } from '@monsync/client';
import { expect } from 'vitest';
import { ExitCode } from '../../src/exit-codes.js';
import { monsync, tempTree, type Outcome } from '../helpers.js';

export interface Target {
  /** MONSYNC_API_URL, MONSYNC_API_USERNAME, MONSYNC_API_PASSWORD (and MONSYNC_OPERATOR when known). */
  env: Record<string, string>;
}

/** `msacc-<hex>-`: unique per run, so two runs (or a run and a person) never meet. */
export function runPrefix(): string {
  return `msacc-${randomBytes(3).toString('hex')}-`;
}

function targets(prefix: string): string[] {
  return ['monitor', 'monitorGroup', 'groupMembership', 'sla', 'slaExclusionPeriod'].flatMap((kind) => ['--target', `${kind}:${prefix}*`]);
}

interface Shape {
  web: { url: string; checkFrequency?: number };
  api: boolean;
  warning: number;
}

function tree(prefix: string, shape: Shape, prune: boolean): Record<string, string> {
  const monitor = (name: string, url: string) => `  - { Name: ${prefix}${name}, MonitorType: Https, Url: "${url}" }\n`;
  return {
    'monsync.yaml': `apiVersion: monsync/v1\nmanage:\n  monitors: { prune: ${prune} }\n  monitorGroups: { prune: ${prune} }\n  slas: { prune: ${prune} }\n`,
    'monitors.yaml':
      'monitors:\n' +
      monitor('web', shape.web.url) +
      (shape.api ? monitor('api', 'https://api.example.com/health') : '') +
      'monitorGroups:\n' +
      `  - Description: ${prefix}group\n    members: [${prefix}web${shape.api ? `, ${prefix}api` : ''}]\n` +
      'slas:\n' +
      `  - Description: ${prefix}gold\n    UptimeErrorThreshold: 99\n    UptimeWarningThreshold: ${shape.warning}\n` +
      `    exclusionPeriods:\n      - { Description: ${prefix}freeze, From: "2030-11-27T00:00:00", Until: "2030-11-28T00:00:00" }\n`,
  };
}

function expectExit(outcome: Outcome, code: number, step: string): void {
  expect(outcome.code, `${step}: exit ${outcome.code}\n${outcome.out}\n${outcome.err}`).toBe(code);
}

/** Plans the prefixed objects only, saves the plan, and applies exactly that plan. */
async function applyPrefixed(dir: string, target: Target, prefix: string, step: string): Promise<Outcome> {
  const planned = await monsync(['plan', ...targets(prefix), '--out', 'plan.json'], { cwd: dir, env: target.env });
  if (planned.code !== ExitCode.Ok && planned.code !== ExitCode.UnsafeOrStale) expectExit(planned, ExitCode.Ok, `${step}: plan`);
  // A prune of one of two objects is over a 30% threshold in a small account: the saved plan holds only that delete.
  const applied = await monsync(['apply', 'plan.json', '--auto-approve', '--allow-unsafe'], { cwd: dir, env: target.env });
  expectExit(applied, ExitCode.Ok, `${step}: apply`);
  return applied;
}

async function expectEmptyPlan(dir: string, target: Target, prefix: string, step: string): Promise<void> {
  const plan = await monsync(['plan', ...targets(prefix), '--detailed-exitcode'], { cwd: dir, env: target.env });
  expectExit(plan, ExitCode.Ok, `${step}: plan again`);
}

export async function runAcceptance(target: Target, prefix: string): Promise<void> {
  const dir = tempTree(tree(prefix, { web: { url: 'https://www.example.com/' }, api: true, warning: 99.5 }, true));
  try {
    // create
    const created = await applyPrefixed(dir, target, prefix, 'create');
    expect(created.out).toMatch(/Apply complete: \d+ of \d+ steps done/);
    await expectEmptyPlan(dir, target, prefix, 'create');

    // update
    for (const [file, text] of Object.entries(tree(prefix, { web: { url: 'https://www.example.com/shop' }, api: true, warning: 99.9 }, true))) writeFileSync(join(dir, file), text);
    const updated = await applyPrefixed(dir, target, prefix, 'update');
    expect(updated.err).toContain(`~ monitor "${prefix}web" updated`);
    expect(updated.err).toContain(`~ SLA "${prefix}gold" updated`);
    await expectEmptyPlan(dir, target, prefix, 'update');

    // pull: the account as a tree, holding what was applied, and a tree that validates
    const pulledDir = join(tempTree({}), 'pulled');
    const pulled = await monsync(['pull', '--out', pulledDir], { cwd: dir, env: target.env });
    expectExit(pulled, ExitCode.Ok, 'pull');
    const monitors = readFileSync(join(pulledDir, 'monitors.yaml'), 'utf8');
    expect(monitors).toContain(`${prefix}web`);
    expect(monitors).toContain('https://www.example.com/shop');
    expect(readFileSync(join(pulledDir, 'slas.yaml'), 'utf8')).toContain(`${prefix}freeze`);
    expectExit(await monsync(['validate', '--config', pulledDir], { env: {} }), ExitCode.Ok, 'validate the pulled tree');

    // prune: the api monitor leaves the tree, so it leaves the account (deleted, or retired where DELETE is refused)
    for (const [file, text] of Object.entries(tree(prefix, { web: { url: 'https://www.example.com/shop' }, api: false, warning: 99.9 }, true))) writeFileSync(join(dir, file), text);
    const pruned = await applyPrefixed(dir, target, prefix, 'prune');
    expect(pruned.err).toMatch(new RegExp(`- monitor "${prefix}api" deleted`));
    await expectEmptyPlan(dir, target, prefix, 'prune');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Removes every object whose name starts with the prefix, whatever state a failed step left: SLAs (their periods go
 * with them), groups, then monitors (retired where the service refuses DELETE, so they at least stop running).
 * Returns what could not be removed.
 */
export async function cleanUp(target: Target, prefix: string): Promise<string[]> {
  const options: ClientOptions = { baseUrl: target.env['MONSYNC_API_URL'] ?? '', username: target.env['MONSYNC_API_USERNAME'] ?? '', password: target.env['MONSYNC_API_PASSWORD'] ?? '' };
  const client = createClient(options);
  const left: string[] = [];
  const named = (value: unknown) => typeof value === 'string' && value.startsWith(prefix);
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      left.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  try {
    for (const sla of await client.slas.list().toArray()) if (named(sla.Description)) await attempt(`SLA ${String(sla.Description)}`, () => client.slas.delete(String(sla.SlaGuid)));
    for (const group of await client.monitorGroups.list().toArray()) {
      if (named(group.Description)) await attempt(`monitor group ${String(group.Description)}`, () => client.monitorGroups.delete(String(group.MonitorGroupGuid)));
    }
    for (const monitor of await client.monitors.list().toArray()) {
      if (!named(monitor.Name)) continue;
      const guid = String(monitor.MonitorGuid);
      await attempt(`monitor ${String(monitor.Name)}`, async () => {
        try {
          await client.monitors.delete(guid);
        } catch (error) {
          const status = (error as { status?: unknown }).status;
          if (status !== 405) throw error;
          await client.monitors.patch(guid, { IsActive: false, GenerateAlert: false });
          left.push(`monitor ${String(monitor.Name)}: the service refuses DELETE; left inactive`);
        }
      });
    }
  } finally {
    await client.close();
  }
  return left;
}
