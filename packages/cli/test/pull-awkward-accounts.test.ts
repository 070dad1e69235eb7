import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileFromEnv } from '@monsync/emulator';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com', eachTest: { reset: true } });

interface StateMonitor {
  fields: Record<string, unknown>;
}

/** Changes the live monitor named `name` through the control API (fields the web app can set, unknown to us). */
async function withMonitorFields(name: string, fields: Record<string, unknown>): Promise<void> {
  const state = suite.emulator.control.dump() as unknown as { monitors: StateMonitor[] };
  const monitor = state.monitors.find((m) => m.fields['Name'] === name);
  if (monitor === undefined) throw new Error(`no live monitor ${name}`);
  Object.assign(monitor.fields, fields);
  await suite.emulator.control.load(state);
}

/** Loads `state` into the emulator and pulls it into a fresh folder; the pull itself must succeed. */
async function pullOf(state: unknown): Promise<Awaited<ReturnType<typeof monsync>>> {
  await suite.emulator.control.load(state);
  const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: tempTree({}) });
  expect(pulled.code).toBe(ExitCode.Ok);
  return pulled;
}

/** The `{ fromEnv }` placeholders pull lists at the end of its output. */
function placeholders(out: string): string[] {
  return [...out.matchAll(/^ {2}(MONSYNC_SECRET_[A-Z0-9_]+) /gm)].map((match) => match[1] ?? '');
}

describe('monsync pull on awkward live data', () => {
  // The published service drops monitor fields outside its model (ProxyPassword, AuthToken), so there it never returns them.
  it.skipIf(profileFromEnv() === 'published')('writes a secret-named monitor field the service returns as a fromEnv placeholder, never its value, and the tree plans only the fingerprint to write', async () => {
    const canary = 'CANARY-7f3a9c-proxy';
    await withMonitorFields('Mail relay', { ProxyPassword: canary, AuthToken: `${canary}-token` });
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const written = readdirSync(join(root, 'tree')).map((file) => readFileSync(join(root, 'tree', file), 'utf8')).join('\n');
    expect(written + pulled.out + pulled.err).not.toContain(canary);
    const secrets = placeholders(pulled.out);
    expect(secrets).toEqual(expect.arrayContaining(['MONSYNC_SECRET_MAIL_RELAY_PROXY_PASSWORD', 'MONSYNC_SECRET_MAIL_RELAY_AUTH_TOKEN']));
    expect(readFileSync(join(root, 'tree', 'monitors.yaml'), 'utf8')).toContain('    ProxyPassword: { fromEnv: MONSYNC_SECRET_MAIL_RELAY_PROXY_PASSWORD }\n');

    const withSecrets = { ...suite.env, ...Object.fromEntries(secrets.map((name) => [name, `value-of-${name}`])) };
    const validate = await monsync(['validate', '--config', 'tree'], { env: withSecrets, cwd: root });
    expect(validate.err).toBe('');
    const planned = await monsync(['plan', '--config', 'tree', '--format', 'json'], { env: withSecrets, cwd: root });
    const plan = JSON.parse(planned.out) as Plan;
    // As for vault items: secrets monsync never applied have no fingerprint yet, so they are sent once, and nothing else.
    const monitorSteps = plan.steps.filter((step) => step.kind === 'monitor');
    expect(monitorSteps.map((step) => `${step.action} ${step.id}: ${step.reason ?? ''}`)).toEqual(['update monitor:Mail relay: no fingerprint marker']);
    expect(monitorSteps.flatMap((step) => step.changes).every((change) => change.sensitive === true)).toBe(true);
  });

  it('says which folder it means when --out names a file, instead of a bare ENOTDIR', async () => {
    const root = tempTree({ 'taken.txt': 'x\n' });
    const { code, err } = await monsync(['pull', '--out', 'taken.txt'], { env: suite.env, cwd: root });
    expect(code).toBe(ExitCode.Error);
    expect(err).toBe('monsync pull: error PULL_TARGET_NOT_A_FOLDER: taken.txt is a file, not a folder; give pull a new or empty folder\n');
  });

  it('notes exclusion periods of one SLA that share a Description (the key), as it notes monitors that share a Name', async () => {
    const state = suite.emulator.control.dump() as unknown as { slas: { fields: Record<string, unknown>; exclusionPeriods: Record<string, unknown>[] }[] };
    const gold = state.slas.find((sla) => sla.fields['Description'] === 'Gold');
    if (gold === undefined) throw new Error('no Gold SLA');
    gold.exclusionPeriods.push({ ExclusionPeriodId: 90, Hash: 'abc', Description: 'Black Friday freeze', From: '2027-11-26T00:00:00', Until: '2027-11-27T00:00:00' });
    const pulled = await pullOf(state);
    expect(pulled.out).toContain('note: 2 exclusion periods of SLA "Gold" are described "Black Friday freeze": the key must be unique, so rename all but one in the web app (or in slas.yaml after pinning ExclusionPeriodId)\n');
  });

  it('notes scheduled reports that carry the same monsync:key marker, instead of writing two entries of one key silently', async () => {
    const state = suite.emulator.control.dump() as unknown as { scheduledReports: Record<string, unknown>[] };
    const weekly = state.scheduledReports.find((report) => String(report['InternalNotes']).endsWith('monsync:key=weekly-exec'));
    if (weekly === undefined) throw new Error('no weekly-exec report');
    state.scheduledReports.push({ ...weekly, ScheduledReportGuid: '0f6d2c1e-5b7a-4c3d-9e8f-1a2b3c4d5e6f', Notes: 'a copy made in the web app' });
    const pulled = await pullOf(state);
    expect(pulled.out).toContain('note: 2 live scheduled reports carry the key marker monsync:key=weekly-exec: the key must be unique, so change the marker in the InternalNotes of all but one in the web app (or delete the copies)\n');
  });

  it('notes vault items whose Section/Item keys collide because a name holds a slash (section A item B/c, section A/B item c)', async () => {
    const state = suite.emulator.control.dump() as unknown as { vaultSections: Record<string, unknown>[]; vaultItems: Record<string, unknown>[]; vaultAuthorizations: Record<string, unknown>[] };
    const web = state.vaultItems.find((item) => item['Name'] === 'shop-login');
    if (web === undefined) throw new Error('no shop-login item');
    const sections = [
      { VaultSectionGuid: '1a1a1a1a-0000-4000-8000-000000000001', Name: 'A' },
      { VaultSectionGuid: '1a1a1a1a-0000-4000-8000-000000000002', Name: 'A/B' },
    ];
    for (const section of sections) {
      state.vaultSections.push(section);
      for (const grant of state.vaultAuthorizations.filter((a) => a['ContextId'] === web['VaultSectionGuid'])) {
        state.vaultAuthorizations.push({ ...grant, AuthorizationId: `${String(grant['AuthorizationId']).slice(0, 30)}${section.VaultSectionGuid.slice(30)}`, ContextId: section.VaultSectionGuid });
      }
    }
    state.vaultItems.push({ ...web, VaultItemGuid: '2b2b2b2b-0000-4000-8000-000000000001', VaultSectionGuid: sections[0]?.VaultSectionGuid, Name: 'B/c' });
    state.vaultItems.push({ ...web, VaultItemGuid: '2b2b2b2b-0000-4000-8000-000000000002', VaultSectionGuid: sections[1]?.VaultSectionGuid, Name: 'c' });
    const pulled = await pullOf(state);
    expect(pulled.out).toContain('note: 2 live vault items have the key "A/B/c" (a section or item name holds a slash): the key must be unique, so rename all but one in the web app\n');
  });

  it('apply shows a key holding a newline or a terminal escape escaped, as plan does, never raw', async () => {
    const awkward = 'Blog\nline\u001b[2J';
    await withMonitorFields('Blog', { Name: awkward });
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    const withSecrets = { ...suite.env, ...Object.fromEntries(placeholders(pulled.out).map((name) => [name, `value-of-${name}`])) };
    const monitors = join(root, 'tree', 'monitors.yaml');
    const text = readFileSync(monitors, 'utf8');
    const at = text.indexOf('  - Name: "Blog\\nline\\u001b[2J"');
    expect(at).toBeGreaterThan(0);
    const frequency = text.indexOf('CheckInterval: 15', at);
    writeFileSync(monitors, `${text.slice(0, frequency)}CheckInterval: 30${text.slice(frequency + 'CheckInterval: 15'.length)}`);
    const planned = await monsync(['plan', '--config', 'tree', '--target', 'monitor:Blog*', '--out', 'plan.json'], { env: withSecrets, cwd: root });
    expect(planned.out).toContain('~ update monitor "Blog\\nline\\u001b[2J"');
    const applied = await monsync(['apply', 'plan.json', '--config', 'tree', '--auto-approve'], { env: withSecrets, cwd: root });
    expect(applied.err).toContain('  ~ monitor "Blog\\nline\\u001b[2J" updated\n');
    expect(applied.out + applied.err).not.toContain('\u001b[2J');
    expect(applied.code).toBe(ExitCode.Ok);
  });

  it('leaves out, with a note, a live group named like the All Monitors group (a tree cannot declare one), so the tree validates', async () => {
    const created = await suite.emulator.control.actAs('admin@example.com', { method: 'POST', path: '/MonitorGroup', body: { Description: 'all monitors' } });
    expect(Math.floor(created.status / 100)).toBe(2);
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('note: monitor group "all monitors" is named like the All Monitors group, which a tree cannot declare; left out (rename it in the web app to manage it)\n');
    expect(readFileSync(join(root, 'tree', 'monitor-groups.yaml'), 'utf8')).not.toContain('all monitors');
    const withSecrets = { ...suite.env, ...Object.fromEntries(placeholders(pulled.out).map((name) => [name, `value-of-${name}`])) };
    const validate = await monsync(['validate', '--config', 'tree'], { env: withSecrets, cwd: root });
    expect(validate.err).toBe('');
    expect(validate.code).toBe(ExitCode.Ok);
  });

  it('notes live monitor groups and vault sections that share their key (the API allows both), as it notes monitors', async () => {
    for (const [path, body] of [['/VaultSection', { Name: 'Web' }], ['/MonitorGroup', { Description: 'Shop' }]] as const) {
      const created = await suite.emulator.control.actAs('admin@example.com', { method: 'POST', path, body });
      expect(Math.floor(created.status / 100)).toBe(2);
    }
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('note: 2 live monitor groups are described "Shop": the key must be unique, so rename all but one in the web app\n');
    expect(pulled.out).toContain('note: 2 live vault sections are named "Web": the key must be unique, so rename all but one in the web app\n');
  });
});
