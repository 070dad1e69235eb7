import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateConfig } from '@monsync/schema';

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('migrateConfig on a file that starts with a byte-order mark', () => {
  it('indents the new ErrorConditions list as the file indents its lists, not one column less', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'monsync-migrate-bom-'));
    temps.push(dir);
    await writeFile(join(dir, 'monsync.yaml'), 'apiVersion: monsync/v1\n');
    const legacy = ['\uFEFFmonitors:', '  - Name: Shop', '    # page load', '    LoadTimeLimit1: 4000', '    AlertOnLoadTimeLimit1: true', '    IsActive: true', ''];
    await writeFile(join(dir, 'monitors.yaml'), legacy.join('\n'));
    await migrateConfig(dir);
    expect(await readFile(join(dir, 'monitors.yaml'), 'utf8')).toBe(
      [
        '\uFEFFmonitors:',
        '  - Name: Shop',
        '    # page load',
        '    ErrorConditions:',
        '      - { ErrorConditionType: LoadTimeLimit1, Value: "4000", Effect: Error }',
        '    IsActive: true',
        '',
      ].join('\n'),
    );
  });
});
