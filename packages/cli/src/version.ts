/**
 * Set by the bundler (packages/cli/scripts/bundle.mjs) and by the test runner (vitest.config.ts) to the package's
 * version, so that nothing reads package.json at run time: a copied or relocated bundle still knows its version.
 */
declare const __MONSYNC_VERSION__: string | undefined;

export function cliVersion(): string {
  return typeof __MONSYNC_VERSION__ === 'string' ? __MONSYNC_VERSION__ : '0.0.0-dev';
}
