import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INIT_KINDS, pinnedWorkflow } from '../src/commands/init.js';
import { ExitCode } from '../src/exit-codes.js';
import { bufferedIo } from '../src/io.js';
import { run } from '../src/main.js';
import { versionedSchemaUrl } from '../src/schema-reference.js';
import { cliVersion, isReleasedVersion } from '../src/version.js';
import { workflowTemplates } from '../src/workflow-templates.js';
import { monsync, tempTree, useEmulator } from './helpers.js';

/** The kinds a written monsync.yaml manages, in order. */
function managed(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^ {2}(\w+): \{ prune: false \}$/gm)].map((match) => match[1] ?? '');
}

/** A repository outside this one, as `git init` leaves it: a .git folder and nothing else. */
function emptyRepository(files: Record<string, string> = {}): string {
  const root = tempTree(files);
  mkdirSync(join(root, '.git'));
  return root;
}

describe('monsync init', () => {
  it('writes monsync.yaml, the three workflows and the .gitignore lines; the tree validates', async () => {
    const root = emptyRepository();
    const { code, out, err } = await monsync(['init', '--kinds', 'monitors,vault'], { cwd: root });
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('wrote configs/monsync.yaml');
    expect(managed(join(root, 'configs', 'monsync.yaml'))).toEqual(['monitors', 'vault']);
    // The tests run a checkout's build, which was never released: the workflows keep the major tag and init says so.
    expect(isReleasedVersion(cliVersion())).toBe(false);
    expect(err).toBe(
      `note: monsync ${cliVersion()} is not a released version (a build from a checkout or a prerelease), so the workflows use monsync/monsync/packages/action@v1, ` +
        `which follows the latest release, instead of @v${cliVersion()}, a tag that does not exist. ` +
        'To pin, replace it with a release tag (@vX.Y.Z, https://github.com/monsync/monsync/releases) or that tag\'s commit SHA.\n',
    );
    for (const name of ['monsync-plan.yml', 'monsync-apply.yml', 'monsync-drift.yml']) {
      const text = readFileSync(join(root, '.github', 'workflows', name), 'utf8');
      expect(text, name).toContain('uses: monsync/monsync/packages/action@v1\n');
      expect(text, name).not.toContain(`@v${cliVersion()}`);
      expect(text, name).not.toContain('OWNER');
      expect(text, name).toContain('config: configs');
    }
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toContain('.emulator.json\n');
    expect((await monsync(['validate'], { cwd: join(root, 'configs') })).code).toBe(ExitCode.Ok);
    // Where a user is after init: the repository root, whose configs/ is found without --config.
    const atRoot = await monsync(['validate'], { cwd: root });
    expect({ code: atRoot.code, err: atRoot.err }).toEqual({ code: ExitCode.Ok, err: '' });
    expect(atRoot.out).toMatch(/^configs: valid /);
    expect(out).toContain('Add the secrets the workflows name');
  });

  it('with --no-workflows, names no workflow secrets among the next steps', async () => {
    const root = emptyRepository();
    const { code, out, err } = await monsync(['init', '--kinds', 'monitors', '--no-workflows'], { cwd: root });
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('monsync plan --config configs');
    expect(out).not.toContain('workflows');
    expect(err).toBe('');
  });

  it('never overwrites: a second run fails naming the files and writes nothing; --force overwrites', async () => {
    const root = emptyRepository({ '.gitignore': 'dist/' });
    expect((await monsync(['init', '--kinds', 'monitors'], { cwd: root })).code).toBe(ExitCode.Ok);
    writeFileSync(join(root, 'configs', 'monsync.yaml'), '# mine\n');
    const again = await monsync(['init', '--kinds', 'slas'], { cwd: root });
    expect(again.code).toBe(ExitCode.Error);
    expect(again.err).toContain('error INIT_FILE_EXISTS');
    expect(again.err).toContain('configs/monsync.yaml');
    expect(readFileSync(join(root, 'configs', 'monsync.yaml'), 'utf8')).toBe('# mine\n');
    // The .gitignore lines were added once, after the line that had no newline, and not twice.
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toMatch(/^dist\/\nnode_modules\/\n# [^\n]+\n\.emulator\.json\n$/);
    const forced = await monsync(['init', '--kinds', 'slas', '--force'], { cwd: root });
    expect(forced.code).toBe(ExitCode.Ok);
    expect(readFileSync(join(root, 'configs', 'monsync.yaml'), 'utf8')).toContain('slas: { prune: false }');
  });

  it('asks on a terminal which kinds to manage', async () => {
    const root = emptyRepository();
    const answers = ['y', 'n', '', 'no', 'yes', 'n', 'n', 'n', 'n'];
    const io = Object.assign(bufferedIo({ cwd: root, isTTY: true }), { prompt: async () => answers.shift() ?? '' });
    expect(await run(['init', '--no-workflows'], io)).toBe(ExitCode.Ok);
    expect(managed(join(root, 'configs', 'monsync.yaml'))).toEqual(['monitors', 'vault', 'scheduledReports']);
    expect(existsSync(join(root, '.github'))).toBe(false);
  });

  it('manages every kind by default without a terminal, and rejects an unknown kind with the list', async () => {
    const root = emptyRepository();
    expect((await monsync(['init', '--config', 'monitoring'], { cwd: root })).code).toBe(ExitCode.Ok);
    expect(managed(join(root, 'monitoring', 'monsync.yaml'))).toEqual([...INIT_KINDS]);
    expect(readFileSync(join(root, '.github', 'workflows', 'monsync-plan.yml'), 'utf8')).toContain("- 'monitoring/**'");
    const bad = await monsync(['init', '--kinds', 'monitors,slass'], { cwd: emptyRepository() });
    expect(bad.code).toBe(ExitCode.Error);
    expect(bad.err).toContain("'slass' is not a kind");
  });

  it('writes the schema line through node_modules when @monsync/cli is installed, else the published URL', async () => {
    const installed = emptyRepository({ 'node_modules/@monsync/cli/dist/schemas/config.schema.json': '{}' });
    await monsync(['init', '--kinds', 'monitors', '--no-workflows'], { cwd: installed });
    expect(readFileSync(join(installed, 'configs', 'monsync.yaml'), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=../node_modules/@monsync/cli/dist/schemas/config.schema.json');
    const bare = emptyRepository();
    await monsync(['init', '--kinds', 'monitors', '--no-workflows'], { cwd: bare });
    // A checkout's build was never published: the latest release's schema, not a version unpkg does not have.
    expect(readFileSync(join(bare, 'configs', 'monsync.yaml'), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=https://unpkg.com/@monsync/cli/dist/schemas/config.schema.json');
    expect(versionedSchemaUrl('1.4.2')).toBe('https://unpkg.com/@monsync/cli@1.4.2/dist/schemas/config.schema.json');
  });

  it('counts only published versions as released: not 0.0.0, not a prerelease', () => {
    expect(['0.1.0', '1.0.0', '12.3.45'].filter(isReleasedVersion)).toEqual(['0.1.0', '1.0.0', '12.3.45']);
    expect(['0.0.0', '0.0.0-dev', '1.2.0-next.1', '2.0.0-rc.0', 'v1.0.0', ''].filter(isReleasedVersion)).toEqual([]);
  });

  it('pins every example workflow to a released version: no OWNER placeholder or floating major tag is left', () => {
    for (const [name, template] of Object.entries(workflowTemplates())) {
      const pinned = pinnedWorkflow(template, 'infra/monitoring', '1.2.3');
      expect(pinned, name).toMatch(/uses: monsync\/monsync\/packages\/action@v1\.2\.3\n/);
      expect(pinned, name).not.toMatch(/@v1\n|OWNER/);
      expect(pinned, name).toContain('config: infra/monitoring\n');
    }
  });

  it('never pins a version that was not released: a prerelease keeps the major tag', () => {
    for (const [name, template] of Object.entries(workflowTemplates())) {
      for (const version of ['0.0.0', '1.3.0-next.2']) {
        const written = pinnedWorkflow(template, 'configs', version);
        expect(written, name).toMatch(/uses: monsync\/monsync\/packages\/action@v1\n/);
        expect(written, name).not.toContain(`@v${version}`);
      }
    }
  });

  describe('--from-live', () => {
    const suite = useEmulator({ seed: 'demo' });

    it('pulls the live account into the config folder, and the tree validates', async () => {
      const root = emptyRepository();
      const { env } = suite;
      const { code, out, err } = await monsync(['init', '--from-live'], { cwd: root, env });
      expect(err).not.toContain('error');
      expect(code).toBe(ExitCode.Ok);
      expect(out).toContain('Wrote ');
      expect(existsSync(join(root, '.github', 'workflows', 'monsync-drift.yml'))).toBe(true);
      const first = readFileSync(join(root, 'configs', 'monsync.yaml'), 'utf8').split('\n')[0];
      expect(first).toMatch(/^# yaml-language-server: \$schema=/);
      expect((await monsync(['validate', '--config', 'configs'], { cwd: root, env })).code).toBe(ExitCode.Ok);
    });
  });
});

