import { createClient } from '@monsync/client';
import { breakApplyLock, checkedClientOptions, describeHolder, isExpired, listApplyLocks, type HeldLock } from '@monsync/reconciler';
import { OUTPUT_FORMAT_VERSION, type UnlockResult } from '@monsync/schema';
import { booleanOption, jsonOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { jsonDocument, style, useColor } from '../io.js';
import { hookRelay, verboseHooks } from '../request-log.js';
import { ask, type PromptingIo } from './apply.js';

function listed(locks: readonly HeldLock[]): string {
  return locks.map((lock) => `  ${lock.guid}: ${describeHolder(lock)}`).join('\n');
}

/** The lock named on the command line (its GUID or id), or the only one there is. */
function chooseLock(locks: readonly HeldLock[], wanted: string | undefined): HeldLock {
  if (wanted === undefined) {
    const [only] = locks;
    if (locks.length === 1 && only !== undefined) return only;
    throw new CliError('LOCK_AMBIGUOUS', `${locks.length} apply locks are in the account; name the one to break (monsync unlock GUID):\n${listed(locks)}`);
  }
  const match = locks.find((lock) => lock.guid.toLowerCase() === wanted.toLowerCase() || lock.id === wanted);
  if (match === undefined) throw new CliError('LOCK_NOT_FOUND', `no apply lock ${wanted} is in the account; the apply locks there are:\n${listed(locks)}`);
  return match;
}

/** What `--json` prints: the outcome, and the lock it was about (schemas/unlock.schema.json). */
function jsonResult(outcome: UnlockResult['outcome'], lock?: HeldLock, leaseRunning = false): string {
  const document: UnlockResult = { formatVersion: OUTPUT_FORMAT_VERSION, outcome, ...(lock === undefined ? {} : { lock: { guid: lock.guid, holder: describeHolder(lock), leaseRunning } }) };
  return jsonDocument(document);
}

export const unlockCommand: CommandSpec = {
  name: 'unlock',
  summary: 'break the apply lock left by an apply that stopped without releasing it (as terraform force-unlock)',
  usage: 'unlock [GUID] [--force] [--json]',
  description:
    'monsync apply holds a lock in the account while it writes (an SLA named "monsync apply lock (do not edit) ..."),\n' +
    'renewing its lease as it runs, and releases it when it ends, Ctrl-C and SIGTERM included. An apply that crashed or\n' +
    'was killed leaves it behind: the next apply waits for it, and once its lease has run out stops, naming it. unlock\n' +
    'names the holder and removes the lock, within its lease too (that apply may still be running: make sure it is\n' +
    'not). GUID names the lock (as the messages of apply show it); without it, the only lock is taken.\n' +
    'On a terminal unlock asks first; elsewhere --force is required. With --json, stdout is one JSON document\n' +
    '(schemas/unlock.schema.json): the outcome and the lock.\n' +
    'Environment: MONSYNC_API_URL, MONSYNC_API_USERNAME, MONSYNC_API_PASSWORD (required).\n' +
    'Exit codes: 0 broken (or no lock held), 1 error, refused or not confirmed.',
  options: {
    force: { type: 'boolean', description: 'break the lock without asking, within its lease too (required when not on a terminal)' },
    json: jsonOption('unlock'),
  },
  positionals: { min: 0, max: 1, names: 'GUID' },
  examples: ['monsync unlock', 'monsync unlock 5d1f0c1e-7a9b-4c8e-9f55-0b7d2a8c1e3f --force'],
  async run({ io, values, positionals, global }) {
    const s = style(useColor(io));
    const force = booleanOption(values, 'force');
    const json = booleanOption(values, 'json');
    // With --json, what is said for people goes to stderr: stdout holds the document alone.
    const say = json ? io.stderr : io.stdout;
    const relay = hookRelay();
    const client = createClient(checkedClientOptions(io.env, relay.client));
    relay.listen(global.verbose ? verboseHooks(io) : undefined);
    try {
      const locks = await listApplyLocks(client);
      if (locks.length === 0) {
        say.write('No apply lock is held: there is nothing to unlock.\n');
        if (json) io.stdout.write(jsonResult('none-held'));
        return ExitCode.Ok;
      }
      const lock = chooseLock(locks, positionals[0]);
      // Within its lease the holder may still be writing: breaking it is then the user's call, made knowingly.
      const running = !isExpired(lock, new Date());
      const risk = running ? `Its lease has not run out, so that apply may still be running: breaking the lock lets another apply write at the same time.\n` : '';
      if (!force) {
        if (!io.isTTY) {
          const why = running ? `the apply lock ${lock.guid} is held by ${describeHolder(lock)}, and its lease has not run out, so that apply may still be running. ` : '';
          io.stderr.write(s.red(`monsync unlock: ${why}${why === '' ? 'not' : 'Not'} on a terminal, so there is nobody to confirm; pass --force to break the apply lock ${lock.guid}.`) + '\n');
          if (json) io.stdout.write(jsonResult('refused', lock, running));
          return ExitCode.Error;
        }
        const answer = await ask(io as PromptingIo, `Break the apply lock ${lock.guid}, held by ${describeHolder(lock)}?\n${risk}Do it only when that apply is no longer running. Only 'yes' is accepted: `);
        if (answer.trim() !== 'yes') {
          io.stderr.write('Unlock cancelled; the lock stays.\n');
          if (json) io.stdout.write(jsonResult('cancelled', lock, running));
          return ExitCode.Error;
        }
      } else if (running) {
        io.stderr.write(s.yellow(`warning: the apply lock ${lock.guid} is within its lease (held by ${describeHolder(lock)}); breaking it as --force says. If that apply is still running, stop it.`) + '\n');
      }
      await breakApplyLock(client, lock.guid);
      say.write(`Apply lock ${lock.guid} broken (it was held by ${describeHolder(lock)}).\n`);
      if (json) io.stdout.write(jsonResult('broken', lock, running));
      return ExitCode.Ok;
    } finally {
      await client.close();
    }
  },
};
