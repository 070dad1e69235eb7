/**
 * The acceptance suite of `live.test.ts`, run against the emulator in every profile, so that the suite itself keeps
 * working between the runs against a real account. Each profile starts an emulator of its own, with the demo
 * account in it: the suite must leave everything it did not make alone.
 */
import { createClient } from '@monsync/client';
import { PROFILE_NAMES, profileFromEnv, startEmulator, type ProfileName } from '@monsync/emulator';
import { describe, expect, it } from 'vitest';
import { cleanUp, runAcceptance, runPrefix } from './suite.js';

/**
 * Every profile, each with an emulator of its own; when the run is for one profile (MONSYNC_EMULATOR_PROFILE, as
 * every harness reads it), that one only.
 */
const PROFILES: readonly ProfileName[] = (process.env['MONSYNC_EMULATOR_PROFILE'] ?? '') === '' ? PROFILE_NAMES : [profileFromEnv()];

async function accountNames(url: string): Promise<string[]> {
  const client = createClient({ baseUrl: url, username: 'demo', password: 'demo-password' });
  try {
    const monitors = (await client.monitors.list().toArray()).map((m) => `monitor ${String(m.Name)} ${String(m.IsActive)}`);
    const groups = (await client.monitorGroups.list().toArray()).map((g) => `group ${String(g.Description)}`);
    const slas = (await client.slas.list().toArray()).map((s) => `sla ${String(s.Description)}`);
    return [...monitors, ...groups, ...slas].sort();
  } finally {
    await client.close();
  }
}

describe('acceptance against the emulator, a step failing', () => {
  it('still removes every object it made, and nothing else', { timeout: 180_000 }, async () => {
    const profile = profileFromEnv();
    const emulator = await startEmulator({ port: 0, profile, seed: 'demo', retryAfterSeconds: 0 });
    const target = { env: { MONSYNC_API_URL: emulator.url, MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password', MONSYNC_OPERATOR: 'admin@example.com' } };
    const prefix = runPrefix();
    try {
      const before = await accountNames(emulator.url);
      // The update step's PATCH of a monitor fails every time it is sent: the suite stops there, with objects made.
      emulator.control.setFaults({ scripted: [{ method: 'PATCH', route: '/Monitor/{monitorGuid}', count: 50, kind: '500' }] });
      let failed: unknown;
      try {
        await runAcceptance(target, prefix);
      } catch (error) {
        failed = error;
      } finally {
        emulator.control.setFaults({ scripted: [] });
        const left = await cleanUp(target, prefix);
        // Without DELETE /Monitor the suite's monitors can only be switched off, and cleanUp says so.
        expect(left.filter((line) => !(profile === 'lean' && line.endsWith('left inactive')))).toEqual([]);
      }
      expect(String(failed)).toContain('update: apply');
      const after = await accountNames(emulator.url);
      expect(profile === 'lean' ? after.filter((name) => !name.startsWith(`monitor ${prefix}`)) : after).toEqual(before);
    } finally {
      await emulator.close();
    }
  });
});

describe.each(PROFILES)('acceptance against the emulator, profile %s', (profile) => {
  it('creates, plans nothing more, updates, pulls and prunes, then removes its objects and nothing else', { timeout: 180_000 }, async () => {
    const emulator = await startEmulator({ port: 0, profile, seed: 'demo' });
    const target = { env: { MONSYNC_API_URL: emulator.url, MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'demo-password', MONSYNC_OPERATOR: 'admin@example.com' } };
    const prefix = runPrefix();
    try {
      const before = await accountNames(emulator.url);
      const refusesDelete = profile === 'lean';
      try {
        await runAcceptance(target, prefix);
      } finally {
        const left = await cleanUp(target, prefix);
        // Without DELETE /Monitor the suite's monitors can only be switched off, and cleanUp says so.
        expect(left.filter((line) => !(refusesDelete && line.endsWith('left inactive'))), `profile ${profile}`).toEqual([]);
      }
      const after = await accountNames(emulator.url);
      expect(refusesDelete ? after.filter((name) => !name.startsWith(`monitor ${prefix}`)) : after).toEqual(before);
      if (refusesDelete) expect(after.filter((name) => name.startsWith(`monitor ${prefix}`)).every((name) => name.endsWith(' false'))).toBe(true);
    } finally {
      await emulator.close();
    }
  });
});
