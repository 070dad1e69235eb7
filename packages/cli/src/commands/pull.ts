import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkedClientOptions, PULLED_KINDS, pulledTree, readLive } from '@monsync/reconciler';
import { createClient } from '@monsync/client';
import { jsonOption, stringOption } from '../args.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import { writeSecretPlaceholders, writeUnreadSettings } from '../secret-placeholders.js';
import { displayPath } from '../load.js';
import { plainText } from '@monsync/reconciler/escape';
import { schemaReference } from '../schema-reference.js';
import { DEFAULT_NEW_OBJECTS_FILE, runPullInto, withPullResult, type TreeWritten } from './pull-into.js';
import { combineHooks, hookRelay, readProgress, readUnder, verboseHooks } from '../request-log.js';

export const pullCommand: CommandSpec = {
  name: 'pull',
  summary: 'write the live account as a new config tree, or into an existing one in place (--into)',
  usage: 'pull --out DIR | pull --into DIR [--new-objects-file FILE] [--json]',
  description:
    'Reads monitors, monitor groups and their members, the vault, SLAs with exclusion periods, scheduled reports,\n' +
    'alert definitions (by AlertName, with the monitors and groups they cover and their escalation levels, each\n' +
    'with its operators, operator groups and integrations), and operators and operator groups with their members,\n' +
    'authorizations and duty schedules, and writes them to DIR (which must be empty or absent). The tree validates,\n' +
    'and planning it against the same account shows no changes apart from secrets: the API never returns them, so\n' +
    'each is written as a { fromEnv: ... } placeholder, listed at the end. An attached integration\'s IsActive,\n' +
    'SendOkAlerts and SendReminderAlerts are never returned either: they are left out and listed, not guessed.\n' +
    'Reports keep their monsync:key marker as key.\n' +
    'With --into DIR, the live account is written into an existing tree in place, to accept changes made in the\n' +
    'web app: only the fields that differ are edited (comments, key order and layout stay); declarations of objects\n' +
    'gone from the account are removed with the comment lines above them; objects made outside git that the tree\n' +
    'would delete (prune: true) are added, children to their parent\'s declaration and the rest to the new-objects\n' +
    `file (default ${DEFAULT_NEW_OBJECTS_FILE} at the root of DIR). Secrets stay references: a changed secret is\n` +
    'listed, never written. It reads the tree (and its secrets) as plan does, and writes nothing unless the edited\n' +
    'tree validates; afterwards monsync plan shows no changes.',
  options: {
    out: { type: 'string', value: 'DIR', description: 'folder to write a new tree to (created; must be empty)' },
    into: { type: 'string', value: 'DIR', description: 'existing tree (the folder of monsync.yaml) to write the live values into, in place' },
    'new-objects-file': { type: 'string', value: 'FILE', description: `with --into: the .yaml file in the tree that takes new live objects (default DIR/${DEFAULT_NEW_OBJECTS_FILE})` },
    json: jsonOption('pull'),
  },
  examples: ['monsync pull --out configs', 'monsync pull --into configs', 'monsync pull --into configs --new-objects-file configs/monitors/from-web-app.yaml'],
  async run(context) {
    const { io, values } = context;
    const out = stringOption(values, 'out');
    const into = stringOption(values, 'into');
    if (out !== undefined && into !== undefined) throw new UsageError('pull takes --out DIR (a new tree) or --into DIR (an existing one), not both', 'pull');
    if (into !== undefined) return runPullInto(context, into, stringOption(values, 'new-objects-file'));
    if (stringOption(values, 'new-objects-file') !== undefined) throw new UsageError('--new-objects-file goes with --into DIR', 'pull');
    if (out === undefined) throw new UsageError('pull needs --out DIR (a new tree) or --into DIR (an existing tree to update in place)', 'pull');
    return withPullResult(context, 'pull', (human) => pullOut({ ...context, io: human }, resolve(io.cwd, out)));
  },
};

/** `pull --out DIR`: the live account as a new tree. */
async function pullOut(context: CommandContext, dir: string): Promise<TreeWritten> {
  const { io, global } = context;
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new CliError('PULL_TARGET_NOT_A_FOLDER', `${displayPath(io.cwd, dir)} is a file, not a folder; give pull a new or empty folder`);
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new CliError('PULL_TARGET_NOT_EMPTY', `${displayPath(io.cwd, dir)} is not empty; pull writes a fresh tree, so give it a new or empty folder`);
  }
  // The client first: a missing or bad variable is reported before the read is announced.
  const relay = hookRelay();
  const client = createClient(checkedClientOptions(io.env, relay.client));
  const progress = readProgress(io, 'reading live account');
  relay.listen(combineHooks(progress, global.verbose ? verboseHooks(io) : undefined));
  // Once: a failed read closes the client early, and a second close of a closed client throws.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= client.close());
  let live;
  try {
    // Outgoing phone numbers too: an operator's is written by its number, not its id.
    // Integrations too: a level attaches one by its name.
    const read = () => readLive(client, { kinds: [...PULLED_KINDS], operators: false, outgoingPhoneNumbers: true, integrations: true });
    live = await readUnder(progress, 'reading live account', read, close);
  } finally {
    await close();
  }
  const tree = pulledTree(live, { schemaPath: schemaReference(dir) });
  mkdirSync(dir, { recursive: true });
  for (const file of tree.files) writeFileSync(join(dir, file.path), file.content);
  const label = displayPath(io.cwd, dir);
  io.stdout.write(`Wrote ${tree.files.length} files to ${label}: ${tree.files.map((file) => plainText(file.path)).join(', ')}\n`);
  for (const note of tree.notes) io.stdout.write(`note: ${plainText(note)}\n`);
  writeSecretPlaceholders(io, tree.secrets);
  writeUnreadSettings(io, tree.unread);
  return {
    config: label,
    files: tree.files.map((file) => ({ path: file.path, created: true })),
    edits: [],
    notes: tree.notes,
    secrets: tree.secrets.map(({ env, where }) => ({ env, where })),
    remaining: [],
    unread: tree.unread.map(({ where, fields }) => ({ where, fields })),
  };
}
