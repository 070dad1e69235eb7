import { describe, expect, it } from 'vitest';
import { aLiveReport, anOperator, aReport, desiredState, liveSnapshot } from '../../test-utils/index.js';
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

  it("refuses a snapshot without the authorizations of an operator whose list the tree declares, rather than read them as none", () => {
    const desired = desiredState({ manage: { operators: { prune: false } }, operators: [anOperator({ Email: 'sam@example.com', authorizations: ['AllowInfra'] }), anOperator({ Email: 'kim@example.com' })] });
    const live = liveSnapshot();
    live.lists.operator = [
      { OperatorGuid: 'o-1', Email: 'Sam@example.com' },
      { OperatorGuid: 'o-2', Email: 'kim@example.com' },
    ];
    live.perParent.operatorAuthorization = {};
    expect(inputProblems(desired, live, liveScope(desired)).map((p) => p.message)).toEqual([
      'the live snapshot does not include the operator authorizations of operator "Sam@example.com"; read them with readLive(client, liveScope(desired)) before planning',
    ]);
    // kim declares no list: its authorizations are not needed.
    live.perParent.operatorAuthorization = { 'o-1': [] };
    expect(inputProblems(desired, live, liveScope(desired))).toEqual([]);
  });
});
