import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SETTINGS_FILE } from '@monsync/schema';
import { ActionInputError } from './errors.js';

export interface ConfigFolder {
  /** Absolute path. */
  dir: string;
  /** Relative to the workspace with `/` (`.` for the root): names the folder in markers, titles and file names. */
  label: string;
}

export function configFolder(config: string, workspace: string): ConfigFolder {
  const dir = resolve(workspace, config);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ActionInputError(`input config: ${JSON.stringify(config)} is not a folder of the checkout (${dir}); give the folder that holds ${SETTINGS_FILE}, relative to the repository root`);
  }
  if (!existsSync(join(dir, SETTINGS_FILE))) {
    throw new ActionInputError(`input config: ${JSON.stringify(config)} has no ${SETTINGS_FILE}; a config tree starts with ${SETTINGS_FILE} (apiVersion: monsync/v1) at its root`);
  }
  const rel = relative(workspace, dir);
  const label = rel === '' ? '.' : isAbsolute(rel) || rel.startsWith('..') ? dir.split(sep).join('/') : rel.split(sep).join('/');
  return { dir, label };
}
