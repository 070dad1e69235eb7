import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READ_ATTEMPTS } from '@monsync/client';
import type { Plan } from '@monsync/reconciler';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { copyOfDemoConfigs, expectReadFailureLast, monsync, REPO_ROOT, tempTree, useEmulator } from './helpers.js';

const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARY7F3A9COTPSECRET',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-pfx-password',
};
const API_PASSWORD = 'demo-password';

const suite = useEmulator({
  seed: 'demo',
  operator: 'admin@example.com',
  env: { MONSYNC_API_PASSWORD: API_PASSWORD, ...CANARIES },
  eachTest: { reset: true, stageFingerprints: true, clearLog: true },
});

function expectNoSecrets(...texts: string[]): void {
  for (const text of texts) {
    for (const value of [...Object.values(CANARIES), API_PASSWORD]) expect(text).not.toContain(value);
  }
}

const stepIds = (plan: Plan) => plan.steps.map((step) => `${step.action} ${step.id}`);

describe('monsync plan against the emulator (demo account, configs/)', () => {
  it('prints the text plan: creates, updates, drift by another operator, a delete and unmanaged objects', async () => {
    const { code, out, err } = await monsync(['plan', '--config', 'configs'], { env: suite.env });
    expect(err).not.toContain('error');
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('+ create monitor "Status page"');
    expect(out).toContain('~ update monitor "Shop homepage"');
    expect(out).toContain('~ ErrorConditions/LoadTimeLimit1/Value: "4000" -> "3000"');
    expect(out).toContain('drift: changed outside git by Sam Ops at 2026-01-12T16:42:00');
    expect(out).toContain('- delete monitor "Old status page"');
    expect(out).toContain('? scheduledReport "monthly-ops"');
    expect(out).not.toContain('legacy-ftp');
    expect(out).toMatch(/Plan: \d+ to create, \d+ to update, 1 to delete, 0 to ensure/);
    expect(out).toContain('+ create alertDefinition "Shop on-call"');
    expect(out).not.toContain('\u001b[');
    expectNoSecrets(out, err);
  });

  it('reads the live account with one listing per kind and per parent, and writes nothing', async () => {
    await monsync(['plan', '--config', 'configs'], { env: suite.env });
    const log = suite.emulator.control.requestLog();
    expect(log.entries.every((entry) => entry.method === 'GET')).toBe(true);
    // Requests the rate-limited profile refused (429) are sent again; the distinct requests are what is counted.
    const counts: Record<string, number> = {};
    for (const entry of log.entries) if (entry.fault !== 'rate-limit') counts[entry.route] = (counts[entry.route] ?? 0) + 1;
    expect(counts).toMatchObject({ 'GET /Monitor': 1, 'GET /MonitorGroup': 1, 'GET /VaultItem': 1, 'GET /Sla': 1, 'GET /ScheduledReport': 1 });
    expect(Object.keys(counts).some((route) => /\/Monitor\/\{/.test(route))).toBe(false);
  });

  it('emits JSON per the plan contract, and --out saves the same plan', async () => {
    const tree = copyOfDemoConfigs();
    const { code, out, err } = await monsync(['plan', '--config', 'configs', '--format', 'json', '--out', 'saved/plan.json'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.Ok);
    const plan = JSON.parse(out) as Plan;
    expect(plan.formatVersion).toBe(1);
    expect(plan.safe).toBe(true);
    expect(stepIds(plan)).toEqual(expect.arrayContaining(['create monitor:Status page', 'update monitor:Blog', 'update monitor:Database primary', 'delete monitor:Old status page', 'create groupMembership:Marketing/Status page', 'create slaExclusionPeriod:Gold/Platform migration', 'create vaultItem:Web/shop-otp', 'create alertDefinition:Shop on-call', 'update escalationLevel:Escalate to on-call/2', 'create escalationLevelIntegration:Shop on-call/1/Ops chat channel', 'create alertDefinitionMember:Shop on-call/monitor:Status page']));
    expect(plan.steps.find((step) => step.id === 'monitor:Blog')?.drift).toMatchObject({ operatorName: 'Sam Ops', lastModifiedDate: '2026-01-12T16:42:00' });
    // Its own operator's last change is not drift (MONSYNC_OPERATOR).
    expect(plan.steps.find((step) => step.id === 'monitor:Shop homepage')?.drift).toBeUndefined();
    expect(plan.unmanaged.map((entry) => `${entry.kind}:${entry.key}`)).toEqual(['vaultSection:Default', 'scheduledReport:monthly-ops', 'alertDefinition:Night shift']);
    expect(readFileSync(join(tree, 'saved/plan.json'), 'utf8')).toBe(out);
    expect(err).toContain('plan saved to saved/plan.json');
    expectNoSecrets(out, err);
  });

  it('shows vault secrets only as (sensitive), in every format and the saved plan, even with --verbose', async () => {
    const tree = copyOfDemoConfigs();
    const outputs: string[] = [];
    for (const format of ['text', 'json']) {
      const { code, out, err } = await monsync(['plan', '--verbose', '--format', format, '--out', `plan-${format}.json`], { env: suite.env, cwd: join(tree, 'configs') });
      expect(code).toBe(ExitCode.Ok);
      outputs.push(out, err, readFileSync(join(tree, 'configs', `plan-${format}.json`), 'utf8'));
    }
    expect(outputs[0]).toContain('(sensitive)');
    expect(outputs[1]).toMatch(/^-> GET \/VaultItem$/m);
    expectNoSecrets(...outputs);
  });

  it('renders markdown for a pull-request comment: marker, summary table, deletions called out, drift section', async () => {
    const tree = copyOfDemoConfigs();
    const { code, out } = await monsync(['plan', '--config', 'configs', '--format', 'markdown', '--out', 'plan.json'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.Ok);
    expect(out.startsWith('<!-- monsync:plan -->\n')).toBe(true);
    expect(out).toContain('| Kind | Create | Update | Delete | Ensure |');
    expect(out).toMatch(/> \*\*This plan deletes 1 object:\*\*\n> - delete[^\n]* monitor "Old status page"\n/);
    expect(out).toContain('Who changed each object is recorded **per object**');
    expect(out).toMatch(/\| monitor "Blog" \| Sam Ops \| 2026-01-12T16:42:00 \| sets back [^|]+ \|/);
    expect(out.split('```').length % 2).toBe(1);
    expectNoSecrets(out, readFileSync(join(tree, 'plan.json'), 'utf8'));
  });

  it('colours the text plan on a terminal, and not with NO_COLOR or --no-color (before or after the command)', async () => {
    // Both runs start the on-call preview from the same minute: the clock is set to the start of the next hour and
    // moves on in real time from there (set forward, so nothing waiting on the real clock waits longer).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Math.ceil(Date.now() / 3_600_000) * 3_600_000 });
    onTestFinished(() => void vi.useRealTimers());
    const coloured = await monsync(['plan', '--config', 'configs'], { env: suite.env, isTTY: true });
    expect(coloured.out).toContain('\u001b[');
    const plain = await monsync(['plan', '--config', 'configs'], { env: { ...suite.env, NO_COLOR: '1' }, isTTY: true });
    expect(plain.out).not.toContain('\u001b[');
    const stripped = coloured.out.split('\u001b').map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, ''))).join('');
    expect(plain.out).toBe(stripped);
    for (const argv of [['plan', '--no-color', '--config', 'configs'], ['--no-color', 'plan', '--config', 'configs']]) {
      const flagged = await monsync(argv, { env: suite.env, isTTY: true });
      expect(flagged.out, argv.join(' ')).toBe(stripped);
      expect(flagged.err, argv.join(' ')).not.toContain('\u001b[3');
    }
  });

  it('plans nothing when an ErrorConditions entry drops its Effect (an omitted field is left as it is live), and plans a written Effect', async () => {
    const tree = copyOfDemoConfigs();
    const shop = join(tree, 'configs', 'monitors', 'shop.yaml');
    const entry = '{ ErrorConditionType: PageElementFailedWithPercentage, Value: "1", Percentage: "5", Effect: Error }';
    const original = readFileSync(shop, 'utf8');
    expect(original).toContain(entry);
    const { writeFileSync } = await import('node:fs');
    const planned = async (): Promise<Plan['steps'][number] | undefined> => {
      const { code, out } = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env: suite.env, cwd: tree });
      expect(code).toBe(ExitCode.Ok);
      return (JSON.parse(out) as Plan).steps.find((step) => step.id === 'monitor:Shop product images');
    };

    writeFileSync(shop, original.replace(entry, entry.replace(', Effect: Error', '')));
    expect(await planned()).toBeUndefined();

    writeFileSync(shop, original.replace(entry, entry.replace('Effect: Error', 'Effect: Indicate')));
    expect((await planned())?.changes).toEqual([{ op: 'replace', path: '/ErrorConditions/PageElementFailedWithPercentage/Effect', before: 'Error', after: 'Indicate' }]);
  });

  it('--detailed-exitcode: 2 when the plan has changes', async () => {
    const { code } = await monsync(['plan', '--config', 'configs', '--detailed-exitcode'], { env: suite.env });
    expect(code).toBe(ExitCode.Changes);
  });

  it('--detailed-exitcode: 0 when the account already matches, an alert definition of the older form included', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  slas: { prune: false }\n  alertDefinitions: { prune: false }\n',
      'slas.yaml': readFileSync(join(REPO_ROOT, 'configs', 'slas.yaml'), 'utf8').replace(/^ {6}- \{ Description: Platform migration.*\n/m, ''),
      'alerts.yaml': 'alertDefinitions:\n  - { AlertDefinitionGuid: 57e060fa-e070-4f1a-9a8d-02785f8502d3, IsActive: true }\n',
    });
    const { code, out } = await monsync(['plan', '--detailed-exitcode', '--format', 'json'], { env: suite.env, cwd: tree });
    const plan = JSON.parse(out) as Plan;
    expect(plan.summary).toMatchObject({ create: 0, update: 0, delete: 0, ensure: 0 });
    expect(code).toBe(ExitCode.Ok);
  });

  it('--target narrows the plan to the matching steps and what they depend on', async () => {
    const { code, out } = await monsync(['plan', '--config', 'configs', '--format', 'json', '--target', 'monitor:Shop checkout', '--target', 'slaExclusionPeriod:Gold/*'], { env: suite.env });
    expect(code).toBe(ExitCode.Ok);
    const plan = JSON.parse(out) as Plan;
    expect(stepIds(plan)).toEqual(['create vaultItem:Web/shop-otp', 'update monitor:Shop checkout', 'create slaExclusionPeriod:Gold/Platform migration']);
    expect(plan.summary).toMatchObject({ create: 2, update: 1, delete: 0, ensure: 0 });
  });

  it('rejects a --target with an unknown kind before any request', async () => {
    const { code, err } = await monsync(['plan', '--config', 'configs', '--target', 'monitors:Blog'], { env: suite.env });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('--target monitors:Blog: expected kind:key with kind one of monitor,');
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });

  it('exits 3 on an unsafe plan (deletes past safety.maxDeletePercent), still printing it', async () => {
    const tree = tempTree({
      'monsync.yaml': 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n',
      'monitors.yaml': 'monitors:\n  - { Name: Blog, MonitorType: Https }\n',
    });
    const { code, out, err } = await monsync(['plan'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.UnsafeOrStale);
    expect(out).toContain('- delete monitor "Shop homepage"');
    expect(err).toMatch(/plan is unsafe \(over the safety thresholds of monsync\.yaml\):\n {2}monitor: deletes \d+ of \d+ \(\d+(\.\d)?%\), over 30% and at least 3 \(safety\.maxDeletePercent, safety\.minDeleteCount\)\n/);
    expect(err).toContain('or raise safety.maxDeletePercent in monsync.yaml');
  });
});

describe('monsync plan refuses before any API request', () => {
  it('on a broken tree: file:line:col diagnostics, exit 1, zero requests', async () => {
    const tree = copyOfDemoConfigs();
    const groups = join(tree, 'configs', 'groups.yaml');
    const text = readFileSync(groups, 'utf8').replace('members: [Marketing site, Blog, Status page]', 'members: [Marketing site, Blgo, Status page]');
    (await import('node:fs')).writeFileSync(groups, text);
    const { code, out, err } = await monsync(['plan', '--config', 'configs'], { env: suite.env, cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toMatch(/^configs\/groups\.yaml:12:31: error UNKNOWN_REFERENCE: member `Blgo` of group `Marketing` names no declared monitor; did you mean `Blog`\?$/m);
    expect(err).toContain('nothing was sent to the API');
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });

  it('on a pinned GUID that cannot be a GUID: validate and plan point at the value, exit 1, zero requests', async () => {
    const tree = copyOfDemoConfigs();
    const shop = join(tree, 'configs', 'monitors', 'shop.yaml');
    const text = readFileSync(shop, 'utf8').replace('  - Name: Shop homepage\n', '  - Name: Shop homepage\n    MonitorGuid: not-a-guid\n');
    (await import('node:fs')).writeFileSync(shop, text);
    const at = /^configs\/monitors\/shop\.yaml:9:18: error INVALID_GUID: `MonitorGuid` must be a GUID \(8-4-4-4-12 hexadecimal digits\), not `not-a-guid`$/m;
    const validate = await monsync(['validate', '--config', 'configs'], { env: suite.env, cwd: tree });
    expect(validate.code).toBe(ExitCode.Error);
    expect(validate.err).toMatch(at);
    expect(validate.err).toContain('hint: a pin is the GUID of an existing object as the API returns it (e.g. 3f2a7c1e-5b9d-4e8a-a1c2-0d9e8f7a6b5c); remove `MonitorGuid` to match by key instead');
    const plan = await monsync(['plan', '--config', 'configs'], { env: suite.env, cwd: tree });
    expect(plan.code).toBe(ExitCode.Error);
    expect(plan.out).toBe('');
    expect(plan.err).toMatch(at);
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });

  it('when a secret variable the plan sends is unset: names it, never a value, exit 1, no write (it reads the account to know what it sends)', async () => {
    const { DEMO_SHOP_OTP_SECRET: _unset, ...partial } = suite.env;
    const { code, err } = await monsync(['plan', '--config', 'configs'], { env: partial });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('SECRET_UNAVAILABLE');
    expect(err).toContain('env DEMO_SHOP_OTP_SECRET cannot be read, and this plan sends its value');
    expectNoSecrets(err);
    expect(suite.emulator.control.requestLog().entries.filter((entry) => entry.method !== 'GET')).toEqual([]);
  });

  it('when credentials are missing: names the variables, exit 1, zero requests', async () => {
    const { MONSYNC_API_URL: _url, MONSYNC_API_PASSWORD: _pw, ...partial } = suite.env;
    const { code, err } = await monsync(['plan', '--config', 'configs'], { env: partial });
    expect(code).toBe(ExitCode.Error);
    expect(err).toMatch(/MONSYNC_API_URL.*MONSYNC_API_PASSWORD/);
    expect(suite.emulator.control.requestLog().total).toBe(0);
  });
});

describe('monsync plan over the safety thresholds', () => {
  it("is safe for the demo's first plan: 2 vault items updated (no fingerprint marker yet) are under the count of 10", async () => {
    await suite.emulator.control.reset('demo');
    const { code, out, err } = await monsync(['plan', '--config', 'configs', '--format', 'json'], { env: suite.env });
    expect(code, err).toBe(ExitCode.Ok);
    const plan = JSON.parse(out) as Plan;
    expect(plan.steps.filter((step) => step.kind === 'vaultItem' && step.action === 'update')).toHaveLength(2);
    expect(plan).toMatchObject({ safe: true, violations: [] });
    expect(err).not.toContain('unsafe');
  });
});

describe('monsync plan when the service refuses', () => {
  it('retries a listing the service answers 503, logging the retry with --verbose, and plans as usual', async () => {
    suite.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/Sla', count: 1, kind: '503' }] });
    const { code, out, err } = await monsync(['plan', '--config', 'configs', '--verbose'], { env: suite.env });
    suite.emulator.control.setFaults({ scripted: [] });
    expect(code).toBe(ExitCode.Ok);
    expect(err).toMatch(/^<- 503 GET \/Sla \d+ms$/m);
    expect(err).toMatch(/^ {3}retrying GET \/Sla in [0-9.]+s \(503\)$/m);
    expect(out).toContain('+ create slaExclusionPeriod "Gold/Platform migration"');
  });

  it('fails the plan, printing none, when a listing fails every attempt: it is never read as empty', async () => {
    suite.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/VaultItem', count: DEFAULT_READ_ATTEMPTS, kind: '500' }] });
    const { code, out, err } = await monsync(['plan', '--config', 'configs'], { env: suite.env });
    suite.emulator.control.setFaults({ scripted: [] });
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toContain('monsync plan: error LIVE_READ_FAILED: reading vault items from the service failed, so no plan was made');
  });

  it('ends the read with "failed after N requests" when a listing fails after its retries (500, 503)', async () => {
    for (const [kind, isTTY] of [['500', false], ['500', true], ['503', false]] as const) {
      suite.emulator.control.setFaults({ scripted: [{ method: 'GET', route: '/Monitor', count: DEFAULT_READ_ATTEMPTS, kind }] });
      suite.emulator.control.clearLog();
      const { code, err } = await monsync(['plan', '--config', 'configs'], { env: suite.env, isTTY });
      suite.emulator.control.setFaults({ scripted: [] });
      expect(code).toBe(ExitCode.Error);
      const requests = expectReadFailureLast(err, 'plan');
      // Counted once every request still in flight has ended, so it is every request the read made.
      expect(requests).toBe(suite.emulator.control.requestLog().total);
    }
  });

  it('reports a wrong password as an authentication error without echoing it, exit 1', async () => {
    const wrong = 'CANARY-7f3a9c-wrong-api-password';
    const { code, out, err } = await monsync(['plan', '--config', 'configs', '--verbose'], { env: { ...suite.env, MONSYNC_API_PASSWORD: wrong } });
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toMatch(/401/);
    expect(err).not.toContain(wrong);
    expect(err).toContain('reading live account failed');
    // An ApiError is an answer of the service, not a fault of monsync: --verbose logs requests, not a stack trace.
    expect(err).toMatch(/error [A-Z_]+: .*401 Unauthorized/);
    expect(err).not.toMatch(/^ {4}at /m);
    // What to check is in the user's environment: the message names the variables, never their values.
    expect(err).toMatch(/\nhint: the service refused MONSYNC_API_USERNAME and MONSYNC_API_PASSWORD: check that they are the API account's/);
  });
});
