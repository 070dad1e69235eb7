import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  formatMigrationReport,
  migrateConfig,
  migrationExitCode,
  MigrationError,
  type MigrationProblem,
  type MigrationRename,
  type MigrationResult,
} from '@monsync/schema';

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function configTree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'monsync-migrate-unit-'));
  temps.push(dir);
  for (const [path, text] of Object.entries({ 'monsync.yaml': 'apiVersion: monsync/v1\n', ...files })) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const LEGACY = ['monitors:', '  - Name: Shop', '    AlertOnLoadTimeLimit1: true', '    LoadTimeLimit1: 4000', '    IsActive: true', ''];

describe('migrateConfig', () => {
  it('keeps Windows line endings in a file it rewrites', async () => {
    const dir = await configTree({ 'monitors.yaml': LEGACY.join('\r\n') });
    await migrateConfig(dir);
    const text = await readFile(join(dir, 'monitors.yaml'), 'utf8');
    expect(text).toBe(
      [
        'monitors:',
        '  - Name: Shop',
        '    ErrorConditions:',
        '      - { ErrorConditionType: LoadTimeLimit1, Value: "4000", Effect: Error }',
        '    IsActive: true',
        '',
      ].join('\r\n'),
    );
  });

  it('with write: false reports the files it would change and leaves them alone', async () => {
    const dir = await configTree({ 'monitors.yaml': LEGACY.join('\n') });
    const result = await migrateConfig(dir, { write: false });
    expect(result.filesChanged).toEqual([join(dir, 'monitors.yaml')]);
    expect(await readFile(join(dir, 'monitors.yaml'), 'utf8')).toBe(LEGACY.join('\n'));
    expect(migrationExitCode(result)).toBe(0);
    expect(migrationExitCode(result, { check: true })).toBe(1);
  });

  it('writes through a temporary file: no leftovers, permissions kept', async () => {
    const dir = await configTree({ 'monitors.yaml': LEGACY.join('\n') });
    await chmod(join(dir, 'monitors.yaml'), 0o640);
    await migrateConfig(dir);
    expect((await stat(join(dir, 'monitors.yaml'))).mode & 0o777).toBe(0o640);
    expect((await readdir(dir)).sort()).toEqual(['monitors.yaml', 'monsync.yaml']);
  });

  it('reports a YAML syntax error with its position, leaves that file alone and still migrates the others', async () => {
    const broken = 'monitors:\n  - Name: Broken\n    LoadTimeLimit1: [1, 2\n';
    const dir = await configTree({ 'a.yaml': broken, 'b.yaml': LEGACY.join('\n') });
    const result = await migrateConfig(dir);
    expect(result.problems).toEqual([
      expect.objectContaining({ severity: 'error', code: 'MIGRATE_YAML_ERROR', file: join(dir, 'a.yaml'), line: 4, column: 1 }),
    ]);
    expect(await readFile(join(dir, 'a.yaml'), 'utf8')).toBe(broken);
    expect(result.filesChanged).toEqual([join(dir, 'b.yaml')]);
    expect(migrationExitCode(result)).toBe(1);
  });

  it('treats a duplicate key as an error instead of picking one of the values', async () => {
    const text = 'monitors:\n  - Name: Twice\n    AlertOnLoadTimeLimit1: true\n    LoadTimeLimit1: 1\n    LoadTimeLimit1: 2\n';
    const dir = await configTree({ 'monitors.yaml': text });
    const result = await migrateConfig(dir);
    expect(result.problems).toEqual([expect.objectContaining({ code: 'MIGRATE_YAML_ERROR', line: 5, column: 5 })]);
    expect(result.changes).toEqual([]);
    expect(await readFile(join(dir, 'monitors.yaml'), 'utf8')).toBe(text);
  });

  it('skips a file over the 5 MB limit with an error naming it', async () => {
    const big = `monitors:\n  - Name: Big\n    AlertOnLoadTimeLimit1: true\n    LoadTimeLimit1: 1\n    Notes: "${'x'.repeat(5 * 1024 * 1024)}"\n`;
    const dir = await configTree({ 'big.yaml': big });
    const result = await migrateConfig(dir);
    expect(result.problems).toEqual([expect.objectContaining({ code: 'MIGRATE_FILE_TOO_LARGE', file: join(dir, 'big.yaml') })]);
    expect(result.changes).toEqual([]);
  });

  it('warns when the folder has no monsync.yaml but still migrates its files', async () => {
    const dir = await configTree({ 'monitors.yaml': LEGACY.join('\n') });
    await rm(join(dir, 'monsync.yaml'));
    const result = await migrateConfig(dir);
    expect(result.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'MIGRATE_NO_ROOT_FILE' })]);
    expect(result.changes).toHaveLength(1);
  });

  it('reads only *.yaml files, outside hidden folders and node_modules', async () => {
    const legacy = LEGACY.join('\n');
    const dir = await configTree({
      'monitors.yml': legacy,
      '.git/x.yaml': legacy,
      'node_modules/y.yaml': legacy,
      'sub/.hidden.yaml': legacy,
      'sub/z.yaml': legacy,
    });
    const result = await migrateConfig(dir);
    expect(result.filesChanged).toEqual([join(dir, 'sub/.hidden.yaml'), join(dir, 'sub/z.yaml')]);
    expect(await readFile(join(dir, 'monitors.yml'), 'utf8')).toBe(legacy);
  });

  it('leaves files without a monitors list (and monitors without removed fields) byte for byte', async () => {
    const settings = 'apiVersion: monsync/v1   # odd   spacing\nmanage: {monitors: {prune: true}}\n';
    const clean = 'monitors:\n  - {Name: Clean,   MonitorType: Http}\n';
    const dir = await configTree({ 'monsync.yaml': settings, 'clean.yaml': clean });
    const result = await migrateConfig(dir);
    expect(result).toEqual({ changes: [], renames: [], problems: [], filesChanged: [] });
    expect(await readFile(join(dir, 'monsync.yaml'), 'utf8')).toBe(settings);
    expect(await readFile(join(dir, 'clean.yaml'), 'utf8')).toBe(clean);
  });

  it('names the monitor by position when it has no Name', async () => {
    const dir = await configTree({ 'm.yaml': 'monitors:\n  - MonitorType: Http\n  - AlertOnLoadTimeLimit2: false\n    LoadTimeLimit2: 9\n' });
    const result = await migrateConfig(dir);
    expect(result.changes.map((change) => change.monitor)).toEqual(['monitors[1]']);
    expect(parse(await readFile(join(dir, 'm.yaml'), 'utf8'))).toEqual({
      monitors: [{ MonitorType: 'Http' }, { ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit2', Value: '9', Effect: 'Indicate' }] }],
    });
  });

  it('leaves a monitor alone when a removed field carries a YAML anchor others refer to', async () => {
    const text = 'monitors:\n  - Name: A\n    AlertOnLoadTimeLimit1: true\n    LoadTimeLimit1: &limit 4000\n    CheckInterval: *limit\n';
    const dir = await configTree({ 'm.yaml': text });
    const result = await migrateConfig(dir);
    expect(result.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'MIGRATE_YAML_ALIAS', line: 4, column: 5 })]);
    expect(await readFile(join(dir, 'm.yaml'), 'utf8')).toBe(text);
  });

  it('leaves a file unchanged and says so when its layout defeats the verified rewrite (explicit ? keys)', async () => {
    const text = 'monitors:\n  - Name: B\n    ? AlertOnLoadTimeLimit1\n    : true\n    LoadTimeLimit1: 4000\n';
    const dir = await configTree({ 'm.yaml': text });
    const result = await migrateConfig(dir);
    expect(result.changes).toEqual([]);
    expect(result.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'MIGRATE_REWRITE_FAILED', line: 2, column: 3 })]);
    expect(result.filesChanged).toEqual([]);
    expect(await readFile(join(dir, 'm.yaml'), 'utf8')).toBe(text);
  });

  it('names files in messages relative to the config root, never by the absolute path it was given', async () => {
    const dir = await configTree({
      'monitors/shop.yaml':
        'monitors:\n  - Name: Shop\n    ErrorConditions:\n      - { ErrorConditionType: LoadTimeLimit1, Value: "5000", Effect: Error }\n' +
        '    AlertOnLoadTimeLimit1: true\n    LoadTimeLimit1: 4000\n',
    });
    await rm(join(dir, 'monsync.yaml'));
    const result = await migrateConfig(dir, { check: true });
    expect(result.problems.map((problem) => problem.code)).toEqual(['MIGRATE_NO_ROOT_FILE', 'MIGRATE_CONFLICT']);
    const conflict = result.problems[1];
    expect(conflict?.message).toContain('at monitors/shop.yaml:5:5 give LoadTimeLimit1');
    expect(conflict?.message).toContain('the ErrorConditions entry at monitors/shop.yaml:4:9 has');
    for (const problem of result.problems) expect(problem.message).not.toContain(dir);
    // The positions themselves keep the caller's path, for tools that open the file.
    expect(conflict?.file).toBe(join(dir, 'monitors/shop.yaml'));
  });

  it('throws a clear error for a folder that does not exist, or a file given as the folder', async () => {
    await expect(migrateConfig(join(tmpdir(), 'monsync-no-such-tree'))).rejects.toMatchObject({ code: 'MIGRATE_INPUT_NOT_FOUND' });
    const dir = await configTree({});
    const error = await migrateConfig(join(dir, 'monsync.yaml')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationError);
    expect(error).toMatchObject({ code: 'MIGRATE_INPUT_NOT_A_DIRECTORY', message: expect.stringContaining('holds monsync.yaml') });
  });
});

describe('migrationExitCode', () => {
  const change = { file: 'm.yaml', line: 1, column: 1, monitor: 'Shop', removed: ['LoadTimeLimit1'], added: [] };
  const rename: MigrationRename = { file: 'm.yaml', line: 2, column: 5, kind: 'sla', object: 'Gold', what: 'field', field: 'OperatorResponseTimeThreshold', from: 'OperatorResponseTimeThreshold', to: 'OperatorReponseTimeThreshold' };
  const problem = (severity: 'error' | 'warning' | 'info'): MigrationProblem => ({
    severity,
    code: 'MIGRATE_CONFLICT',
    message: 'm',
    file: 'm.yaml',
    line: 1,
    column: 1,
  });
  const cases: Array<[string, MigrationResult, boolean, 0 | 1]> = [
    ['nothing to do', { changes: [], renames: [], problems: [], filesChanged: [] }, true, 0],
    ['changes made', { changes: [change], renames: [], problems: [], filesChanged: ['m.yaml'] }, false, 0],
    ['changes pending in check mode', { changes: [change], renames: [], problems: [], filesChanged: ['m.yaml'] }, true, 1],
    ['a blocked monitor', { changes: [], renames: [], problems: [problem('error')], filesChanged: [] }, false, 1],
    ['spellings pending in check mode', { changes: [], renames: [rename], problems: [], filesChanged: ['m.yaml'] }, true, 1],
    ['only notes and warnings', { changes: [], renames: [], problems: [problem('info'), problem('warning')], filesChanged: [] }, true, 0],
  ];
  it.each(cases)('gives the exit code for %s', (_name, result, check, code) => {
    expect(migrationExitCode(result, { check })).toBe(code);
  });
});

describe('formatMigrationReport', () => {
  it('prints one line per monitor and per problem, then a summary', async () => {
    const dir = await configTree({
      'monitors.yaml':
        'monitors:\n  - Name: Shop\n    AlertOnLoadTimeLimit1: true\n    LoadTimeLimit1: 4000\n' +
        '  - Name: Odd\n    LoadTimeLimit2: 5\n',
    });
    const result = await migrateConfig(dir, { check: true });
    const text = formatMigrationReport(result, { check: true }).split(`${dir}/`).join('');
    expect(text.split('\n')).toEqual([
      'monitors.yaml:3:5: monitor "Shop": would move AlertOnLoadTimeLimit1, LoadTimeLimit1 -> ErrorConditions: LoadTimeLimit1 Value "4000" (milliseconds, as before) Effect Error',
      'monitors.yaml:6:5: error MIGRATE_VALUE_WITHOUT_FLAG: monitor "Odd": LoadTimeLimit2 is set but AlertOnLoadTimeLimit2 is missing, ' +
        'so it is unknown whether it should raise an error or only indicate; add AlertOnLoadTimeLimit2: true or false and run `monsync migrate` again',
      '1 monitor in 1 file would be migrated; run `monsync migrate` to rewrite them. 1 error to fix by hand (see above).',
      '',
    ]);
  });

  it('says so when nothing uses the removed fields', () => {
    expect(formatMigrationReport({ changes: [], renames: [], problems: [], filesChanged: [] })).toBe('No monitor uses the removed fields, and no field or value the spec spells differently from the service.\n');
  });
});
