import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfigDir } from './config-dir.js';
import { CliError } from './errors.js';

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'monsync-cli-'));
  mkdirSync(join(root, 'configs', 'monitors'), { recursive: true });
  writeFileSync(join(root, 'configs', 'monsync.yaml'), 'apiVersion: monsync/v1\n');
  return root;
}

describe('config folder discovery', () => {
  it('finds the nearest folder upwards that holds monsync.yaml', () => {
    const root = tree();
    expect(resolveConfigDir(join(root, 'configs', 'monitors'), undefined)).toBe(join(root, 'configs'));
    expect(resolveConfigDir(join(root, 'configs'), undefined)).toBe(join(root, 'configs'));
  });

  it('takes configs/ below the working directory, where init writes the tree, when no folder upwards holds monsync.yaml', () => {
    const root = tree();
    expect(resolveConfigDir(root, undefined)).toBe(join(root, 'configs'));
  });

  it('prefers a monsync.yaml in the working directory to one in its configs/ folder', () => {
    const root = tree();
    writeFileSync(join(root, 'monsync.yaml'), 'apiVersion: monsync/v1\n');
    expect(resolveConfigDir(root, undefined)).toBe(root);
  });

  it('looks in configs/ of the working directory only, not of the folders above it', () => {
    const root = tree();
    mkdirSync(join(root, 'elsewhere'));
    expect(() => resolveConfigDir(join(root, 'elsewhere'), undefined)).toThrow(/no monsync\.yaml in .*elsewhere, its configs\/ folder or any folder above it/);
  });

  it('takes --config relative to the working directory, as the folder or its monsync.yaml', () => {
    const root = tree();
    expect(resolveConfigDir(root, 'configs')).toBe(join(root, 'configs'));
    expect(resolveConfigDir(root, 'configs/monsync.yaml')).toBe(join(root, 'configs'));
  });

  it('says how to fix a folder without monsync.yaml', () => {
    const root = tree();
    expect(() => resolveConfigDir(root, '.')).toThrow(/monsync\.yaml: not found\. A config tree starts with monsync\.yaml/);
    expect(() => resolveConfigDir(root, 'nope')).toThrow(/--config nope: no such folder/);
  });

  it('fails with CONFIG_ROOT_MISSING when no folder upwards holds monsync.yaml', () => {
    const lonely = mkdtempSync(join(tmpdir(), 'monsync-none-'));
    try {
      resolveConfigDir(lonely, undefined);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).code).toBe('CONFIG_ROOT_MISSING');
      expect((error as CliError).message).toMatch(/pass --config DIR/);
    }
  });
});
