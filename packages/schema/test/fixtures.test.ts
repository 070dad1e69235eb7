import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnosticLine, loadConfig } from '../src/index.js';

/**
 * Each folder under fixtures/ is a config tree; expected.txt holds its diagnostics, one
 * `file:line:col severity CODE message` line each. UPDATE_GOLDEN=1 rewrites them (review the diff).
 */
const fixturesDir = fileURLToPath(new URL('./fixtures/', import.meta.url));
const names = readdirSync(fixturesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

// Fixed environment: the fixtures name these variables; everything else is unset.
const env = { SHOP_PASSWORD: 'CANARY-7f3a9c', CERT_PW: 'CANARY-7f3a9c', OTP: 'CANARY-7f3a9c' };
const VALID = ['design-example', 'minimal'];

describe('fixture trees', () => {
  it('include valid and invalid trees', () => {
    expect(names).toEqual(expect.arrayContaining(VALID));
    expect(names.length).toBeGreaterThan(VALID.length + 10);
  });

  for (const name of names) {
    it(`${name}: diagnostics match expected.txt`, async () => {
      const { diagnostics } = await loadConfig(`${fixturesDir}${name}`, { env });
      const actual = diagnostics.map((d) => `${diagnosticLine(d)}\n`).join('');
      const golden = `${fixturesDir}${name}/expected.txt`;
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, actual);
      // A missing expected.txt is a failure, never a file written on the spot (that would pass whatever the output).
      expect(existsSync(golden), `${name}/expected.txt is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
      expect(actual).toBe(readFileSync(golden, 'utf8'));
      expect(actual).not.toContain('CANARY');
      if (VALID.includes(name)) expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      else expect(diagnostics.length).toBeGreaterThan(0);
    });
  }
});
