import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** What `readBounded` found: the bytes, or why none were read. */
export type BoundedRead =
  | { bytes: Buffer }
  | { refused: 'not-regular'; what: string }
  | { refused: 'too-large'; size: number }
  | { refused: 'unreadable'; code: string };

/** `a folder`, `a named pipe (FIFO)`, ...: what a path that is not a regular file is, for messages. */
export function fileKind(stat: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket'>): string {
  if (stat.isFile()) return 'a file';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}

const errnoCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';

/**
 * Reads a regular file of at most `maxBytes`, judged on the open descriptor (so a path swapped after a check is judged
 * too) before a byte is read. Opened non-blocking: opening a named pipe for reading would otherwise wait for a writer.
 * A device (`/dev/zero`, `/dev/urandom`) or a pipe is never read (it would never end, or block), and a file whose size
 * the system does not know (`/proc`) is read only up to the cap.
 */
export function readBounded(path: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { refused: 'unreadable', code: errnoCode(error) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { refused: 'not-regular', what: fileKind(stat) };
    if (stat.size > maxBytes) return { refused: 'too-large', size: stat.size };
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let total = 0;
    for (;;) {
      if (total === buffer.length) {
        if (total > maxBytes) break;
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(bigger, 0, 0, total);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, total, buffer.length - total, null);
      if (read === 0) break;
      total += read;
    }
    if (total > maxBytes) return { refused: 'too-large', size: total };
    return { bytes: buffer.subarray(0, total) };
  } catch (error) {
    return { refused: 'unreadable', code: errnoCode(error) };
  } finally {
    closeSync(fd);
  }
}

/** `1 MiB`, `512 KiB`: a byte limit as messages state it. */
export function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/** Whether `inner` is `outer` or below it (both absolute; real paths when links matter). */
export function isInside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
