import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { cliVersion, isReleasedVersion } from './version.js';

/**
 * Where `npm i -D @monsync/cli` puts the editor schema: the CLI package ships it (scripts/bundle.mjs copies it in),
 * so the line `init` and `pull` write resolves with no other @monsync package installed.
 */
export const INSTALLED_SCHEMA = join('node_modules', '@monsync', 'cli', 'dist', 'schemas', 'config.schema.json');

/**
 * The published schema of this very version, for a repository where @monsync/cli is not installed (`npx
 * @monsync/cli init`); a build that was never published (a checkout's 0.0.0, a prerelease) names the latest release's.
 */
export function versionedSchemaUrl(version = cliVersion()): string {
  return `https://unpkg.com/@monsync/cli${isReleasedVersion(version) ? `@${version}` : ''}/dist/schemas/config.schema.json`;
}

/**
 * The `$schema` of the `yaml-language-server` line of a YAML file written into `dir`: the installed schema
 * (relative, so the line works on every clone), this repository's own `schemas/` when run inside the monsync
 * repository, or else the published schema.
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
