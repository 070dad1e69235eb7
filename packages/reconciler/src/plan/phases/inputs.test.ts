import { describe, expect, it } from 'vitest';
import { aLiveReport, aReport, desiredState, liveSnapshot } from '../../test-utils/index.js';
import { liveScope } from '../scope.js';
import { inputProblems } from './inputs.js';

describe('inputs phase', () => {
  it('refuses a snapshot that did not read a kind in scope', () => {
    const desired = desiredState({ manage: { monitors: { prune: false } } });
    expect(inputProblems(desired, liveSnapshot({ read: [] }), liveScope(desired)).map((p) => p.code)).toEqual(['LIVE_NOT_READ']);
  });

  it('refuses declared reports when the listing has no InternalNotes (not an administrator)', () => {
    const desired = desiredState({ manage: { scheduledReports: { prune: false } }, scheduledReports: [aReport({ key: 'weekly' })] });
    const { InternalNotes: _notes, ...hidden } = aLiveReport('weekly');
    expect(inputProblems(desired, liveSnapshot({ scheduledReports: [hidden] }), liveScope(desired)).map((p) => p.code)).toEqual(['LIVE_RESTRICTED']);
    expect(inputProblems(desired, liveSnapshot({ scheduledReports: [aLiveReport('weekly')] }), liveScope(desired))).toEqual([]);
  });
});
