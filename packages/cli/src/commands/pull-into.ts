import { jsonDocument } from '../io.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkedClientOptions, hasChanges, olderAlertDefinitions, openSession, planPipeline, pulledTree, pullInto, readAlertDefinitionChildren, type Plan, type UnreadSettings } from '@monsync/reconciler';
import { ALERT_DEFINITION_KIND, readConfigTree, hasErrors, isPolicyFinding, loadConfigTexts } from '@monsync/schema';
import { OUTPUT_FORMAT_VERSION, type PullResult } from '@monsync/schema';
import { booleanOption } from '../args.js';
import type { CommandContext } from '../command.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { displayPath, loadTree, printDiagnostics } from '../load.js';
import { plainText } from '@monsync/reconciler/escape';
import { combineHooks, hookRelay, readProgress, readUnder, verboseHooks } from '../request-log.js';
import { writeSecretPlaceholders, writeUnreadSettings } from '../secret-placeholders.js';

/** Where `pull --into` writes objects made in the live account outside git, unless `--new-objects-file` says otherwise. */
export const DEFAULT_NEW_OBJECTS_FILE = 'new-objects.yaml';

export function relativeFile(io: CommandContext['io'], dir: string, file: string, option = '--new-objects-file'): string {
  const path = resolve(io.cwd, file);
  const rel = displayPath(dir, path);
  if (rel.startsWith('/') || rel.startsWith('..') || !rel.endsWith('.yaml')) {
    throw new CliError('PULL_NEW_OBJECTS_FILE', `${option} ${file}: give a .yaml file inside the tree (${displayPath(io.cwd, dir)}), where monsync reads it`);
  }
  return rel.split('\\').join('/');
}

/** The steps a plan of the edited tree still has: what pull could not write (secrets, objects it could not place). */
function remaining(plan: Plan): string[] {
  return plan.steps.filter((step) => step.action !== 'ensure').map((step) => `${step.action} ${step.kind} ${JSON.stringify(step.key)}`);
}

/**
 * The tree planned against the account as plan does, and how to open a session on an edited tree. The read also
 * takes what writing alert definitions whole needs (`readAlertDefinitionChildren`): with `older`, those the tree
 * declares in the older form; `whole`, those of the plan the caller writes into the tree (GUIDs).
 */
export async function planForPull(context: CommandContext, dir: string, options: { older?: boolean; whole?: (plan: Plan) => Iterable<string> } = {}) {
  const { io, global } = context;
  const relay = hookRelay();
  const open = (desired: Parameters<typeof openSession>[0]) =>
    openSession(desired, {
      client: checkedClientOptions(io.env, relay.client),
      fingerprintKey: io.env['MONSYNC_FINGERPRINT_KEY'],
      operator: io.env['MONSYNC_OPERATOR'],
    });
  const result = await planPipeline(
    { load: async () => (await loadTree(dir, io, { needSecrets: true })).desired, open },
    {
      around: (read, session) => {
        const progress = readProgress(io, 'reading live account');
        relay.listen(combineHooks(progress, global.verbose ? verboseHooks(io) : undefined));
        return readUnder(progress, 'reading live account', read, session.close);
      },
    },
  );
  if (result === undefined) return undefined;
  let live = result.live;
  const older = options.older === true ? olderAlertDefinitions(result.session.desired) : new Set<string>();
  const whole = new Set([...older, ...[...(options.whole?.(result.plan) ?? [])].map((guid) => guid.toLowerCase())]);
  try {
    if (whole.size > 0) live = await readAlertDefinitionChildren(result.session.client, live, whole);
  } finally {
    await result.session.close();
  }
  return { live, plan: result.plan, open, older: older.size };
}

type Planned = NonNullable<Awaited<ReturnType<typeof planForPull>>>;

/**
 * Writes what `plan` says differs into the tree's files in place (`pullInto`), after checking that the edited tree
 * validates (otherwise nothing is written), and plans the edited tree again against the same read: what is left is
 * what pull cannot write. `plan` is the plan pulled from: the whole one (pull --into) or the chosen objects (import).
 */
export async function writeIntoTree(io: CommandContext['io'], dir: string, planned: Planned, plan: Plan, target: string, what: string): Promise<TreeWritten> {
  const label = displayPath(io.cwd, dir);
  const pulled = pulledTree(planned.live);
  const files = readConfigTree(dir).texts.map(({ file, text }) => ({ path: file, text }));
  // Only pull --into read what rewriting older alert definitions needs (an import writes just the chosen objects).
  const edited = pullInto({ files, plan, pulled: pulled.data, newObjectsFile: target, ...(planned.older > 0 ? { alertDefinitionsByGuid: pulled.alertDefinitionsByGuid } : {}) });
  const texts = new Map(files.map((file) => [file.path, file.text]));
  for (const file of edited.files) texts.set(file.path, file.text);
  const reloaded = loadConfigTexts(dir, [...texts].map(([file, text]) => ({ file, text })), { env: io.env, resolveSecrets: false });
  // The account may break the team's policy: that is for validate and plan to say, not a reason to keep it out of the tree.
  const faults = reloaded.diagnostics.filter((d) => !isPolicyFinding(d));
  if (hasErrors(faults)) {
    printDiagnostics(io, label, faults.filter((d) => d.severity === 'error'), reloaded.sources);
    throw new CliError('PULL_INTO_INVALID', `the edited tree would not validate (above); nothing was written to ${label}. Please report this, with the plan (monsync plan --format json)`);
  }
  for (const file of edited.files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.text);
  }
  io.stdout.write(`Wrote ${what} into ${label} (${edited.files.map((file) => `${plainText(file.path)}${file.created ? ' (new)' : ''}`).join(', ') || 'no file'}):\n`);
  for (const edit of edited.edits) io.stdout.write(`  ${plainText(edit)}\n`);
  for (const note of [...edited.notes, ...pulled.notes]) io.stdout.write(`note: ${plainText(note)}\n`);
  const written = edited.files.map((file) => file.text).join('\n');
  const secrets = pulled.secrets.filter((secret) => new RegExp(`fromEnv: ${secret.env}\\b`).test(written));
  writeSecretPlaceholders(io, secrets);
  const unread = unreadWritten(pulled.unread, edited.written);
  writeUnreadSettings(io, unread);
  // The same read, planned again from the edited tree: what is left is what pull cannot write (secrets, above).
  let left: string[] = [];
  try {
    const again = planned.open(reloaded.desired);
    left = remaining(again.plan(planned.live));
    await again.close();
  } catch {
    left = ['(a secret of the edited tree cannot be read yet: set the variables above, then run monsync plan)'];
  }
  if (left.length > 0) io.stdout.write(`\nThe tree still differs from the live account in what pull cannot write:\n${left.map((line) => `  ${plainText(line)}\n`).join('')}`);
  else io.stdout.write(`\nThe tree now plans no changes against the live account.\n`);
  return {
    config: label,
    files: edited.files.map((file) => ({ path: file.path, created: file.created })),
    edits: edited.edits,
    notes: [...edited.notes, ...pulled.notes],
    secrets: secrets.map(({ env, where }) => ({ env, where })),
    remaining: left,
    unread: unread.map(({ where, fields }) => ({ where, fields })),
  };
}

/** The unread settings of the integrations the edits wrote whole: in a definition written whole, or attached in the web app. */
function unreadWritten(unread: readonly UnreadSettings[], written: readonly { kind: string; key: string }[]): UnreadSettings[] {
  return unread.filter((entry) => written.some(({ kind, key }) => (kind === entry.kind && key === entry.key) || (kind === entry.definitionKind && entry.key.startsWith(`${key}/`))));
}

/** What a pull or an import wrote: `--json` prints it (schemas/pull.schema.json). */
export type TreeWritten = Omit<PullResult, 'formatVersion' | 'command'>;

/**
 * Runs `write` with the text for people on stdout, or, with `--json`, on stderr and the result as one JSON document
 * on stdout (schemas/pull.schema.json).
 */
export async function withPullResult(context: CommandContext, command: PullResult['command'], write: (io: CommandContext['io']) => Promise<TreeWritten | number>): Promise<number> {
  const { io, values } = context;
  if (!booleanOption(values, 'json')) {
    const done = await write(io);
    return typeof done === 'number' ? done : ExitCode.Ok;
  }
  const done = await write({ ...io, stdout: io.stderr });
  if (typeof done === 'number') return done;
  const result: PullResult = { formatVersion: OUTPUT_FORMAT_VERSION, command, ...done };
  io.stdout.write(jsonDocument(result));
  return ExitCode.Ok;
}

/**
 * `monsync pull --into DIR`: plans the tree against the account, writes what differs into the tree's files in place
 * (`pullInto`), and plans the edited tree again against the same read before writing anything, so the files change
 * only when the result is a valid tree.
 */
export async function runPullInto(context: CommandContext, into: string, newObjectsFile: string | undefined): Promise<number> {
  const dir = resolve(context.io.cwd, into);
  const target = relativeFile(context.io, dir, newObjectsFile ?? join(dir, DEFAULT_NEW_OBJECTS_FILE));
  return withPullResult(context, 'pull --into', async (io) => {
    // Alert definitions only in the account that the tree would delete (prune: true) are added whole.
    const added = (plan: Plan) => plan.steps.flatMap((step) => (step.action === 'delete' && step.kind === ALERT_DEFINITION_KIND.kind && step.guid !== undefined ? [step.guid] : []));
    const planned = await planForPull({ ...context, io }, dir, { older: true, whole: added });
    if (planned === undefined) return ExitCode.Error;
    if (!hasChanges(planned.plan) && planned.older === 0) {
      const config = displayPath(io.cwd, dir);
      io.stdout.write(`${config} already matches the live account: nothing to write\n`);
      return { config, files: [], edits: [], notes: [], secrets: [], remaining: [] };
    }
    return writeIntoTree(io, dir, planned, planned.plan, target, "the live account's changes");
  });
}
