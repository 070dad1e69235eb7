/**
 * The acceptance suite against a real account: `MONSYNC_LIVE=1 pnpm test:live`, with MONSYNC_API_URL,
 * MONSYNC_API_USERNAME and MONSYNC_API_PASSWORD set (MONSYNC_OPERATOR too, when known). Skipped otherwise, as
 * Terraform skips its acceptance tests without TF_ACC. It creates, changes and removes only objects named with its
 * run prefix, and removes them at the end even when a step fails.
 */
import { describe, expect, it } from 'vitest';
import { cleanUp, runAcceptance, runPrefix } from './suite.js';

const NAMES = ['MONSYNC_API_URL', 'MONSYNC_API_USERNAME', 'MONSYNC_API_PASSWORD'] as const;
const env = process.env;
const live = env['MONSYNC_LIVE'] === '1' && NAMES.every((name) => (env[name] ?? '') !== '');

describe.skipIf(!live)('acceptance against a real account (MONSYNC_LIVE=1)', () => {
  it('creates, plans nothing more, updates, pulls and prunes objects of its own, then removes them', { timeout: 600_000 }, async () => {
    const target = { env: Object.fromEntries([...NAMES, 'MONSYNC_OPERATOR'].flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] ?? '']]))) };
    const prefix = runPrefix();
    try {
      await runAcceptance(target, prefix);
    } finally {
      const left = await cleanUp(target, prefix);
      // Where the service refuses DELETE /Monitor, monitors stay behind inactive: said, not failed.
      for (const line of left) console.warn(`cleanup: ${line}`);
      expect(left.filter((line) => !line.endsWith('left inactive'))).toEqual([]);
    }
  });
});
