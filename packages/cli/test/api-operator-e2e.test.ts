/**
 * monsync works out which operator the API account acts for, with nothing exported: no `apiOperator`, no
 * MONSYNC_OPERATOR. Its first apply has the service record it (the creator's authorization on a vault section
 * monsync creates); later plans read it back. Where it cannot tell, the plan says so once, labels no change as
 * someone else's, and keeps every access that may be its own: it never locks itself out of a section it manages.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientFromEnv } from '@monsync/client';
import { SEEDED } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ seed: 'demo', start: { retryAfterSeconds: 0 }, eachTest: { faultsOff: true, reset: true, clearLog: true } });
const RECORD = 'monsync API account (do not edit)';

/** A repository as `git init` leaves it. */
function emptyRepository(): string {
  const root = tempTree({});
  mkdirSync(join(root, '.git'));
  return root;
}

async function sectionNames(): Promise<string[]> {
  const client = clientFromEnv(suite.env);
  try {
    return (await client.vaultSections.list().toArray()).map((s) => String(s['Name'])).sort();
  } finally {
    await client.close();
  }
}

async function monitorGuid(name: string): Promise<string> {
  const client = clientFromEnv(suite.env);
  try {
    return String((await client.monitors.list().toArray()).find((m) => m['Name'] === name)?.['MonitorGuid']);
  } finally {
    await client.close();
  }
}

const TEAM_TREE = { 'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  vault: { prune: false }\n  operators: { prune: false }\n', 'people.yaml': 'operators:\n  - Email: viewer@example.com\n' };
const TEAM_SECTION = 'vault:\n  sections:\n    - Name: Team\n      access:\n        - { operator: viewer@example.com, level: view }\n';

describe('the API account\'s operator, worked out by monsync', () => {
  it('a tree made by init plans after its own apply with no change labelled as made outside git; another operator\'s change is', async () => {
    const root = emptyRepository();
    const init = await monsync(['init', '--kinds', 'monitors,vault', '--no-workflows'], { cwd: root });
    expect(init.code).toBe(ExitCode.Ok);
    expect(init.out).toContain('apiOperator: <Email or OperatorGuid>');
    const monitor = (interval: number) => `monitors:\n  - { Name: Status page, MonitorType: Https, Url: "https://status.example.com/", CheckInterval: ${interval} }\n`;
    writeFileSync(join(root, 'configs', 'monitors.yaml'), monitor(5));
    const env = suite.env;
    expect(env['MONSYNC_OPERATOR']).toBeUndefined();

    const applied = await monsync(['apply', '--auto-approve'], { cwd: root, env });
    expect(applied.code, applied.err).toBe(ExitCode.Ok);
    expect(applied.err).toContain(`The API account acts for operator ${SEEDED.admin.guid}: recorded in the vault section "${RECORD}" (its creator)`);

    writeFileSync(join(root, 'configs', 'monitors.yaml'), monitor(10));
    const own = await monsync(['plan'], { cwd: root, env });
    expect(own.code, own.err).toBe(ExitCode.Ok);
    expect(own.out).toContain('~ update monitor "Status page"');
    expect(own.out).not.toContain('changed outside git');
    expect(own.out).not.toContain('API_OPERATOR_UNKNOWN');
    // The record is monsync's own: no plan shows it.
    expect(own.out).not.toContain(RECORD);

    await suite.emulator.control.actAs(SEEDED.colleague.email, { method: 'PATCH', path: `/Monitor/${await monitorGuid('Status page')}`, body: { CheckInterval: 30 } });
    const theirs = await monsync(['plan'], { cwd: root, env });
    expect(theirs.out).toContain('changed outside git by Sam Ops');
  });

  it('a tree pulled by init --from-live learns it on its first apply, even with nothing to change', async () => {
    const root = emptyRepository();
    const init = await monsync(['init', '--from-live', '--no-workflows'], { cwd: root, env: suite.env });
    expect(init.code, init.err).toBe(ExitCode.Ok);
    expect(init.out).toContain('apiOperator: <Email or OperatorGuid>');
    // The secrets the pulled tree reads by reference (operator passwords, vault values), as a team sets them.
    const files = readdirSync(join(root, 'configs'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.yaml'));
    const pulled = files.map((file) => readFileSync(join(root, 'configs', file), 'utf8'));
    const names = new Set(pulled.flatMap((text) => [...text.matchAll(/fromEnv: (MONSYNC_SECRET_\w+)/g)].map((m) => m[1] ?? '')));
    const env = { ...suite.env, ...Object.fromEntries([...names].map((name) => [name, 'dW51c2VkLXNlY3JldA=='])) };
    const first = await monsync(['apply', '--auto-approve'], { cwd: root, env });
    expect(first.code, first.err).toBe(ExitCode.Ok);
    expect(first.err).toContain(`The API account acts for operator ${SEEDED.admin.guid}`);
    // The demo account's monitors were last changed by the API account's operator, or by Sam Ops (drift).
    await suite.emulator.control.actAs(SEEDED.admin.email, { method: 'PATCH', path: `/Monitor/${await monitorGuid('Shop homepage')}`, body: { CheckInterval: 30 } });
    const plan = await monsync(['plan'], { cwd: root, env });
    expect(plan.out).toContain('~ update monitor "Shop homepage"');
    expect(plan.out).not.toContain('changed outside git by Demo Administrator');
    expect(plan.out).not.toContain('API_OPERATOR_UNKNOWN');
  });

  /** The Team section declared without the API operator: apply, a plan that is empty, apply again; one section stays. */
  async function applyPlanApplyTeam() {
    const tree = tempTree({ ...TEAM_TREE, 'vault.yaml': TEAM_SECTION });
    const env = suite.env;
    const first = await monsync(['apply', '--auto-approve'], { cwd: tree, env });
    expect(first.code, first.err).toBe(ExitCode.Ok);
    const plan = await monsync(['plan', '--detailed-exitcode'], { cwd: tree, env });
    expect(plan.code, plan.out).toBe(ExitCode.Ok);
    const again = await monsync(['apply', '--auto-approve'], { cwd: tree, env });
    expect(again.out).toContain('Nothing to apply');
    expect((await sectionNames()).filter((name) => name === 'Team')).toEqual(['Team']);
    return { plan, again };
  }

  it('converges on a section whose access list does not name it: apply, plan empty, apply again, one section', async () => {
    const { again } = await applyPlanApplyTeam();
    expect(again.code).toBe(ExitCode.Ok);
  });

  it('where it cannot tell (the record names two operators), says so once, keeps every access that may be its own, and still converges', async () => {
    const client = clientFromEnv(suite.env);
    try {
      const record = await client.vaultSections.create({ Name: RECORD });
      await client.vaultSections.authorizations.create(String(record['VaultSectionGuid']), { AuthorizationType: 'ViewVaultSection', OperatorGuid: SEEDED.viewer.guid });
    } finally {
      await client.close();
    }
    const { plan } = await applyPlanApplyTeam();
    expect(plan.out.match(/API_OPERATOR_UNKNOWN: monsync cannot tell which operator the API account acts for/g)).toHaveLength(1);
    expect(plan.out).toContain('`apiOperator: <Email or OperatorGuid>` in monsync.yaml');
    expect(plan.out).toContain('ACCESS_KEPT: vault access "Team/operator:admin@example.com" is kept although the config does not declare it: monsync cannot tell which operator the API account acts for');
  });
});
