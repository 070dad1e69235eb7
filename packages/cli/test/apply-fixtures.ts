/**
 * What the two apply suites share (apply.test.ts: plan then apply; apply-planfile.test.ts: a saved plan): a demo
 * emulator reset before each test, canary secrets that must never show, and the requests that wrote. Two files, so
 * that the slow profiles (rate-limited) run them side by side.
 */
import { clientFromEnv } from '@monsync/client';
import { expect } from 'vitest';
import { useEmulator } from './helpers.js';

export const CANARIES = {
  DEMO_SHOP_PASSWORD: 'CANARY-7f3a9c-apply-shop-password',
  DEMO_SHOP_OTP_SECRET: 'CANARYSEVENFAAPPLYOTP',
  DEMO_CLIENT_CERT_PFX_BASE64: Buffer.from('CANARY-7f3a9c-apply-pfx-bytes').toString('base64'),
  DEMO_CLIENT_CERT_PASSWORD: 'CANARY-7f3a9c-apply-pfx-password',
};
export const API_PASSWORD = 'demo-password';

/** The demo emulator for one test file, and what its tests ask of it. */
export function useApplySuite() {
  const suite = useEmulator({
    seed: 'demo',
    start: { retryAfterSeconds: 0 },
    operator: 'admin@example.com',
    env: { MONSYNC_API_PASSWORD: API_PASSWORD, ...CANARIES },
    eachTest: { faultsOff: true, reset: true, stageFingerprints: true, clearLog: true },
  });
  const writes = () => suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET');
  async function monitorGuid(name: string): Promise<string> {
    const client = clientFromEnv(suite.env);
    try {
      const found = (await client.monitors.list().toArray()).find((m) => m.Name === name);
      return String(found?.MonitorGuid);
    } finally {
      await client.close();
    }
  }
  return { suite, writes, monitorGuid };
}

export function expectNoSecrets(...texts: string[]): void {
  for (const text of texts) for (const value of [...Object.values(CANARIES), API_PASSWORD, 'CANARYROTATED']) expect(text).not.toContain(value);
}
