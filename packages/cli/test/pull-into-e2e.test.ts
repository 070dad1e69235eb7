import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { appliedCopyOfDemoConfigs, listedRows, monsync, REPO_ROOT, tempTree, useEmulator } from './helpers.js';

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-5d1e-pullinto-shop',
  DEMO_SHOP_OTP_SECRET: 'CANARYFIVEDEPULLINTOOTP',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-5d1e-pullinto-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-5d1e-pullinto-pfx-password',
};
const GOLDEN = join(REPO_ROOT, 'packages/cli/test/fixtures/pull-into/demo-three-edits.diff');
const CHECKOUT_CONDITIONS = [
  { ErrorConditionType: 'HttpStatus', Value: '200' },
  { ErrorConditionType: 'LoadTimeLimit1', Value: '8000', Effect: 'Indicate' },
  { ErrorConditionType: 'LoadTimeLimit2', Value: '16000', Effect: 'Indicate' },
];

const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com', env: CANARIES, eachTest: { reset: true } });

const appliedDemoTree = () => appliedCopyOfDemoConfigs(suite.env);

async function webApp(method: string, path: string, body?: unknown): Promise<unknown> {
  const result = await suite.emulator.control.actAs('admin@example.com', { method, path, ...(body === undefined ? {} : { body }) });
  expect(result.status, `${method} ${path}`).toBeLessThan(300);
  return result.body;
}

/** The identifier of the live object at `path` whose `field` is `value`, as the web app lists it. */
async function idOf(path: string, field: string, value: string, idField: string): Promise<string> {
  const listed = (await webApp('GET', path)) as unknown;
  const rows = listedRows(listed);
  const found = rows.find((row) => row[field] === value)?.[idField];
  if (typeof found !== 'string' && typeof found !== 'number') throw new Error(`no live ${path} ${value}`);
  return String(found);
}

const monitorGuid = (name: string) => idOf('/Monitor', 'Name', name, 'MonitorGuid');

/** `diff -u` of the demo tree before and after, with the temporary folders' names taken out. */
function treeDiff(root: string): string {
  let out = '';
  try {
    execFileSync('diff', ['-ruN', 'configs', 'edited'], { cwd: root, encoding: 'utf8' });
  } catch (error) {
    out = String((error as { stdout?: unknown }).stdout ?? '');
  }
  return out
    .replace(/^diff -ruN .*\n/gm, '')
    .replace(/^--- configs\/(\S+).*$/gm, '--- a/$1')
    .replace(/^\+\+\+ edited\/(\S+).*$/gm, '+++ b/$1');
}

describe('monsync pull --into', () => {
  it('writes three web-app edits into the demo tree as exactly those lines, keeps every comment, and the next plan is empty', async () => {
    const root = await appliedDemoTree();
    cpSync(join(root, 'configs'), join(root, 'edited'), { recursive: true });
    await webApp('PATCH', `/Monitor/${await monitorGuid('Shop homepage')}`, { CheckInterval: 10 });
    // Within the demo tree's policy for Https monitors (configs/monsync.yaml), so that the edited tree validates.
    // With the load-time conditions a service may add by itself to a monitor made without them (the published and lean
    // profiles do): the object made is then the same under every profile, and so is what pull writes of it.
    await webApp('POST', '/Monitor', { Name: 'Checkout latency', MonitorType: 'Https', Url: 'https://shop.example.com/checkout', CheckInterval: 5, ErrorConditions: CHECKOUT_CONDITIONS });
    // As the web app deletes it: also where the API has no DELETE /Monitor (the lean profile, as the spec lists none).
    await suite.emulator.control.removeMonitor(await monitorGuid('Mail relay'));

    const pulled = await monsync(['pull', '--into', 'edited'], { env: suite.env, cwd: root });
    // The demo tree's own policy warning (the Blog's interval) is said by every command that reads the tree.
    expect(pulled.err.replace(/^\S+marketing\.yaml:\d+:\d+: warning POLICY_WARNING: checkInterval: monitor `Blog`[^\n]*\n(?:[^\n]*\n){3}/m, '')).not.toMatch(/error|warning/);
    expect(pulled.code).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');

    const diff = treeDiff(root);
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, diff);
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(diff).toBe(readFileSync(GOLDEN, 'utf8'));

    // Every comment, as written (what follows its `#`); the edited values before trailing comments may differ.
    const comments = (text: string) => text.split('\n').flatMap((line) => (line.trimStart().startsWith('#') ? [line] : line.includes(' # ') ? [line.slice(line.indexOf(' # '))] : []));
    for (const file of ['monitors/shop.yaml', 'monitors/marketing.yaml', 'groups.yaml', 'monsync.yaml', 'vault.yaml']) {
      expect(comments(readFileSync(join(root, 'edited', file), 'utf8')), file).toEqual(comments(readFileSync(join(root, 'configs', file), 'utf8')));
    }
    const validate = await monsync(['validate', '--config', 'edited'], { env: suite.env, cwd: root });
    expect(validate.code).toBe(ExitCode.Ok);
    const planned = await monsync(['plan', '--config', 'edited', '--format', 'json'], { env: suite.env, cwd: root });
    const plan = JSON.parse(planned.out) as Plan;
    expect(plan.steps.filter((step) => step.action !== 'ensure')).toEqual([]);
    expect(pulled.out + pulled.err).not.toMatch(/CANARY/);
  });

  it('writes changes of every kind with a read into the files that declare them: SLAs and their periods, reports, vault items, memberships', async () => {
    const root = await appliedDemoTree();
    cpSync(join(root, 'configs'), join(root, 'edited'), { recursive: true });
    const gold = await idOf('/Sla', 'Description', 'Gold', 'SlaGuid');
    const silver = await idOf('/Sla', 'Description', 'Silver', 'SlaGuid');
    await webApp('PATCH', `/Sla/${gold}`, { UptimeErrorThreshold: 99 });
    const freeze = await idOf(`/Sla/${gold}/ExclusionPeriod`, 'Description', 'Black Friday freeze', 'ExclusionPeriodId');
    await webApp('PATCH', `/Sla/${gold}/ExclusionPeriod/${freeze}`, { Until: '2026-11-29T00:00:00' });
    await webApp('POST', `/Sla/${silver}/ExclusionPeriod`, { Description: 'Office move', From: '2026-06-01T18:00:00', Until: '2026-06-02T06:00:00' });
    const report = await idOf('/ScheduledReport', 'SelectedPeriod', 'PreviousWeek', 'ScheduledReportGuid');
    await webApp('PATCH', `/ScheduledReport/${report}`, { Recipients: { Operators: ['e522cc79-7c80-47f5-87f6-391185eb1367'], ExtraEmailAddresses: ['ops@example.com', 'exec-team@example.com', 'cfo@example.com'] } });
    await webApp('PATCH', `/VaultItem/${await idOf('/VaultItem', 'Name', 'shop-login', 'VaultItemGuid')}`, { UserName: 'checkout-robot' });
    await webApp('DELETE', `/MonitorGroup/${await idOf('/MonitorGroup', 'Description', 'Marketing', 'MonitorGroupGuid')}/Member/${await monitorGuid('Blog')}`);

    const pulled = await monsync(['pull', '--into', 'edited'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');
    const read = (file: string) => readFileSync(join(root, 'edited', file), 'utf8');
    const before = (file: string) => readFileSync(join(root, 'configs', file), 'utf8');
    expect(read('slas.yaml')).toBe(
      before('slas.yaml')
        .replace('UptimeErrorThreshold: 99.5       #', 'UptimeErrorThreshold: 99         #')
        .replace('Until: "2026-11-28T00:00:00" }', 'Until: "2026-11-29T00:00:00" }')
        .replace(/(Quarterly maintenance.*\n)/, '$1      - { Description: Office move, From: "2026-06-01T18:00:00", Until: "2026-06-02T06:00:00" }\n'),
    );
    expect(read('reports.yaml')).toBe(before('reports.yaml').replace('[ops@example.com, exec-team@example.com]', '[ops@example.com, exec-team@example.com, cfo@example.com]'));
    expect(read('vault.yaml')).toBe(before('vault.yaml').replace('UserName: robot', 'UserName: checkout-robot'));
    expect(read('groups.yaml')).toBe(before('groups.yaml').replace('[Marketing site, Blog, Status page]', '[Marketing site, Status page]'));
    const planned = await monsync(['plan', '--config', 'edited', '--format', 'json'], { env: suite.env, cwd: root });
    expect((JSON.parse(planned.out) as Plan).steps.filter((step) => step.action !== 'ensure')).toEqual([]);
  });

  it('writes web-app changes to people into the file that declares them: operator fields and an own duty schedule removed', async () => {
    const root = await appliedDemoTree();
    cpSync(join(root, 'configs'), join(root, 'edited'), { recursive: true });
    const operator = async (email: string) => {
      const guid = await idOf('/Operator', 'Email', email, 'OperatorGuid');
      return { guid, fields: (await webApp('GET', `/Operator/${guid}`)) as Record<string, unknown> };
    };
    const nina = await operator('nina@example.com');
    await webApp('PUT', `/Operator/${nina.guid}`, { ...nina.fields, FullName: 'Nina Day' });
    const viewer = await operator('viewer@example.com');
    // As the web app sends it: the published service applies a time zone only with its `TimeZoneIdSpecified` companion.
    await webApp('PUT', `/Operator/${viewer.guid}`, { ...viewer.fields, TimeZoneId: 4, TimeZoneIdSpecified: true });
    const sam = await operator('sam.ops@example.com');
    const monthly = ((await webApp('GET', `/Operator/${sam.guid}/DutySchedule`)) as Record<string, unknown>[]).find((schedule) => schedule['ScheduleMode'] === 'Monthly');
    await webApp('DELETE', `/Operator/${sam.guid}/DutySchedule/${String(monthly?.['Id'])}`);

    const pulled = await monsync(['pull', '--into', 'edited'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');
    const before = readFileSync(join(root, 'configs', 'people.yaml'), 'utf8');
    expect(readFileSync(join(root, 'edited', 'people.yaml'), 'utf8')).toBe(
      before
        .replace('FullName: Nina Night', 'FullName: Nina Day')
        .replace(/(Email: viewer@example.com\n {4}TimeZoneId: )3/, '$14')
        // Sam still declares own schedules, now none: an empty list, so the tree stays authoritative for what Sam holds.
        .replace(/( {4}dutySchedules:)( +# Sam's own.*\n).*\n/, '$1 []$2'),
    );
    const planned = await monsync(['plan', '--config', 'edited', '--format', 'json'], { env: suite.env, cwd: root });
    expect((JSON.parse(planned.out) as Plan).steps.filter((step) => step.action !== 'ensure')).toEqual([]);
    expect(pulled.out + pulled.err).not.toMatch(/CANARY/);
  });

  it('writes new live objects to the file --new-objects-file names, and refuses one outside the tree before writing anything', async () => {
    const root = await appliedDemoTree();
    // Within the demo tree's policy for Https monitors (configs/monsync.yaml), so that the edited tree validates.
    await webApp('POST', '/Monitor', { Name: 'Checkout latency', MonitorType: 'Https', Url: 'https://shop.example.com/checkout', CheckInterval: 5, ErrorConditions: CHECKOUT_CONDITIONS });
    const shop = readFileSync(join(root, 'configs/monitors/shop.yaml'), 'utf8');

    const outside = await monsync(['pull', '--into', 'configs', '--new-objects-file', 'from-web-app.yaml'], { env: suite.env, cwd: root });
    expect(outside.code).toBe(ExitCode.Error);
    expect(outside.err).toContain('PULL_NEW_OBJECTS_FILE');
    expect(existsSync(join(root, 'from-web-app.yaml'))).toBe(false);
    expect(existsSync(join(root, 'configs/new-objects.yaml'))).toBe(false);

    const pulled = await monsync(['pull', '--into', 'configs', '--new-objects-file', 'configs/monitors/from-web-app.yaml'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(readFileSync(join(root, 'configs/monitors/from-web-app.yaml'), 'utf8')).toMatch(/^monitors:\n {2}- Name: Checkout latency\n/m);
    expect(existsSync(join(root, 'configs/new-objects.yaml'))).toBe(false);
    expect(readFileSync(join(root, 'configs/monitors/shop.yaml'), 'utf8')).toBe(shop);
    const planned = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env: suite.env, cwd: root });
    expect((JSON.parse(planned.out) as Plan).steps.filter((step) => step.action !== 'ensure')).toEqual([]);
  });

  it('adds to the allowUnknown of monsync.yaml, in its style, what a web-app change holds beyond the published definition; validate then passes', async () => {
    const guid = await monitorGuid('Blog');
    // A mode of a service newer than this release, set in its web app (the emulator takes what its control API loads).
    const state = suite.emulator.control.dump() as unknown as { monitors: { fields: Record<string, unknown> }[] };
    const blog = state.monitors.find((monitor) => String(monitor.fields['MonitorGuid']).toLowerCase() === guid.toLowerCase());
    if (blog === undefined) throw new Error('no live monitor Blog');
    Object.assign(blog.fields, { MonitorMode: 'Canary', Tags: ['public'] });
    await suite.emulator.control.load(state);
    const settings = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\nallowUnknown: { values: { MonitorType: [Quantum] } }   # reviewed in #412\n';
    const root = tempTree({ 'monsync.yaml': settings, 'monitors.yaml': 'monitors:\n  - Name: Blog   # the team blog\n    MonitorMode: Production\n' });

    const { code, out, err } = await monsync(['pull', '--into', '.'], { env: suite.env, cwd: root });
    expect(code, err).toBe(ExitCode.Ok);
    expect(out).toContain('~ monitor "Blog" /MonitorMode');
    // Only the declared fields are pulled into a declaration, so only the mode needs letting through (not Tags).
    expect(readFileSync(join(root, 'monsync.yaml'), 'utf8')).toBe(settings.replace('[Quantum] }', '[Quantum], MonitorMode: [Canary] }'));
    expect(readFileSync(join(root, 'monitors.yaml'), 'utf8')).toBe('monitors:\n  - Name: Blog   # the team blog\n    MonitorMode: Canary\n');
    const validate = await monsync(['validate'], { cwd: root });
    expect(validate.err).toBe('');
    expect(validate.code).toBe(ExitCode.Ok);
  });
});
