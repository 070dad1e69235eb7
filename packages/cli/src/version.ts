/**
 * Set by the bundler (packages/cli/scripts/bundle.mjs) and by the test runner (vitest.config.ts) to the package's
 * version, so that nothing reads package.json at run time: a copied or relocated bundle still knows its version.
 */
declare const __MONSYNC_VERSION__: string | undefined;

export function cliVersion(): string {
  return typeof __MONSYNC_VERSION__ === 'string' ? __MONSYNC_VERSION__ : '0.0.0-dev';
}

/**
 * A version the release workflow publishes and tags (`vX.Y.Z`): not the 0.0.0 of a checkout, and not a prerelease
 * (`1.2.0-next.1`, `0.0.0-dev`), which no tag or published schema may exist for.
 */
export function isReleasedVersion(version: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(version) && version !== '0.0.0';
}
