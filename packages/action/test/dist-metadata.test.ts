import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = resolve(PACKAGE_DIR, '..', '..');
const EXAMPLES = join(REPO_ROOT, '.github', 'examples');
const VALIDATE = join(PACKAGE_DIR, 'scripts', 'validate-workflows.mjs');

interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string;
}
interface ActionMetadata {
  name?: string;
  description?: string;
  branding?: { icon?: string; color?: string };
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { description?: string }>;
  runs: { using?: string; main?: string };
}
interface Step {
  id?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, { environment?: string; steps: Step[] }>;
}

const readYaml = <T>(path: string): T => parse(readFileSync(path, 'utf8')) as T;
const action = readYaml<ActionMetadata>(join(PACKAGE_DIR, 'action.yml'));

/** The TypeScript sources of the action (what the bundle is built from). */
function sourceTexts(): string[] {
  return filesUnder(join(PACKAGE_DIR, 'src'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'))
    .map((path) => readFileSync(path, 'utf8'));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function validate(files: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [VALIDATE, ...files], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('action.yml', () => {
  it('runs the committed bundle on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(existsSync(join(PACKAGE_DIR, action.runs.main ?? ''))).toBe(true);
    expect(action.name).toBe('monsync');
    expect(action.description?.length).toBeGreaterThan(20);
    expect(action.branding?.icon).toBeTruthy();
    expect(action.branding?.color).toBeTruthy();
  });

  it('declares the inputs of the issue, only command required, with their defaults', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        'allow-deletes',
        'allow-unsafe',
        'api-password',
        'api-url',
        'api-username',
        'command',
        'comment',
        'comment-unchanged',
        'config',
        'drift-pr',
        'fingerprint-key',
        'github-login',
        'github-token',
        'lock',
        'operators',
        'parallelism',
        'unreviewed',
      ].sort(),
    );
    expect(Object.entries(action.inputs).filter(([, input]) => input.required === true).map(([name]) => name)).toEqual(['command']);
    const defaults = Object.fromEntries(Object.entries(action.inputs).flatMap(([name, input]) => (input.default === undefined ? [] : [[name, input.default]])));
    expect(defaults).toEqual({ config: '.', 'github-token': '${{ github.token }}', comment: 'true', 'allow-unsafe': 'false', lock: 'true', 'drift-pr': 'false', unreviewed: 'hold', 'comment-unchanged': 'true' });
    // Credentials have no default: a missing secret (a fork pull request) must be seen as missing.
    for (const name of ['api-url', 'api-username', 'api-password', 'fingerprint-key']) expect(action.inputs[name]?.default).toBeUndefined();
  });

  it('declares the outputs of the issue', () => {
    expect(Object.keys(action.outputs).sort()).toEqual(['artifact-name', 'artifact-paths', 'comment-url', 'has-changes', 'plan-digest', 'plan-file', 'record-file', 'summary']);
  });

  it('matches the code: every input the code reads and every output it sets is declared, and each declared one is used', () => {
    const texts = sourceTexts();
    const called = (fn: string): Set<string> => new Set(texts.flatMap((text) => [...text.matchAll(new RegExp(`core\\.${fn}\\(\\s*['"]([^'"]+)['"]`, 'g'))].map((match) => match[1] ?? '')));
    const literals = new Set(texts.flatMap((text) => [...text.matchAll(/['"`]([a-z][a-z-]*)['"`]/g)].map((match) => match[1] ?? '')));
    const read = new Set([...called('getInput'), ...called('getBooleanInput'), ...called('getMultilineInput')]);
    expect([...read].filter((name) => !(name in action.inputs))).toEqual([]);
    expect([...called('setOutput')].filter((name) => !(name in action.outputs))).toEqual([]);
    // An input may be read through a helper (booleanInput('comment', ...)): its name is still a literal in the code.
    expect(Object.keys(action.inputs).filter((name) => !read.has(name) && !literals.has(name))).toEqual([]);
    expect(Object.keys(action.outputs).filter((name) => !called('setOutput').has(name))).toEqual([]);
    expect(read.size).toBeGreaterThan(0);
  });

  it('describes every input and output', () => {
    const undescribed = [...Object.entries(action.inputs), ...Object.entries(action.outputs)]
      .filter(([, entry]) => typeof entry.description !== 'string' || entry.description.trim().length < 10)
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });
});

describe('the example workflows (.github/examples)', () => {
  const workflow = (name: string): Workflow => readYaml<Workflow>(join(EXAMPLES, name));
  const actionSteps = (flow: Workflow): Step[] => Object.values(flow.jobs).flatMap((job) => job.steps.filter((step) => step.uses?.endsWith('/monsync/packages/action@v1') === true));

  it('are the three documented ones', () => {
    expect(readdirSync(EXAMPLES).sort()).toEqual(['monsync-apply.yml', 'monsync-drift.yml', 'monsync-plan.yml']);
  });

  it('plan runs on pull_request with read contents, write pull requests and one run per pull request', () => {
    const flow = workflow('monsync-plan.yml');
    expect(Object.keys(flow.on)).toEqual(['pull_request']);
    expect(flow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(flow.concurrency?.group).toContain('github.event.pull_request.number');
    expect(actionSteps(flow).map((step) => step.with?.['command'])).toEqual(['plan']);
  });

  it('apply runs on push to main in a protected environment, one apply at a time and never cancelled', () => {
    const flow = workflow('monsync-apply.yml');
    expect(flow.on['push']).toEqual({ branches: ['main'], paths: ['configs/**'] });
    expect(flow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(flow.concurrency).toEqual({ group: 'monsync-apply', 'cancel-in-progress': false });
    expect(Object.values(flow.jobs).map((job) => job.environment)).toEqual(['monitoring']);
    expect(actionSteps(flow).map((step) => step.with?.['command'])).toEqual(['apply']);
  });

  it('drift runs on a schedule and by hand, and may write issues and its "Accept live changes" branch and pull request', () => {
    const flow = workflow('monsync-drift.yml');
    expect(Object.keys(flow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(flow.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', issues: 'write' });
    expect(actionSteps(flow)[0]?.with?.['drift-pr']).toBe('true');
    expect(actionSteps(flow).map((step) => step.with?.['command'])).toEqual(['drift']);
  });

  it('apply holds steps nobody reviewed on a push; "Run workflow" offers unreviewed: hold | apply, hold by default', () => {
    const flow = workflow('monsync-apply.yml');
    const dispatch = flow.on['workflow_dispatch'] as { inputs?: Record<string, { type?: string; options?: string[]; default?: string }> };
    expect(dispatch.inputs?.['unreviewed']).toMatchObject({ type: 'choice', options: ['hold', 'apply'], default: 'hold' });
    // A push has no inputs: the expression falls back to hold, as the action's own default does.
    expect(actionSteps(flow)[0]?.with?.['unreviewed']).toBe("${{ inputs.unreviewed || 'hold' }}");
    expect(action.inputs['unreviewed']?.default).toBe('hold');
  });

  it('plan and apply upload the plan file, its text and the reviewed-plan record as the artifact their comments link to, also when the step fails', () => {
    for (const name of ['monsync-plan.yml', 'monsync-apply.yml']) {
      const steps = Object.values(workflow(name).jobs).flatMap((job) => job.steps);
      const monsync = steps.findIndex((step) => step.uses?.endsWith('/monsync/packages/action@v1') === true);
      const upload = steps.findIndex((step) => step.uses?.startsWith('actions/upload-artifact@') === true);
      expect(steps[monsync]?.id, name).toBe('monsync');
      expect(upload, name).toBeGreaterThan(monsync);
      expect(steps[upload]?.if, name).toContain('always()');
      expect(steps[upload]?.with, name).toMatchObject({ name: '${{ steps.monsync.outputs.artifact-name }}', path: '${{ steps.monsync.outputs.artifact-paths }}' });
    }
  });

  it('pass only declared inputs, and credentials and secret values only from secrets', () => {
    for (const name of readdirSync(EXAMPLES)) {
      const steps = actionSteps(workflow(name));
      expect(steps.length, name).toBe(1);
      for (const step of steps) {
        const inputs = step.with ?? {};
        expect(Object.keys(inputs).filter((input) => !(input in action.inputs)), name).toEqual([]);
        for (const key of ['api-url', 'api-username', 'api-password', 'fingerprint-key']) {
          expect(inputs[key], `${name}: ${key}`).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
        }
        for (const [variable, value] of Object.entries(step.env ?? {})) expect(value, `${name}: env ${variable}`).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
      }
    }
  });
});

describe('workflow files under .github', () => {
  it('never use pull_request_target (it runs with secrets on code from forks)', () => {
    const files = filesUnder(join(REPO_ROOT, '.github')).filter((path) => /\.ya?ml$/.test(path));
    expect(files.map((path) => relative(REPO_ROOT, path))).toEqual(expect.arrayContaining(['.github/workflows/ci.yml', '.github/examples/monsync-plan.yml']));
    const offenders = files.filter((path) => readFileSync(path, 'utf8').includes('pull_request_target')).map((path) => relative(REPO_ROOT, path));
    expect(offenders).toEqual([]);
  });

  it('pass action-validator, as do action.yml', () => {
    const result = validate([]);
    expect(result.output).toContain('packages/action/action.yml');
    expect(result.output).toContain('.github/examples/monsync-plan.yml');
    expect(result.status, result.output).toBe(0);
  });

  it('fail action-validator on a misspelt key, also beside node24, and on a node the runner lacks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-action-validate-test-'));
    try {
      const actionText = readFileSync(join(PACKAGE_DIR, 'action.yml'), 'utf8');
      const planText = readFileSync(join(EXAMPLES, 'monsync-plan.yml'), 'utf8');
      const cases: [string, string, string][] = [
        ['plan.yml', planText, planText.replace('runs-on:', 'run-on:')],
        ['misspelt/action.yml', actionText, actionText.replace('  main: dist/index.js', '  mian: dist/index.js')],
        ['old-node/action.yml', actionText, actionText.replace('using: node24', 'using: node14')],
      ];
      for (const [name, original, text] of cases) {
        expect(text, `${name} was not changed`).not.toBe(original);
        const file = join(dir, name);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
        const result = validate([file]);
        expect(result.status, `${name}: ${result.output}`).toBe(1);
        expect(result.output).toContain('FAIL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
