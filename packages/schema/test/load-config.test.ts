import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Secret, hasErrors, loadConfig } from '../src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));

describe('loadConfig', () => {
  it('accepts the DESIGN §2 example verbatim and returns the contract-B desired state', async () => {
    const { desired, diagnostics } = await loadConfig(fixture('design-example'), { env: { SHOP_PASSWORD: 'x', CERT_PW: 'y' } });
    expect(hasErrors(diagnostics)).toBe(false);
    expect(desired.settings).toEqual({
      apiVersion: 'monsync/v1',
      manage: {
        monitors: { prune: true },
        monitorGroups: { prune: true },
        vault: { prune: false },
        slas: { prune: true },
        scheduledReports: { prune: false },
      },
      ignore: ['monitor:legacy-*'],
      safety: { maxDeletePercent: 30, maxUpdatePercent: 50 },
    });
    expect(desired.monitors.map((m) => m.value.Name)).toEqual(['Shop homepage']);
    expect(desired.monitors[0]?.source).toEqual({ file: 'monitors/shop.yaml', line: 3, column: 5 });
    expect(desired.monitors[0]?.value.PredefinedVariables?.[0]?.Value).toEqual({ vault: 'Web/shop-login' });
    expect(desired.monitorGroups[0]?.value.members).toEqual(['Shop homepage']);
    const item = desired.vaultSections[0]?.value.items?.[0];
    expect(item?.value.Password).toBeInstanceOf(Secret);
    expect(item?.value.Password?.describe()).toBe('env SHOP_PASSWORD');
    expect(desired.slas[0]?.value.exclusionPeriods?.[0]?.value.From).toBe('2026-11-27T00:00:00');
    expect(desired.scheduledReports[0]?.value.key).toBe('weekly-exec');
    expect(desired.alertDefinitions[0]?.value).toEqual({ AlertDefinitionGuid: '0b1e...', IsActive: true });
  });
});
