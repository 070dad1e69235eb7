import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aLiveMonitor, aMonitor, desiredState, liveSnapshot, planFor } from '../test-utils/index.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

// Enough monitors, with long enough fields, that the hashed text runs well past one 64 KiB run of the hash feed.
const names = Array.from({ length: 400 }, (_, i) => `monitor ${String(i).padStart(3, '0')} ${'é'.repeat(i % 7)}`);
const url = (i: number): string => `https://example.com/${'x'.repeat(200)}/${i}`;

describe('plan digests', () => {
  it('liveDigest is the SHA-256 of each managed kind\'s live objects as GUID-sorted "guid<TAB>json" lines', () => {
    const monitors = names.map((Name, i) => aLiveMonitor({ Name, Url: url(i) }));
    const plan = planFor(desiredState({ manage: { monitors: { prune: false } } }), liveSnapshot({ monitors }));
    const lines = [...monitors].sort((a, b) => (String(a.MonitorGuid) < String(b.MonitorGuid) ? -1 : 1)).map((m) => `${String(m.MonitorGuid)}\t${JSON.stringify(m)}`);
    expect(lines.join('\n').length).toBeGreaterThan(3 * 65_536);
    expect(plan.liveDigest).toBe(sha256(`monitor\n${lines.join('\n')}\n`));
  });

  it('configDigest is the SHA-256 of the settings and each declared entry as a "key<TAB>pin<TAB>manages<TAB>json" line', () => {
    const manage = { monitors: { prune: false } };
    const desired = desiredState({ manage, monitors: names.map((Name, i) => aMonitor({ Name, Url: url(i) })) });
    const plan = planFor(desired, liveSnapshot());
    const settings = `{"ignore":[],"manage":${JSON.stringify(manage)},"safety":${JSON.stringify(desired.settings.safety)}}`;
    const lines = names.map((Name, i) => `${JSON.stringify(Name)}\t\t\t${JSON.stringify({ Name, MonitorType: 'Https', Url: url(i) })}`);
    expect(plan.configDigest).toBe(sha256(`${settings}\nmonitor\n${lines.join('\n')}`));
  });

  it('are made when first read, and a plan written as JSON holds them in their place, as a plan read back does', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } }, monitors: [aMonitor({ Name: 'a' })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'a' })] }));
    const written = JSON.parse(JSON.stringify(plan)) as Record<string, unknown>;
    expect(Object.keys(written).slice(0, 4)).toEqual(['formatVersion', 'configDigest', 'liveDigest', 'planDigest']);
    expect(written).toEqual(plan);
    expect(plan.configDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.liveDigest).toMatch(/^[0-9a-f]{64}$/);
  });
});
