import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree } from './helpers.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n';

describe('monsync validate on awkward trees', () => {
  it('never prints a file that a symlinked *.yaml leads to outside the tree (e.g. the environment of the job)', async () => {
    const canary = 'CANARY-7f3a9c-environ';
    const outside = tempTree({ 'environ': `MONSYNC_API_PASSWORD=${canary}\0HOME=/root\0` });
    const tree = tempTree({ 'monsync.yaml': SETTINGS });
    symlinkSync(join(outside, 'environ'), join(tree, 'env.yaml'));
    const { code, out, err } = await monsync(['validate'], { cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('env.yaml:1:1: error CONFIG_FILE_OUTSIDE_TREE: the file is a symbolic link that leads outside the config tree, so it is not read\n');
    expect(out + err).not.toContain(canary);
  });
});
