import { describe, expect, it } from 'vitest';
import { Placeholders } from '../../src/apply/placeholders.js';
import { redactor } from '../../src/apply/redact.js';
import { fillSecrets, sensitiveSlots } from '../../src/apply/secrets.js';
import type { Plan } from '../../src/plan/types.js';

function planWith(steps: Plan['steps']): Plan {
  return { formatVersion: 1, configDigest: '', liveDigest: '', summary: { create: 0, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 }, safe: true, violations: [], steps, unmanaged: [], warnings: [] };
}
const create = (kind: Plan['steps'][number]['kind'], key: string): Plan['steps'][number] => ({ id: `${kind}:${key}`, action: 'create', kind, key, changes: [], dependsOn: [], desired: {} });

describe('placeholders', () => {
  const plan = planWith([create('vaultSection', 'Web'), create('vaultItem', 'Web/login'), create('monitorGroup', 'Shop')]);

  it('substitutes learned GUIDs at any depth, and the vault form inside a longer string', () => {
    const p = new Placeholders(plan);
    p.learn('vaultSection', 'Web', 'sec-1');
    p.learn('vaultItem', 'Web/login', 'item-1');
    expect(p.substitute({ VaultSectionGuid: '{{vaultSection:Web}}', PredefinedVariables: [{ Key: 'k', Value: 'user {{vault:Web/login}} end' }] })).toEqual({
      VaultSectionGuid: 'sec-1',
      PredefinedVariables: [{ Key: 'k', Value: 'user {{vault:item-1}} end' }],
    });
  });

  it('refuses a placeholder whose create has not happened, naming the step', () => {
    const p = new Placeholders(plan);
    expect(() => p.substitute({ MonitorGroupGuid: '{{monitorGroup:Shop}}' })).toThrow('{{monitorGroup:Shop}} refers to monitorGroup:Shop, which has not created its object');
  });

  it('leaves text that only looks like a placeholder as written', () => {
    const p = new Placeholders(plan);
    const body = { Value: '{{vault:0b1e2f00-0000-4000-8000-000000000001}}', Other: '{{unknown:thing}}' };
    expect(p.substitute(body)).toEqual(body);
  });
});

describe('secrets in a body', () => {
  it('finds each sensitive slot by pointer and fills only those', () => {
    const body = { Name: 'x', Password: { sensitive: true, fingerprint: 'aa' }, CertificateArchive: { Password: { sensitive: true, fingerprint: 'bb' }, Issuer: 'CA' } };
    expect(sensitiveSlots(body)).toEqual([
      { pointer: '/Password', fingerprint: 'aa' },
      { pointer: '/CertificateArchive/Password', fingerprint: 'bb' },
    ]);
    expect(fillSecrets(body, new Map([['/Password', 'p1'], ['/CertificateArchive/Password', 'p2']]))).toEqual({ Name: 'x', Password: 'p1', CertificateArchive: { Password: 'p2', Issuer: 'CA' } });
  });

  it('does not mistake an ordinary object with a sensitive flag for a slot', () => {
    expect(sensitiveSlots({ Settings: { sensitive: true, fingerprint: 'aa', Other: 1 } })).toEqual([]);
  });
});

describe('redaction', () => {
  it('removes each secret, also as escaped inside JSON, the longest first', () => {
    const redact = redactor(['pa"ss', 'pa"ss-longer']);
    expect(redact('got pa"ss-longer and {"Password":"pa\\"ss"}')).toBe('got [redacted] and {"Password":"[redacted]"}');
  });

  it('leaves text alone when there is nothing to redact', () => {
    expect(redactor([''])('plain text')).toBe('plain text');
  });
});
