import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, read at run time so that src/ (tests) and dist/ (bin) both find package.json. */
export function cliVersion(): string {
  if (cached === undefined) {
    const manifest: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const version = typeof manifest === 'object' && manifest !== null ? (manifest as { version?: unknown }).version : undefined;
    cached = typeof version === 'string' ? version : '0.0.0';
  }
  return cached;
}
