import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { MANAGED_KINDS, OUTPUT_FORMAT_VERSION, type InitResult, type ManagedKind } from '@monsync/schema';
import { booleanOption, jsonOption, stringOption } from '../args.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { jsonDocument, type CliIo } from '../io.js';
import { displayPath } from '../load.js';
import { schemaModeline } from '../schema-reference.js';
import { cliVersion, isReleasedVersion } from '../version.js';
import { workflowTemplates } from '../workflow-templates.js';

/** The repository that publishes the action; `init` pins its release tag in the workflows it writes. */
export const ACTION_REPOSITORY = 'monsync/monsync';

/** The `manage` keys of monsync.yaml, in the order the root file lists them. */
export const INIT_KINDS = MANAGED_KINDS;
type InitKind = ManagedKind;

const KIND_TITLES: Record<InitKind, string> = {
  monitors: 'monitors',
  monitorGroups: 'monitor groups (and their members)',
  vault: 'vault sections and items',
  slas: 'SLAs (and exclusion periods)',
  scheduledReports: 'scheduled reports',
  alertDefinitions: 'alert definitions with their levels, members and integrations',
  operators: 'operators (people\'s accounts; passwords by reference)',
  operatorGroups: 'operator groups (members and authorizations)',
  rumWebsites: 'RUM websites (real user monitoring)',
};

/** Lines `init` makes sure the repository's .gitignore has. */
export const GITIGNORE_LINES = [
  'node_modules/',
  '# the emulator\'s state file holds vault secrets in clear (monsync emulator --state)',
  '.emulator.json',
] as const;

/** A folder that is, or is inside, a git work tree: where .github/ and .gitignore go. */
function repositoryRoot(start: string): string {
  let current = start;
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return start;
    current = parent;
  }
}

/** `--kinds monitors,vault`, checked against the known kinds. */
function parseKinds(text: string): InitKind[] {
  const kinds = text.split(',').map((kind) => kind.trim()).filter((kind) => kind !== '');
  for (const kind of kinds) {
    if (!(INIT_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kinds: '${kind}' is not a kind; the kinds are ${INIT_KINDS.join(', ')}`, 'init');
  }
  if (kinds.length === 0) throw new UsageError(`--kinds needs at least one of ${INIT_KINDS.join(', ')}`, 'init');
  return [...new Set(kinds)] as InitKind[];
}

/** On a terminal, one yes/no question per kind (Enter: yes). */
async function askKinds(io: CliIo & { prompt?(question: string): Promise<string> }): Promise<InitKind[]> {
  const lines = io.prompt === undefined ? createInterface({ input: process.stdin, output: process.stderr }) : undefined;
  const ask = io.prompt ?? ((question: string) => (lines as NonNullable<typeof lines>).question(question));
  try {
    io.stderr.write('Which kinds should this repository manage? (a kind left out is never read or changed)\n');
    const chosen: InitKind[] = [];
    for (const kind of INIT_KINDS) {
      const answer = (await ask(`  ${KIND_TITLES[kind]}? [Y/n] `)).trim().toLowerCase();
      if (answer === '' || answer === 'y' || answer === 'yes') chosen.push(kind);
    }
    if (chosen.length === 0) throw new CliError('INIT_NO_KINDS', 'no kind chosen, so there is nothing to manage; run monsync init again and answer yes to at least one');
    return chosen;
  } finally {
    lines?.close();
  }
}

function rootFile(kinds: readonly InitKind[], modeline: string): string {
  return [
    modeline,
    '#',
    '# The root of a monsync config tree: every *.yaml below this folder is read. camelCase keys are monsync\'s own,',
    '# PascalCase keys are Monitoring Service API fields, sent as written.',
    'apiVersion: monsync/v1',
    '',
    '# The kinds this tree is authoritative for; a kind missing here is never read or changed. prune: false lists',
    '# live objects no file declares as "unmanaged"; prune: true deletes them.',
    'manage:',
    ...kinds.map((kind) => `  ${kind}: { prune: false }`),
    '',
    '# A plan that deletes (updates) more than this share of the live objects of a kind, and at least minDeleteCount',
    '# (minUpdateCount) of them, or every one of a kind that had several, is unsafe: plan exits 3 and apply refuses it',
    '# without --allow-unsafe. Relation rows (memberships, accesses, duty schedules) have their own, under relations:.',
    'safety:',
    '  maxDeletePercent: 30',
    '  maxUpdatePercent: 50',
    '  minDeleteCount: 3',
    '  minUpdateCount: 10',
    '',
    '# An API field or enum value the published definition does not list is an error (a typo is not sent). When the',
    '# service has added one after this release of monsync, let it through here, in a change reviewers see:',
    '# allowUnknown:',
    '#   fields: { monitor: [NewField] }        # by object: monitor, errorCondition, sla, operator, ...',
    '#   values: { MonitorType: [NewType] }     # by field',
    '',
  ].join('\n');
}

/**
 * An example workflow with the action pinned to this release and the config folder of this repository. A build
 * that was never released (a checkout's 0.0.0, a prerelease) has no tag to pin: the example's own major tag stays.
 */
export function pinnedWorkflow(template: string, configPath: string, version = cliVersion()): string {
  const folder = configPath === '' ? '.' : configPath;
  const pinned = isReleasedVersion(version) ? template.replace(/uses: [\w.-]+\/monsync\/packages\/action@v\d+/g, `uses: ${ACTION_REPOSITORY}/packages/action@v${version}`) : template;
  return pinned
    .replace(/'configs\/\*\*'/g, folder === '.' ? "'**/*.yaml'" : `'${folder}/**'`)
    .replace(/config: configs\b/g, `config: ${folder}`);
}

/** The action reference a written workflow holds: `monsync/monsync/packages/action@v1.2.3`. */
function actionReference(workflow: string): string | undefined {
  return /uses: ([\w.-]+\/monsync\/packages\/action@\S+)/.exec(workflow)?.[1];
}

/** Said when the workflows could not be pinned to this version, and what to pin instead. */
function unreleasedNote(version: string, reference: string): string {
  return (
    `note: monsync ${version} is not a released version (a build from a checkout or a prerelease), so the workflows use ${reference}, ` +
    `which follows the latest release, instead of @v${version}, a tag that does not exist. ` +
    `To pin, replace it with a release tag (@vX.Y.Z, https://github.com/${ACTION_REPOSITORY}/releases) or that tag's commit SHA.\n`
  );
}

interface PlannedFile {
  path: string;
  content: string;
}

async function chooseKinds(context: CommandContext): Promise<InitKind[]> {
  const kinds = stringOption(context.values, 'kinds');
  if (kinds !== undefined) return parseKinds(kinds);
  if (context.io.isTTY) return askKinds(context.io);
  return [...INIT_KINDS];
}

export const initCommand: CommandSpec = {
  name: 'init',
  summary: 'start a config repository: monsync.yaml, the GitHub workflows, .gitignore lines (optionally pulled from the live account)',
  usage: 'init [--config DIR] [--kinds LIST] [--from-live] [--no-workflows] [--force] [--json]',
  description:
    'Writes DIR/monsync.yaml (DIR: --config, default configs), the three workflows of the GitHub Action\n' +
    `(.github/workflows/monsync-{plan,apply,drift}.yml, pinned to ${ACTION_REPOSITORY}/packages/action@v<this version>;\n` +
    'a build that was never released keeps the major tag, and says what to pin instead)\n' +
    'and the lines monsync needs in .gitignore, at the root of the git repository around the working directory.\n' +
    'On a terminal it asks which kinds to manage; elsewhere --kinds says (default: all). With --from-live, the live\n' +
    'account (MONSYNC_API_URL, MONSYNC_API_USERNAME, MONSYNC_API_PASSWORD) is pulled into DIR as with monsync pull.\n' +
    'Every YAML file starts with a yaml-language-server line, so editors complete and check it. An existing file is\n' +
    'never overwritten without --force (then nothing is written). With --json, stdout is one JSON document\n' +
    '(schemas/init.schema.json) and the rest goes to stderr. Exit 0 when done, 1 otherwise.',
  options: {
    kinds: { type: 'string', value: 'LIST', description: `kinds to manage, comma-separated: ${INIT_KINDS.join(', ')}` },
    'from-live': { type: 'boolean', description: 'pull the live account into the config folder (it must be empty or absent)' },
    'no-workflows': { type: 'boolean', description: 'do not write the GitHub workflows' },
    force: { type: 'boolean', description: 'overwrite files that exist' },
    json: jsonOption('init'),
  },
  examples: ['monsync init', 'monsync init --config monitoring --kinds monitors,monitorGroups,vault', 'monsync init --from-live'],
  async run(context) {
    const { io, values, global } = context;
    const cwd = resolve(io.cwd);
    const root = repositoryRoot(cwd);
    const dir = resolve(cwd, global.config ?? 'configs');
    const fromLive = booleanOption(values, 'from-live');
    const force = booleanOption(values, 'force');
    const json = booleanOption(values, 'json');
    // With --json, what is said for people goes to stderr: stdout holds the document alone.
    const say = json ? io.stderr : io.stdout;
    if (fromLive && stringOption(values, 'kinds') !== undefined) throw new UsageError('--from-live writes the kinds the account has; leave out --kinds', 'init');
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError('INIT_TARGET_NOT_A_FOLDER', `${displayPath(cwd, dir)} is a file; pass a folder with --config`);

    const files: PlannedFile[] = [];
    const configPath = relative(root, dir).split('\\').join('/');
    const workflows = !booleanOption(values, 'no-workflows');
    if (workflows) {
      for (const [name, template] of Object.entries(workflowTemplates())) {
        files.push({ path: join(root, '.github', 'workflows', name), content: pinnedWorkflow(template, configPath) });
      }
    }
    const kinds = fromLive ? [] : await chooseKinds(context);
    if (!fromLive) files.push({ path: join(dir, 'monsync.yaml'), content: rootFile(kinds, schemaModeline(dir)) });

    const existing = files.filter((file) => existsSync(file.path));
    if (existing.length > 0 && !force) {
      throw new CliError('INIT_FILE_EXISTS', `${existing.map((file) => displayPath(cwd, file.path)).join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written. Pass --force to overwrite.`);
    }
    if (fromLive && existsSync(dir) && readdirSync(dir).length > 0) {
      throw new CliError('INIT_TARGET_NOT_EMPTY', `${displayPath(cwd, dir)} is not empty; --from-live pulls the account into a new or empty folder`);
    }
    if (fromLive) {
      const { pullCommand } = await import('./pull.js');
      const pulled = await pullCommand.run({ io: json ? { ...io, stdout: io.stderr } : io, values: { out: dir }, positionals: [], global });
      if (pulled !== ExitCode.Ok) return pulled;
    }
    for (const file of files) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.content);
      say.write(`wrote ${displayPath(cwd, file.path)}\n`);
    }
    const added = ensureGitignore(join(root, '.gitignore'));
    if (added > 0) say.write(`added ${added} line${added === 1 ? '' : 's'} to ${displayPath(cwd, join(root, '.gitignore'))}\n`);
    const reference = workflows ? actionReference(files[0]?.content ?? '') : undefined;
    if (reference !== undefined && !isReleasedVersion(cliVersion())) io.stderr.write(unreleasedNote(cliVersion(), reference));
    // A pulled tree may manage any kind; a chosen one needs the API account's operator for these.
    const operatorMatters = fromLive || kinds.some((kind) => OPERATOR_KINDS.includes(kind));
    say.write(nextSteps(displayPath(cwd, dir), workflows, operatorMatters));
    if (json) {
      const result: InitResult = {
        formatVersion: OUTPUT_FORMAT_VERSION,
        config: displayPath(cwd, dir),
        fromLive,
        kinds: [...kinds],
        files: files.map((file) => displayPath(cwd, file.path)),
        gitignoreLinesAdded: added,
      };
      io.stdout.write(jsonDocument(result));
    }
    return ExitCode.Ok;
  },
};

/** Appends the lines .gitignore lacks (never rewrites it); returns how many were added. */
function ensureGitignore(path: string): number {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = GITIGNORE_LINES.filter((line) => !present.has(line));
  const entries = missing.filter((line) => !line.startsWith('#'));
  if (entries.length === 0) return 0;
  appendFileSync(path, `${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  return entries.length;
}

/**
 * The kinds whose plans use the API account's operator: monitors record who changed them (drift), a vault section's
 * access and the people kinds are guarded against monsync locking itself out.
 */
const OPERATOR_KINDS: readonly InitKind[] = ['monitors', 'vault', 'operators', 'operatorGroups'];

/**
 * What to do after `init`; the workflows' secrets are named only when the workflows were written, and the API
 * account's operator only when a managed kind uses it.
 */
function nextSteps(label: string, workflows: boolean, operatorMatters: boolean): string {
  const operator = operatorMatters
    ? [
        "  # monsync's first apply has the service record which operator the API account acts for (a vault section named",
        `  # "monsync API account (do not edit)"); if it may not create vault sections, or plan and apply use API accounts`,
        `  # of different operators, name them in ${label}/monsync.yaml: apiOperator: <Email or OperatorGuid>, ...`,
      ]
    : [];
  return [
    '',
    'Next:',
    `  monsync validate --config ${label}                 # offline: schema, references, secrets by reference`,
    '  export MONSYNC_API_URL=... MONSYNC_API_USERNAME=... MONSYNC_API_PASSWORD=...',
    `  monsync plan --config ${label}                     # what apply would change`,
    ...operator,
    workflows ? '  Add the secrets the workflows name (Settings > Secrets and variables > Actions) and commit.' : '  Commit the tree.',
    '',
  ].join('\n');
}
