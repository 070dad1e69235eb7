import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Files below `dir` whose names end in `suffix`, as relative `/`-separated paths in code-point order
 * (the loader's order), skipping hidden folders and node_modules. Symbolic links are not followed.
 * `first`, when present among them, comes first (the tree's root file). Symbolic links with the suffix are
 * added to `links` when given.
 */
export async function listFiles(dir: string, suffix: string, first?: string, links?: string[]): Promise<string[]> {
  const found: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(join(dir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        await visit(path);
      } else if (entry.isFile() && entry.name.endsWith(suffix)) {
        found.push(path);
      } else if (entry.isSymbolicLink() && entry.name.endsWith(suffix)) {
        links?.push(path);
      }
    }
  };
  await visit('');
  found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (first !== undefined && found.includes(first)) return [first, ...found.filter((path) => path !== first)];
  return found;
}
