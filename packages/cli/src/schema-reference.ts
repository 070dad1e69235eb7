import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { cliVersion } from './version.js';

/** Where `npm i -D @monsync/cli` puts the editor schema (a dependency of the CLI: @monsync/schema). */
export const INSTALLED_SCHEMA = join('node_modules', '@monsync', 'schema', 'dist', 'schemas', 'config.schema.json');

/** The published schema of this very version, for a repository where @monsync/schema is not installed. */
export function versionedSchemaUrl(version = cliVersion()): string {
  return `https://unpkg.com/@monsync/schema@${version}/dist/schemas/config.schema.json`;
}

/**
 * The `$schema` of the `yaml-language-server` line of a YAML file written into `dir`: the installed schema
 * (relative, so the line works on every clone), this repository's own `schemas/` when run inside the monsync
 * repository, or else the published schema of this version.
 */
export function schemaReference(dir: string): string {
  let current = dir;
  for (;;) {
    for (const candidate of [join(current, INSTALLED_SCHEMA), join(current, 'schemas', 'config.schema.json')]) {
      if (existsSync(candidate)) return relative(dir, candidate).split('\\').join('/');
    }
    const parent = dirname(current);
    if (parent === current) return versionedSchemaUrl();
    current = parent;
  }
}

export function schemaModeline(dir: string): string {
  return `# yaml-language-server: $schema=${schemaReference(dir)}`;
}
