import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

export const FIXTURES = join(import.meta.dirname, 'fixtures');

/** `UPDATE_GOLDEN=1` (the one variable for every golden file of the repository) rewrites them from the current output; review the diff. */
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/** Every file below `dir` (hidden folders and node_modules included: they must come out untouched), by relative path. */
export async function readTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    out[relative(dir, full).split(sep).join('/')] = await readFile(full, 'utf8');
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function writeTree(dir: string, tree: Record<string, string>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [path, text] of Object.entries(tree)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

export async function copyToTemp(source: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'monsync-migrate-'));
  await cp(source, dir, { recursive: true });
  return dir;
}

/** A result with the temporary folder taken out of every path, so it compares with a golden file. */
export function relativeTo<T>(dir: string, value: T): T {
  const text = JSON.stringify(value).split(`${dir}/`).join('');
  return JSON.parse(text) as T;
}

export async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
