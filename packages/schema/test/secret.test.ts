import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Secret, SecretUnavailableError, deriveFingerprintKey, fingerprintSecret } from '../src/index.js';

const CANARY = 'CANARY-7f3a9c';
const source = { file: 'vault.yaml', line: 4, column: 21 };

describe('Secret', () => {
  it('reveals an environment variable lazily and redacts every printed form', () => {
    const env: Record<string, string | undefined> = {};
    const secret = new Secret({ fromEnv: 'SHOP_PASSWORD' }, source, { baseDir: '/cfg', env });
    env.SHOP_PASSWORD = CANARY;
    expect(secret.reveal()).toBe(CANARY);
    const printed = [String(secret), `${secret}`, JSON.stringify({ secret }), inspect(secret), inspect({ deep: { secret } }, { depth: 5 })];
    for (const text of printed) {
      expect(text).not.toContain(CANARY);
      expect(text).toContain('[redacted]');
    }
    expect(secret.describe()).toBe('env SHOP_PASSWORD');
  });

  it('throws SecretUnavailableError naming the variable when it is unset', () => {
    const secret = new Secret({ fromEnv: 'MISSING_VAR' }, source, { baseDir: '/cfg', env: {} });
    expect(secret.isAvailable()).toBe(false);
    let error: unknown;
    try {
      secret.reveal();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SecretUnavailableError);
    expect((error as SecretUnavailableError).code).toBe('SECRET_UNAVAILABLE');
    expect((error as Error).message).toContain('MISSING_VAR');
    expect((error as Error).message).toContain('vault.yaml:4:21');
  });

  it('reads files relative to the YAML file: text without the final newline, binary as base64', () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-secret-'));
    writeFileSync(join(dir, 'otp.txt'), `${CANARY}\n`);
    writeFileSync(join(dir, 'client.pfx'), Buffer.from([0, 1, 2, 255]));
    const text = new Secret({ fromFile: 'otp.txt' }, source, { baseDir: dir });
    const binary = new Secret({ fromFile: 'client.pfx' }, source, { baseDir: dir, encoding: 'base64' });
    expect(text.reveal()).toBe(CANARY);
    expect(binary.reveal()).toBe(Buffer.from([0, 1, 2, 255]).toString('base64'));
    const missing = new Secret({ fromFile: 'nope.pfx' }, source, { baseDir: dir, root: dir });
    expect(() => missing.reveal()).toThrow(/nope\.pfx/);
    expect(missing.describe()).toBe('file nope.pfx');
  });
});

describe('Secret files and the config root', () => {
  it('never reads a file outside the root it was given, even one that exists', () => {
    const outside = mkdtempSync(join(tmpdir(), 'monsync-secret-outside-'));
    writeFileSync(join(outside, 'key.txt'), CANARY);
    const root = join(outside, 'config');
    mkdirSync(join(root, 'vault'), { recursive: true });
    for (const fromFile of ['../../key.txt', join(outside, 'key.txt')]) {
      const secret = new Secret({ fromFile }, source, { baseDir: join(root, 'vault'), root });
      expect(() => secret.reveal()).toThrow(SecretUnavailableError);
      expect(() => secret.reveal()).toThrow(/outside the config tree/);
      expect(secret.isAvailable()).toBe(false);
    }
    // Without a root (a caller that names the file itself), the path is read as given.
    expect(new Secret({ fromFile: '../key.txt' }, source, { baseDir: root }).reveal()).toBe(CANARY);
  });
});

describe('fingerprints', () => {
  it('are HMAC-SHA-256 hex, keyed and stable', () => {
    const a = fingerprintSecret(CANARY, 'key-1');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintSecret(CANARY, 'key-1')).toBe(a);
    expect(fingerprintSecret(CANARY, 'key-2')).not.toBe(a);
    expect(fingerprintSecret(`${CANARY}x`, 'key-1')).not.toBe(a);
    expect(a).not.toContain(CANARY);
  });

  it('use MONSYNC_FINGERPRINT_KEY when given, otherwise a key derived from the API credentials', () => {
    expect(deriveFingerprintKey({ fingerprintKey: 'explicit', apiUser: 'u', apiPassword: 'p' })).toBe('explicit');
    const derived = deriveFingerprintKey({ apiUser: 'demo', apiPassword: CANARY });
    expect(derived).toMatch(/^[0-9a-f]{64}$/);
    expect(derived).not.toContain(CANARY);
    expect(deriveFingerprintKey({ fingerprintKey: '', apiUser: 'demo', apiPassword: CANARY })).toBe(derived);
    expect(deriveFingerprintKey({ apiUser: 'demo', apiPassword: 'other' })).not.toBe(derived);
  });
});
