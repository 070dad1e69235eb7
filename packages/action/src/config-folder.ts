import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SETTINGS_FILE } from '@monsync/schema';
import { ActionInputError } from './errors.js';

export interface ConfigFolder {
  /** Absolute path, below the workspace. */
  dir: string;
  /** Relative to the workspace with `/` (`.` for the root): names the folder in markers, titles and file names. */
  label: string;
}

/** Whether `rel` (from `relative`) leaves the folder it is relative to. */
function leaves(rel: string): boolean {
  return isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`);
}

/**
 * The config folder the `config` input names, inside the checkout: after `..` and symbolic links are resolved it must
 * be the workspace or below it. A folder elsewhere on the runner is refused: the tree's files would be read from
 * outside the repository under review, and their paths would reach comments, annotations and markers. No message
 * shows an absolute path (the runner's layout is nobody's business in a log or a comment); the input is shown as given.
 */
export function configFolder(config: string, workspace: string): ConfigFolder {
  const shown = JSON.stringify(config);
  const lexical = resolve(workspace, config);
  const rel = relative(workspace, lexical);
  if (leaves(rel)) {
    throw new ActionInputError(`input config: ${shown} is outside the checkout; give the folder that holds ${SETTINGS_FILE}, relative to the repository root (e.g. configs)`);
  }
  if (!existsSync(lexical) || !statSync(lexical).isDirectory()) {
    throw new ActionInputError(`input config: ${shown} is not a folder of the checkout; give the folder that holds ${SETTINGS_FILE}, relative to the repository root`);
  }
  // A link inside the checkout may lead out of it: the real paths decide.
  if (leaves(relative(realpathSync(workspace), realpathSync(lexical)))) {
    throw new ActionInputError(`input config: ${shown} is a symbolic link (or passes through one) to a folder outside the checkout; give a folder of the repository itself`);
  }
  if (!existsSync(join(lexical, SETTINGS_FILE))) {
    throw new ActionInputError(`input config: ${shown} has no ${SETTINGS_FILE}; a config tree starts with ${SETTINGS_FILE} (apiVersion: monsync/v1) at its root`);
  }
  return { dir: lexical, label: rel === '' ? '.' : rel.split(sep).join('/') };
}
