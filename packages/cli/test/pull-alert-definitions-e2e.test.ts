import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExitCode } from '../src/exit-codes.js';
import { appliedCopyOfDemoConfigs, listedRows, monsync, tempTree, useEmulator } from './helpers.js';

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-a1e7-alertpull-shop',
  DEMO_SHOP_OTP_SECRET: 'CANARYAONESEVENALERTPULLOTP',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-a1e7-alertpull-pfx').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-a1e7-alertpull-pfx-password',
};

/** The pulled placeholders of the demo account's secrets, set to the values configs/ applied (fingerprints match). */
const PULLED_SECRETS = {
  MONSYNC_SECRET_ADMIN_EXAMPLE_COM_PASSWORD: 'any-admin',
  MONSYNC_SECRET_SAM_OPS_EXAMPLE_COM_PASSWORD: 'any-sam',
  MONSYNC_SECRET_VIEWER_EXAMPLE_COM_PASSWORD: 'any-viewer',
  MONSYNC_SECRET_NINA_EXAMPLE_COM_PASSWORD: 'any-nina',
  MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE: CANARIES.DEMO_CLIENT_CERT_PFX_BASE64,
  MONSYNC_SECRET_WEB_CLIENT_CERT_ARCHIVE_PASSWORD: CANARIES.DEMO_CLIENT_CERT_PASSWORD,
  MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD: CANARIES.DEMO_SHOP_PASSWORD,
};

const WRITE_ONLY = 'IsActive, SendOkAlerts, SendReminderAlerts';

const suite = useEmulator({ seed: 'demo', operator: 'admin@example.com', env: CANARIES, eachTest: { reset: true } });

const appliedDemoTree = () => appliedCopyOfDemoConfigs(suite.env);

async function webApp(method: string, path: string, body?: unknown): Promise<unknown> {
  const result = await suite.emulator.control.actAs('admin@example.com', { method, path, ...(body === undefined ? {} : { body }) });
  expect(result.status, `${method} ${path}: ${JSON.stringify(result.body)}`).toBeLessThan(300);
  return result.body;
}

async function definitionGuid(name: string): Promise<string> {
  const found = listedRows(await webApp('GET', '/AlertDefinition')).find((row) => row['AlertName'] === name)?.['AlertDefinitionGuid'];
  if (typeof found !== 'string') throw new Error(`no live alert definition ${name}`);
  return found;
}

async function integrationGuid(name: string): Promise<string> {
  const found = listedRows(await webApp('GET', '/Integration')).find((row) => row['Name'] === name)?.['IntegrationGuid'];
  if (typeof found !== 'string') throw new Error(`no integration ${name}`);
  return found;
}

type Definition = { AlertName: string; escalationLevels?: Record<string, unknown>[] } & Record<string, unknown>;

function definitions(file: string): Definition[] {
  return (parse(readFileSync(file, 'utf8')) as { alertDefinitions: Definition[] }).alertDefinitions;
}

/** The routes of the requests the service carried out (under the rate-limited profile it refuses some with 429). */
function servedRoutes(): string[] {
  return suite.emulator.control.requestLog().entries.filter((entry) => entry.status !== 429).map((entry) => entry.route);
}

/** Writes nothing to the API: every request of the run was a read. */
function onlyReads(): void {
  expect(suite.emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET')).toEqual([]);
}

describe('monsync pull: alert definitions', () => {
  it('writes each definition by name with its members, levels, level members and integrations; the write-only settings are listed, not written; the tree plans no change', async () => {
    const root = await appliedDemoTree();
    // The web app attaches the predefined e-mail integration to level 2 with two more addresses.
    const shop = await definitionGuid('Shop on-call');
    await webApp('POST', `/AlertDefinition/${shop}/EscalationLevel/2/Integration`, {
      IntegrationGuid: await integrationGuid('Email'),
      ExtraEmailAddresses: ['oncall@example.com', 'lead@example.com'],
      ExtraEmailAddressesSpecified: true,
      IsActive: true,
      SendOkAlerts: false,
      SendReminderAlerts: true,
    });
    suite.emulator.control.clearLog();

    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(pulled.out).toMatch(/^Wrote 10 files to tree: .*, alert-definitions\.yaml, rum-websites\.yaml\n/);
    onlyReads();
    const file = join(root, 'tree', 'alert-definitions.yaml');
    const pulledDefinitions = definitions(file);
    expect(pulledDefinitions.map((d) => d.AlertName)).toEqual(['Default alerting', 'Escalate to on-call', 'Night shift', 'Shop on-call']);
    const shopOnCall = pulledDefinitions.find((d) => d.AlertName === 'Shop on-call');
    expect(shopOnCall).toMatchObject({ AlertName: 'Shop on-call', IsActive: true, members: { monitorGroups: ['Shop'], monitors: ['Status page'] } });
    expect(shopOnCall?.escalationLevels?.map((level) => level['Id'])).toEqual([1, 2, 3]);
    expect(shopOnCall?.escalationLevels?.[0]).toMatchObject({
      Id: 1,
      EscalationMode: 'AlertOnErrorCount',
      ThresholdErrorCount: 2,
      IsActive: true,
      members: { operators: ['sam.ops@example.com'], operatorGroups: ['Night shift'] },
      integrations: [{ integration: 'Ops chat channel', VariableValues: { channel: '#shop' } }],
    });
    expect(shopOnCall?.escalationLevels?.[1]).toMatchObject({
      Id: 2,
      EscalationMode: 'AlertOnErrorDuration',
      ThresholdMinutes: 30,
      members: { operators: ['nina@example.com'] },
      // The service returns the addresses as one comma-separated string; the tree has the list.
      integrations: [{ integration: 'Email', ExtraEmailAddresses: ['oncall@example.com', 'lead@example.com'] }],
    });
    // Never returned, so never written: the attached integrations hold only what was read.
    for (const level of shopOnCall?.escalationLevels ?? []) {
      for (const link of (level['integrations'] ?? []) as Record<string, unknown>[]) expect(Object.keys(link).filter((key) => ['IsActive', 'SendOkAlerts', 'SendReminderAlerts'].includes(key))).toEqual([]);
    }
    expect(readFileSync(join(root, 'tree', 'monsync.yaml'), 'utf8')).toContain('  alertDefinitions: { prune: false }\n');
    expect(pulled.out).toContain(
      `Settings the API never returns were left out, not guessed (declare them to choose; they are sent when attached and with --rotate):\n` +
        `  alert definition "Shop on-call", level 1, integration "Ops chat channel": ${WRITE_ONLY}\n` +
        `  alert definition "Shop on-call", level 2, integration "Email": ${WRITE_ONLY}\n`,
    );

    const env = { ...suite.env, ...PULLED_SECRETS };
    const validate = await monsync(['validate', '--config', 'tree'], { env, cwd: root });
    expect(validate.code, validate.out + validate.err).toBe(ExitCode.Ok);
    const planned = await monsync(['plan', '--config', 'tree', '--detailed-exitcode'], { env, cwd: root });
    expect(planned.out, planned.err).toContain('No changes.');
    expect(planned.code).toBe(ExitCode.Ok);
    for (const value of Object.values(CANARIES)) expect(pulled.out + pulled.err + planned.out + planned.err).not.toContain(value);
  });

  it('reads each listing once: the definitions, the integrations, and per definition its levels and members, per level its members and integrations', async () => {
    suite.emulator.control.clearLog();
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree', '--json'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    const routes = servedRoutes().filter((route) => /AlertDefinition|Integration/.test(route));
    const count = (route: string) => routes.filter((r) => r === route).length;
    // The demo seed: 3 definitions with 3 levels each, none of them covering or reaching anyone yet.
    expect(count('GET /AlertDefinition')).toBe(1);
    expect(count('GET /Integration')).toBe(1);
    expect(count('GET /AlertDefinition/{alertDefinitionGuid}/EscalationLevel')).toBe(3);
    expect(count('GET /AlertDefinition/{alertDefinitionGuid}/Member')).toBe(3);
    expect(count('GET /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member')).toBe(9);
    expect(count('GET /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Integration')).toBe(9);
    expect(routes).toHaveLength(26);
    // No integration attached: nothing unread to list.
    expect((JSON.parse(pulled.out) as { unread?: unknown[] }).unread).toEqual([]);
    // The default definition and the seed's two: the tree plans nothing for any of them.
    const env = { ...suite.env, ...PULLED_SECRETS };
    const planned = await monsync(['plan', '--config', 'tree', '--format', 'json'], { env, cwd: root });
    const steps = (JSON.parse(planned.out) as { steps: { kind: string; action: string }[] }).steps;
    expect(steps.filter((step) => step.kind !== 'vaultItem')).toEqual([]);
  });

  it('writes hostile alert and integration names (newline, ":: " at a line start, control characters) as quoted YAML that reads back exactly', async () => {
    const hostileDefinition = 'Pager\n:: injected: true\u0001 #not a comment';
    const hostileIntegration = 'Ops\n:: chat\u0007';
    const state = suite.emulator.control.dump();
    state.integrations.push({ IntegrationGuid: '6a0c3c55-58a4-4d5e-9d38-5c0f8f2c0b11', Name: hostileIntegration, Type: 'Slack', AllowsEscalationLevelVariables: true });
    await suite.emulator.control.load(state);
    const created = (await webApp('POST', '/AlertDefinition', { AlertName: hostileDefinition, IsActive: true })) as Record<string, unknown> | undefined;
    const guid = typeof created?.['AlertDefinitionGuid'] === 'string' ? created['AlertDefinitionGuid'] : await definitionGuid(hostileDefinition);
    await webApp('POST', `/AlertDefinition/${guid}/EscalationLevel/1/Integration`, {
      IntegrationGuid: '6a0c3c55-58a4-4d5e-9d38-5c0f8f2c0b11',
      VariableValues: { channel: '#a\n:: b' },
      IsActive: true,
      SendOkAlerts: true,
      SendReminderAlerts: true,
    });
    const root = tempTree({});
    const pulled = await monsync(['pull', '--out', 'tree'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    const text = readFileSync(join(root, 'tree', 'alert-definitions.yaml'), 'utf8');
    expect(text).not.toMatch(/^\s*::/m);
    expect(text.includes('\u0001') || text.includes('\u0007')).toBe(false);
    const hostile = definitions(join(root, 'tree', 'alert-definitions.yaml')).find((d) => d.AlertName === hostileDefinition);
    expect(hostile?.escalationLevels?.[0]?.['integrations']).toEqual([{ integration: hostileIntegration, VariableValues: { channel: '#a\n:: b' } }]);
    // The report escapes them too: no control character and no line of its own for the injected text.
    expect(pulled.out.includes('\u0001') || pulled.out.includes('\u0007')).toBe(false);
    expect(pulled.out).not.toMatch(/^:: /m);
    const planned = await monsync(['plan', '--config', 'tree', '--format', 'json'], { env: { ...suite.env, ...PULLED_SECRETS }, cwd: root });
    expect(planned.code, planned.err).not.toBe(ExitCode.Error);
    expect((JSON.parse(planned.out) as { steps: { kind: string }[] }).steps.filter((step) => step.kind !== 'vaultItem')).toEqual([]);
  });
});

describe('monsync pull --into: alert definitions', () => {
  it('rewrites entries of the older form { AlertDefinitionGuid, IsActive } into the named form with live levels and members, keeping comments, and the tree plans no change', async () => {
    const root = await appliedDemoTree();
    const shop = await definitionGuid('Shop on-call');
    const onCall = await definitionGuid('Escalate to on-call');
    const alerts = join(root, 'configs', 'alert-definitions.yaml');
    const older = [
      '# Alerting, kept by GUID since the first migration.',
      'alertDefinitions:',
      "  # the shop's pager",
      `  - AlertDefinitionGuid: ${shop}   # pinned by hand`,
      '    IsActive: true',
      '',
      '  # escalation, written on one line',
      `  - { AlertDefinitionGuid: ${onCall}, IsActive: true }   # keep active`,
      '',
    ].join('\n');
    writeFileSync(alerts, older);
    suite.emulator.control.clearLog();

    const pulled = await monsync(['pull', '--into', 'configs'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    onlyReads();
    // Whom the levels reach and what they cover is read for the two older entries only (the account has four).
    const routes = servedRoutes();
    expect(routes.filter((route) => route === 'GET /AlertDefinition/{alertDefinitionGuid}/Member')).toHaveLength(2);
    expect(routes.filter((route) => route === 'GET /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member')).toHaveLength(6);
    expect(routes.filter((route) => route === 'GET /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Integration')).toHaveLength(6);
    expect(pulled.out).toContain(`~ alert definition "${shop}": written by name as "Shop on-call" with its members and escalation levels (alert-definitions.yaml)`);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');
    expect(pulled.out).toContain(`  alert definition "Shop on-call", level 1, integration "Ops chat channel": ${WRITE_ONLY}\n`);
    const text = readFileSync(alerts, 'utf8');
    // Every comment stays where it was; the GUID's line is now the name's.
    expect(text).toMatch(/^# Alerting, kept by GUID since the first migration\.\nalertDefinitions:\n {2}# the shop's pager\n {2}- AlertName: Shop on-call +# pinned by hand\n {4}IsActive: true\n/);
    expect(text).toContain('  # escalation, written on one line\n  - AlertName: Escalate to on-call   # keep active\n');
    expect(text).not.toContain('AlertDefinitionGuid');
    const rewritten = definitions(alerts);
    expect(rewritten.find((d) => d.AlertName === 'Shop on-call')).toMatchObject({
      members: { monitorGroups: ['Shop'], monitors: ['Status page'] },
      escalationLevels: [
        { Id: 1, ThresholdErrorCount: 2, members: { operators: ['sam.ops@example.com'], operatorGroups: ['Night shift'] }, integrations: [{ integration: 'Ops chat channel', VariableValues: { channel: '#shop' } }] },
        { Id: 2, ThresholdMinutes: 30, members: { operators: ['nina@example.com'] }, integrations: [] },
        { Id: 3, members: {}, integrations: [] },
      ],
    });
    expect(rewritten.find((d) => d.AlertName === 'Escalate to on-call')).toMatchObject({ IsActive: true, members: { monitorGroups: ['Platform'] } });

    const planned = await monsync(['plan', '--config', 'configs', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(planned.out, planned.err).toContain('No changes.');
    expect(planned.code).toBe(ExitCode.Ok);
  });

  it('updates named definitions in place: a level changed, an operator added and a monitor removed in the web app', async () => {
    const root = await appliedDemoTree();
    const shop = await definitionGuid('Shop on-call');
    const level = (await webApp('GET', `/AlertDefinition/${shop}/EscalationLevel/2`)) as Record<string, unknown>;
    await webApp('PATCH', `/AlertDefinition/${shop}/EscalationLevel/2`, { ...level, ThresholdMinutes: 45 });
    const admin = listedRows(await webApp('GET', '/Operator')).find((row) => row['Email'] === 'admin@example.com')?.['OperatorGuid'];
    await webApp('POST', `/AlertDefinition/${shop}/EscalationLevel/2/Member/Operator/${String(admin)}`);
    const statusPage = listedRows(await webApp('GET', '/Monitor')).find((row) => row['Name'] === 'Status page')?.['MonitorGuid'];
    await webApp('DELETE', `/AlertDefinition/${shop}/Member/Monitor/${String(statusPage)}`);
    const alerts = join(root, 'configs', 'alert-definitions.yaml');
    const before = readFileSync(alerts, 'utf8');

    const pulled = await monsync(['pull', '--into', 'configs'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');
    const after = readFileSync(alerts, 'utf8');
    // The file's header comment and the definitions' comments stay.
    expect(after.split('\n').filter((line) => line.trimStart().startsWith('#'))).toEqual(before.split('\n').filter((line) => line.trimStart().startsWith('#')));
    const shopOnCall = definitions(alerts).find((d) => d.AlertName === 'Shop on-call');
    expect(shopOnCall?.['members']).toEqual({ monitorGroups: ['Shop'], monitors: [] });
    expect(shopOnCall?.escalationLevels?.[1]).toMatchObject({ Id: 2, ThresholdMinutes: 45, members: { operators: ['nina@example.com', 'admin@example.com'] } });
    const planned = await monsync(['plan', '--config', 'configs', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(planned.out, planned.err).toContain('No changes.');
  });

  it('adds a definition made in the web app whole (prune: true): its members, levels, whom they reach and its integrations', async () => {
    const root = await appliedDemoTree();
    const settings = join(root, 'configs', 'monsync.yaml');
    writeFileSync(settings, readFileSync(settings, 'utf8').replace(/alertDefinitions: \{[^}]*\}/, 'alertDefinitions: { prune: true }'));
    const created = (await webApp('POST', '/AlertDefinition', { AlertName: 'Payments pager', IsActive: true })) as Record<string, unknown> | undefined;
    const guid = typeof created?.['AlertDefinitionGuid'] === 'string' ? created['AlertDefinitionGuid'] : await definitionGuid('Payments pager');
    const blog = listedRows(await webApp('GET', '/Monitor')).find((row) => row['Name'] === 'Blog')?.['MonitorGuid'];
    await webApp('POST', `/AlertDefinition/${guid}/Member/Monitor/${String(blog)}`);
    const sam = listedRows(await webApp('GET', '/Operator')).find((row) => row['Email'] === 'sam.ops@example.com')?.['OperatorGuid'];
    await webApp('POST', `/AlertDefinition/${guid}/EscalationLevel/1/Member/Operator/${String(sam)}`);
    await webApp('POST', `/AlertDefinition/${guid}/EscalationLevel/1/Integration`, { IntegrationGuid: await integrationGuid('Incident webhook'), VariableValues: { service: 'payments' }, IsActive: true, SendOkAlerts: false, SendReminderAlerts: false });
    // The default definition and Night shift are only in the account too: they are added as well.
    const pulled = await monsync(['pull', '--into', 'configs'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('+ alert definition "Payments pager" (new-objects.yaml)');
    expect(pulled.out).toContain(`  alert definition "Payments pager", level 1, integration "Incident webhook": ${WRITE_ONLY}\n`);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');
    const added = definitions(join(root, 'configs', 'new-objects.yaml')).find((d) => d.AlertName === 'Payments pager');
    expect(added).toMatchObject({ IsActive: true, members: { monitors: ['Blog'] } });
    expect(added?.escalationLevels?.[0]).toMatchObject({ Id: 1, members: { operators: ['sam.ops@example.com'] }, integrations: [{ integration: 'Incident webhook', VariableValues: { service: 'payments' } }] });
    const planned = await monsync(['plan', '--config', 'configs', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(planned.out, planned.err).toContain('No changes.');
  });

  it('import writes a chosen definition whole, and only its members are read for it', async () => {
    const root = tempTree({ 'configs/monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  alertDefinitions: { prune: false }\n', 'configs/alerts.yaml': 'alertDefinitions:\n  - AlertName: Default alerting\n    IsActive: true\n' });
    const night = await definitionGuid('Night shift');
    const sam = listedRows(await webApp('GET', '/Operator')).find((row) => row['Email'] === 'sam.ops@example.com')?.['OperatorGuid'];
    await webApp('POST', `/AlertDefinition/${night}/EscalationLevel/2/Member/Operator/${String(sam)}`);
    suite.emulator.control.clearLog();
    const imported = await monsync(['import', 'alertDefinition', 'Night shift', '--config', 'configs'], { env: suite.env, cwd: root });
    expect(imported.code, imported.err).toBe(ExitCode.Ok);
    const routes = servedRoutes();
    expect(routes.filter((route) => route === 'GET /AlertDefinition/{alertDefinitionGuid}/Member')).toHaveLength(1);
    expect(routes.filter((route) => route === 'GET /AlertDefinition/{alertDefinitionGuid}/EscalationLevel/{escalationLevelId}/Member')).toHaveLength(3);
    expect(imported.out).toContain('The tree now plans no changes against the live account.');
    const written = definitions(join(root, 'configs', 'new-objects.yaml'));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ AlertName: 'Night shift', IsActive: true, members: {} });
    expect(written[0]?.escalationLevels?.[1]).toMatchObject({ Id: 2, members: { operators: ['sam.ops@example.com'] }, integrations: [] });
  });
});
