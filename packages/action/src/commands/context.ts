import type { ConfigFolder } from '../config-folder.js';
import type { GitHubContext } from '../github-context.js';
import type { ActionInputs } from '../inputs.js';
import type { Masker } from '../masking.js';

/** What every command is run with. */
export interface CommandRun {
  inputs: ActionInputs;
  context: GitHubContext;
  folder: ConfigFolder;
  masker: Masker;
}
