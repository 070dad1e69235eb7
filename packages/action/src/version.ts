/**
 * Set by the bundler (scripts/bundle.mjs, from this package's package.json) and by the test runner: the action
 * never reads a package.json at run time, so a copied dist/ still runs and still knows its version.
 */
declare const __MONSYNC_VERSION__: string | undefined;

export const ACTION_VERSION: string = typeof __MONSYNC_VERSION__ === 'string' ? __MONSYNC_VERSION__ : '0.0.0-dev';

/** What the action sends as its user agent, to the Monitoring API and to GitHub. */
export const ACTION_USER_AGENT = `monsync-action/${ACTION_VERSION}`;
