import { hostname, userInfo } from 'node:os';
import { acquireApplyLock, describeHolder, lockOwner, type ApplyLock, type HeldLock, type LockClient, type LockOwner } from '@monsync/reconciler';
import { UsageError } from './errors.js';
import { isInteractive, type CliIo, type Style } from './io.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `30s`, `5m`, `1h`, `500ms`, or `0`: a length of time in milliseconds. */
export function parseDuration(raw: string, option: string, command: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const unit = match?.[2] ?? (match?.[1] !== undefined && Number(match[1]) === 0 ? 's' : undefined);
  if (match === null || unit === undefined) {
    throw new UsageError(`option ${option}: '${raw}' is not a length of time; write it with a unit, e.g. 30s, 5m or 1h (0 gives up at once)`, command);
  }
  return Math.round(Number(match[1]) * (UNITS[unit] ?? 1_000));
}

/** Who this process is, as the lock records it: host, local user, MONSYNC_OPERATOR, the CI run's address. */
export function processOwner(env: Readonly<Record<string, string | undefined>>): LockOwner {
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the record names the host only.
    user = env['USER'];
  }
  return lockOwner(env, { host: hostname(), ...(user === undefined ? {} : { user }) });
}

/**
 * Takes the apply lock, telling the user whom it waits for: on a terminal one rewritten line, elsewhere a line
 * each time the holder changes.
 */
export async function takeApplyLock(io: CliIo, s: Style, client: LockClient, timeoutMs: number, signal: AbortSignal | undefined): Promise<ApplyLock> {
  const live = isInteractive(io);
  let shown: string | undefined;
  let drawn = false;
  const onWait = (holder: HeldLock, waitedMs: number) => {
    const text = `waiting for the apply lock, held by ${describeHolder(holder)} (${Math.round(waitedMs / 1000)}s of ${Math.round(timeoutMs / 1000)}s)`;
    if (live) {
      io.stderr.write(`\r\u001b[K${s.yellow(text)}`);
      drawn = true;
    } else if (shown !== holder.guid) {
      io.stderr.write(`${s.yellow(text)}\n`);
    }
    shown = holder.guid;
  };
  try {
    const lock = await acquireApplyLock(client, {
      owner: processOwner(io.env),
      timeoutMs,
      onWait,
      onRenewFailed: (error) => io.stderr.write(s.yellow(`warning: renewing the apply lock's lease failed (${error instanceof Error ? error.message : String(error)}); trying again later`) + '\n'),
      ...(signal === undefined ? {} : { signal }),
    });
    if (drawn) io.stderr.write('\r\u001b[K');
    if (shown !== undefined) io.stderr.write('apply lock taken: the other apply is done\n');
    return lock;
  } catch (error) {
    if (drawn) io.stderr.write('\r\u001b[K\n');
    throw error;
  }
}
