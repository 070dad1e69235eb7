import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkedClientOptions, hasChanges, openSession, planPipeline, pulledTree, pullInto, type Plan } from '@monsync/reconciler';
import { readConfigTree, hasErrors, isPolicyFinding, loadConfigTexts } from '@monsync/schema';
import type { CommandContext } from '../command.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { displayPath, loadTree, printDiagnostics } from '../load.js';
import { plainName, plainText } from '@monsync/reconciler/escape';
import { combineHooks, hookRelay, readProgress, readUnder, verboseHooks } from '../request-log.js';
import { writeSecretPlaceholders } from '../secret-placeholders.js';

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

/** The tree planned against the account as plan does, and how to open a session on an edited tree. */
export async function planForPull(context: CommandContext, dir: string) {
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
  await result.session.close();
  return { live: result.live, plan: result.plan, open };
}

type Planned = NonNullable<Awaited<ReturnType<typeof planForPull>>>;

/**
 * Writes what `plan` says differs into the tree's files in place (`pullInto`), after checking that the edited tree
 * validates (otherwise nothing is written), and plans the edited tree again against the same read: what is left is
 * what pull cannot write. `plan` is the plan pulled from: the whole one (pull --into) or the chosen objects (import).
 */
export async function writeIntoTree(io: CommandContext['io'], dir: string, planned: Planned, plan: Plan, target: string, what: string): Promise<number> {
  const label = displayPath(io.cwd, dir);
  const pulled = pulledTree(planned.live);
  const files = readConfigTree(dir).texts.map(({ file, text }) => ({ path: file, text }));
  const edited = pullInto({ files, plan, pulled: pulled.data, newObjectsFile: target });
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
  io.stdout.write(`Wrote ${what} into ${label} (${edited.files.map((file) => `${plainName(file.path)}${file.created ? ' (new)' : ''}`).join(', ') || 'no file'}):\n`);
  for (const edit of edited.edits) io.stdout.write(`  ${plainText(edit)}\n`);
  for (const note of [...edited.notes, ...pulled.notes]) io.stdout.write(`note: ${plainText(note)}\n`);
  const written = edited.files.map((file) => file.text).join('\n');
  writeSecretPlaceholders(io, pulled.secrets.filter((secret) => new RegExp(`fromEnv: ${secret.env}\\b`).test(written)));
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
  return ExitCode.Ok;
}

/**
 * `monsync pull --into DIR`: plans the tree against the account, writes what differs into the tree's files in place
 * (`pullInto`), and plans the edited tree again against the same read before writing anything, so the files change
 * only when the result is a valid tree.
 */
export async function runPullInto(context: CommandContext, into: string, newObjectsFile: string | undefined): Promise<number> {
  const { io } = context;
  const dir = resolve(io.cwd, into);
  const target = relativeFile(io, dir, newObjectsFile ?? join(dir, DEFAULT_NEW_OBJECTS_FILE));
  const planned = await planForPull(context, dir);
  if (planned === undefined) return ExitCode.Error;
  if (!hasChanges(planned.plan)) {
    io.stdout.write(`${displayPath(io.cwd, dir)} already matches the live account: nothing to write\n`);
    return ExitCode.Ok;
  }
  return writeIntoTree(io, dir, planned, planned.plan, target, "the live account's changes");
}
