import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkedClientOptions, readLive } from '@monsync/reconciler';
import { createClient } from '@monsync/client';
import { stringOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writeSecretPlaceholders } from '../secret-placeholders.js';
import { displayPath } from '../load.js';
import { PULLED_KINDS, pulledTree } from '../pull-tree.js';
import { schemaReference } from '../schema-reference.js';
import { combineHooks, hookRelay, readProgress, readUnder, verboseHooks } from '../request-log.js';

export const pullCommand: CommandSpec = {
  name: 'pull',
  summary: 'write the live account as a new config tree (one file per kind), to start managing it',
  usage: 'pull --out DIR',
  description:
    'Reads monitors, monitor groups and their members, the vault, SLAs with exclusion periods and scheduled\n' +
    'reports, and writes them to DIR (which must be empty or absent). The tree validates, and planning it against\n' +
    'the same account shows no changes apart from secrets: the API never returns them, so each is written as a\n' +
    '{ fromEnv: ... } placeholder, listed at the end. Reports keep their monsync:key marker as key.',
  options: {
    out: { type: 'string', value: 'DIR', description: 'folder to write the tree to (created; must be empty)' },
  },
  examples: ['monsync pull --out configs'],
  async run({ io, values, global }) {
    const out = stringOption(values, 'out');
    if (out === undefined) throw new UsageError('pull needs --out DIR: the folder to write the tree to', 'pull');
    const dir = resolve(io.cwd, out);
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
      const read = () => readLive(client, { kinds: [...PULLED_KINDS], operators: false });
      live = await readUnder(progress, 'reading live account', read, close);
    } finally {
      await close();
    }
    const tree = pulledTree(live, { schemaPath: schemaReference(dir) });
    mkdirSync(dir, { recursive: true });
    for (const file of tree.files) writeFileSync(join(dir, file.path), file.content);
    const label = displayPath(io.cwd, dir);
    io.stdout.write(`Wrote ${tree.files.length} files to ${label}: ${tree.files.map((file) => file.path).join(', ')}\n`);
    for (const note of tree.notes) io.stdout.write(`note: ${note}\n`);
    writeSecretPlaceholders(io, tree.secrets);
    return ExitCode.Ok;
  },
};
