import { createClient } from '@monsync/client';
import { breakApplyLock, checkedClientOptions, describeHolder, isExpired, listApplyLocks, type HeldLock } from '@monsync/reconciler';
import { booleanOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import { CliError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { style, useColor } from '../io.js';
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

export const unlockCommand: CommandSpec = {
  name: 'unlock',
  summary: 'break the apply lock left by an apply that stopped without releasing it (as terraform force-unlock)',
  usage: 'unlock [GUID] [--force]',
  description:
    'monsync apply holds a lock in the account while it writes (an SLA named "monsync:lock ..."), renewing its lease\n' +
    'as it runs. An apply that crashed or was killed leaves it behind, and the next apply stops, naming it. unlock\n' +
    'removes it once its lease has run out; a lock within its lease belongs to an apply that may still be running,\n' +
    'and is refused. GUID names the lock (as the messages of apply show it); without it, the only lock is taken.\n' +
    'On a terminal unlock asks first; elsewhere --force is required.\n' +
    'Environment: MONSYNC_API_URL, MONSYNC_API_USERNAME, MONSYNC_API_PASSWORD (required).\n' +
    'Exit codes: 0 broken (or no lock held), 1 error, refused or not confirmed.',
  options: {
    force: { type: 'boolean', description: 'break the lock without asking (required when not on a terminal)' },
  },
  positionals: { min: 0, max: 1, names: 'GUID' },
  examples: ['monsync unlock', 'monsync unlock 5d1f0c1e-7a9b-4c8e-9f55-0b7d2a8c1e3f --force'],
  async run({ io, values, positionals, global }) {
    const s = style(useColor(io));
    const force = booleanOption(values, 'force');
    const relay = hookRelay();
    const client = createClient(checkedClientOptions(io.env, relay.client));
    relay.listen(global.verbose ? verboseHooks(io) : undefined);
    try {
      const locks = await listApplyLocks(client);
      if (locks.length === 0) {
        io.stdout.write('No apply lock is held: there is nothing to unlock.\n');
        return ExitCode.Ok;
      }
      const lock = chooseLock(locks, positionals[0]);
      if (!isExpired(lock, new Date())) {
        io.stderr.write(
          s.red(`unlock refused: the apply lock ${lock.guid} is held by ${describeHolder(lock)}, and its lease has not run out, so that apply may still be running.`) +
            `\nLet it finish, or stop it; once its lease has run out, monsync unlock ${lock.guid} breaks the lock.\n`,
        );
        return ExitCode.Error;
      }
      if (!force) {
        if (!io.isTTY) {
          io.stderr.write(s.red(`monsync unlock: not on a terminal, so there is nobody to confirm; pass --force to break the apply lock ${lock.guid}.`) + '\n');
          return ExitCode.Error;
        }
        const answer = await ask(io as PromptingIo, `Break the apply lock ${lock.guid}, held by ${describeHolder(lock)}?\nDo it only when that apply is no longer running. Only 'yes' is accepted: `);
        if (answer.trim() !== 'yes') {
          io.stderr.write('Unlock cancelled; the lock stays.\n');
          return ExitCode.Error;
        }
      }
      await breakApplyLock(client, lock.guid);
      io.stdout.write(`Apply lock ${lock.guid} broken (it was held by ${describeHolder(lock)}).\n`);
      return ExitCode.Ok;
    } finally {
      await client.close();
    }
  },
};
