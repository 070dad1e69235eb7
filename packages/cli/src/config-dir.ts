import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CliError } from './errors.js';

export const ROOT_FILE = 'monsync.yaml';

/** Where `monsync init` writes the tree by default, and the action's default `config`. */
export const DEFAULT_TREE = 'configs';

/**
 * The config folder: `--config DIR` when given (relative to the working directory), otherwise the nearest
 * folder upwards from the working directory that holds `monsync.yaml`, the way git finds its repository. At the
 * working directory itself, `configs/` counts too: the repository root of a tree `init` made holds it there, and
 * that is where a user runs `monsync plan` after `init`.
 */
export function resolveConfigDir(cwd: string, explicit: string | undefined): string {
  if (explicit !== undefined) {
    let dir = resolve(cwd, explicit);
    // `--config configs/monsync.yaml` names the tree by its root file; take its folder.
    if (existsSync(dir) && statSync(dir).isFile() && basename(dir) === ROOT_FILE) dir = dirname(dir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new CliError('CONFIG_DIR_NOT_FOUND', `--config ${explicit}: no such folder (${dir}). Pass the folder that holds ${ROOT_FILE}.`);
    }
    if (!existsSync(join(dir, ROOT_FILE))) {
      throw new CliError('CONFIG_ROOT_MISSING', `${join(dir, ROOT_FILE)}: not found. A config tree starts with ${ROOT_FILE} at its root (apiVersion: monsync/v1); pass that folder to --config.`);
    }
    return dir;
  }
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ROOT_FILE))) return dir;
    if (dir === resolve(cwd) && existsSync(join(dir, DEFAULT_TREE, ROOT_FILE))) return join(dir, DEFAULT_TREE);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new CliError('CONFIG_ROOT_MISSING', `no ${ROOT_FILE} in ${resolve(cwd)}, its ${DEFAULT_TREE}/ folder or any folder above it. Run monsync inside a config tree or pass --config DIR (monsync init starts one).`);
}
