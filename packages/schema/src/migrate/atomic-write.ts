import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Random hex for a temporary name; node:crypto is loaded here, not when the schema package loads (see secret.ts). */
function randomSuffix(): string {
  return process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex');
}

/**
 * Writes through a temporary file in the same folder and renames it over the target, so a crash or a full
 * disk leaves either the old file or the new one, never half of each. The target's permissions are kept.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const mode = await stat(file).then(
    (stats) => stats.mode & 0o777,
    () => 0o644,
  );
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomSuffix()}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
