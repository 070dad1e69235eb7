import type { CommandSpec } from '../command.js';

/**
 * A command as `monsync --help` lists it, and how to load the rest. Each command's module (and the packages it
 * needs: the YAML validator, the HTTP client, the emulator) is imported only when that command runs, so
 * `--version` and `--help` start in the time Node itself takes, and `validate` never loads an HTTP client. The
 * summaries must equal the loaded specs' (test/cli.test.ts checks).
 */
export interface CommandEntry {
  name: string;
  summary: string;
  /** The command talks to the Monitoring Service API (bin.ts tunes the process for a short run of HTTP requests). */
  callsApi?: true;
  load(): Promise<CommandSpec>;
}

/** In the order `monsync --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', callsApi: true, summary: 'start a config repository: monsync.yaml, the GitHub workflows, .gitignore lines (optionally pulled from the live account)', load: async () => (await import('./init.js')).initCommand },
  { name: 'validate', summary: 'check the config tree (schema, references, secrets by reference only) without calling the API', load: async () => (await import('./validate.js')).validateCommand },
  { name: 'plan', callsApi: true, summary: 'compare the config tree with the live account and show what apply would change', load: async () => (await import('./plan.js')).planCommand },
  { name: 'apply', callsApi: true, summary: 'apply a plan to the live account: plan now, or a plan saved with plan --out', load: async () => (await import('./apply.js')).applyCommand },
  { name: 'show', summary: 'print a plan saved with plan --out, as text, markdown or json, without calling the API', load: async () => (await import('./show.js')).showCommand },
  { name: 'unlock', callsApi: true, summary: 'break the apply lock left by an apply that stopped without releasing it (as terraform force-unlock)', load: async () => (await import('./unlock.js')).unlockCommand },
  { name: 'pull', callsApi: true, summary: 'write the live account as a new config tree, or into an existing one in place (--into)', load: async () => (await import('./pull.js')).pullCommand },
  { name: 'import', callsApi: true, summary: 'adopt chosen live objects that the tree leaves out into the tree, in place, comments kept', load: async () => (await import('./import.js')).importCommand },
  { name: 'migrate', summary: 'rewrite removed monitor fields into ErrorConditions, and spec spellings into the service\'s', load: async () => (await import('./migrate.js')).migrateCommand },
  { name: 'completion', summary: 'print the shell completion script for bash, zsh or fish (commands, options and their values)', load: async () => (await import('./completion.js')).completionCommand },
  { name: 'emulator', summary: 'run the local Monitoring Service API emulator (for trying configs and for CI)', load: async () => (await import('./emulator.js')).emulatorCommand },
];
