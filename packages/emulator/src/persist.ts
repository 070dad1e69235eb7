import { open, rename, unlink } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EmulatorConfigError } from './errors.js';
import { Store } from './store.js';

/** Reads a state file; `null` when it does not exist yet. */
export function readStateFile(path: string): Store | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new EmulatorConfigError(`${path}: cannot read the state file (${(err as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EmulatorConfigError(`${path}: the state file is not valid JSON (${(err as Error).message}); delete it or fix it.`);
  }
  return Store.fromJSON(json, path, true);
}

/**
 * Saves the state atomically (temp file in the same folder, fsync, rename), so a crash leaves either the
 * old or the new file, never a torn one. Saves requested while one runs share the next save (group commit):
 * every caller's promise resolves only after a save that started after its change.
 */
export class Persister {
  private running: Promise<void> | null = null;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly path: string,
    private readonly serialize: () => string | Buffer,
  ) {}

  save(): Promise<void> {
    if (!this.running) {
      this.running = this.write().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.pending ??= this.running.then(
      () => this.afterRunning(),
      () => this.afterRunning(),
    );
    return this.pending;
  }

  private afterRunning(): Promise<void> {
    this.pending = null;
    return this.save();
  }

  /** Waits for any save in flight. */
  async flush(): Promise<void> {
    while (this.running || this.pending) await (this.pending ?? this.running)?.catch(() => undefined);
  }

  private async write(): Promise<void> {
    const text = this.serialize();
    const tmp = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    try {
      await rename(tmp, this.path);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }
}
