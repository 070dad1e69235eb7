import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileFromEnv } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

const suite = useEmulator({ seed: 'demo', start: { retryAfterSeconds: 0 }, operator: 'admin@example.com', eachTest: { faultsOff: true, reset: true } });

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n  vault: { prune: false }\n';
const VAULT =
  '# The shop team\'s secrets: every value comes from the environment.\n' +
  'vault:\n' +
  '  sections:\n' +
  '    - Name: Web   # reviewed by the shop team\n';

function tree(): string {
  return tempTree({ 'monsync.yaml': SETTINGS, 'vault.yaml': VAULT });
}

describe('monsync import KIND NAME...', () => {
  it('writes chosen unmanaged monitors into the tree, keeping the file they join as it was, and then plans them unchanged', async () => {
    const root = tree();
    const first = await monsync(['import', 'monitor', 'Blog'], { env: suite.env, cwd: root });
    expect(first.err).not.toContain('error');
    expect(first.code).toBe(ExitCode.Ok);
    expect(first.out).toContain('Wrote 1 live object into . (new-objects.yaml (new)):');
    expect(first.out).toContain('+ monitor "Blog" (new-objects.yaml)');
    const created = readFileSync(join(root, 'new-objects.yaml'), 'utf8');
    expect(created).toMatch(/monitors:\n {2}- Name: Blog\n/);

    // A comment the team adds stays when the next import appends to the same file.
    writeFileSync(join(root, 'new-objects.yaml'), created.replace('  - Name: Blog\n', '  # owned by marketing\n  - Name: Blog\n'));
    const second = await monsync(['import', 'monitor', 'Marketing *', 'Mail relay'], { env: suite.env, cwd: root });
    expect(second.code, second.err).toBe(ExitCode.Ok);
    const appended = readFileSync(join(root, 'new-objects.yaml'), 'utf8');
    expect(appended).toContain('  # owned by marketing\n  - Name: Blog\n');
    expect(appended).toContain('  - Name: Marketing site\n');
    expect(appended).toContain('  - Name: Mail relay\n');
    expect(readFileSync(join(root, 'vault.yaml'), 'utf8')).toBe(VAULT);

    const plan = await monsync(['plan', '--detailed-exitcode', '--target', 'monitor:*'], { env: suite.env, cwd: root });
    expect(plan.code, plan.out + plan.err).toBe(ExitCode.Ok);
  });

  it('writes a chosen vault item into its section\'s declaration, comments kept, its secret as a placeholder', async () => {
    const root = tree();
    const { code, out, err } = await monsync(['import', 'vaultItem', 'Web/shop-login'], { env: suite.env, cwd: root });
    expect(err).not.toContain('error');
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('+ vault item "Web/shop-login" (vault.yaml)');
    expect(out).toContain('MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD');
    const vault = readFileSync(join(root, 'vault.yaml'), 'utf8');
    expect(vault.startsWith(VAULT)).toBe(true);
    expect(vault).toContain('Name: shop-login');
    expect(vault).toContain('Password: { fromEnv: MONSYNC_SECRET_WEB_SHOP_LOGIN_PASSWORD }');
    expect(existsSync(join(root, 'new-objects.yaml'))).toBe(false);
  });

  it('writes nothing when a NAME matches no live object the tree leaves out, naming the closest', async () => {
    const root = tree();
    const { code, out, err } = await monsync(['import', 'monitor', 'Blgo', 'Blog'], { env: suite.env, cwd: root });
    expect(code).toBe(ExitCode.Error);
    expect(out).toBe('');
    expect(err).toContain('error IMPORT_NOT_FOUND: no live object the tree leaves out matches monitor "Blgo" (did you mean "Blog"?); nothing was written');
    expect(existsSync(join(root, 'new-objects.yaml'))).toBe(false);
    const kind = await monsync(['import', 'monitr', 'Blog'], { env: suite.env, cwd: root });
    expect(kind.code).toBe(ExitCode.Error);
    expect(kind.err).toContain("'monitr' is not a kind (did you mean monitor?)");
    expect((await monsync(['import', 'monitor'], { cwd: root })).err).toContain("'monsync import' needs KIND NAME...");
  });

  it('lets through in monsync.yaml what the imported object holds beyond the published definition, so the tree validates strictly; the rest of monsync.yaml stays as it was', async () => {
    // A service newer than this release: a monitor mode and a field it does not publish. The published service drops
    // fields outside its model, so there only the mode comes back.
    const state = suite.emulator.control.dump() as unknown as { monitors: { fields: Record<string, unknown> }[] };
    const blog = state.monitors.find((monitor) => monitor.fields['Name'] === 'Blog');
    if (blog === undefined) throw new Error('the demo account has no monitor Blog');
    Object.assign(blog.fields, { MonitorMode: 'Canary', Tags: ['public'] });
    await suite.emulator.control.load(state);
    const settings = `# Reviewed by the platform team.\n${SETTINGS.replace('monitors: { prune: false }', 'monitors: { prune: false }   # adopt by hand')}`;
    const root = tempTree({ 'monsync.yaml': settings, 'vault.yaml': VAULT });

    const { code, out, err } = await monsync(['import', 'monitor', 'Blog'], { env: suite.env, cwd: root });
    expect(code, err).toBe(ExitCode.Ok);
    const dropsFields = profileFromEnv() === 'published';
    expect(readFileSync(join(root, 'monsync.yaml'), 'utf8')).toBe(
      settings +
        '# What the live account holds beyond the published definition of this release of monsync (written by\n' +
        '# monsync pull --into or import): the service added it since. Remove an entry once monsync publishes it.\n' +
        `allowUnknown:\n${dropsFields ? '' : '  fields:\n    monitor: [Tags]\n'}  values:\n    MonitorMode: [Canary]\n`,
    );
    expect(out).toContain('~ monsync.yaml allowUnknown.values.MonitorMode: Canary\n');
    expect(out).toContain('note: monsync.yaml: allowUnknown now lets through what the objects written hold beyond the published definition');
    const validate = await monsync(['validate'], { cwd: root });
    expect(validate.err).toBe('');
    expect(validate.code).toBe(ExitCode.Ok);
  });
});
