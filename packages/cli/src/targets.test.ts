import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { parseTarget } from './targets.js';

describe('--target syntax', () => {
  it('splits kind and key on the first colon only, so keys may hold colons and globs', () => {
    expect(parseTarget('monitor:API: login')).toEqual({ kind: 'monitor', pattern: 'API: login' });
    expect(parseTarget('groupMembership:Shop/*')).toEqual({ kind: 'groupMembership', pattern: 'Shop/*' });
  });

  it('rejects an unknown kind or a missing key, listing the kinds', () => {
    expect(() => parseTarget('monitors:x')).toThrow(UsageError);
    expect(() => parseTarget('monitor')).toThrow(/expected kind:key with kind one of monitor, monitorGroup, groupMembership/);
    expect(() => parseTarget('monitor:')).toThrow(UsageError);
  });
});
