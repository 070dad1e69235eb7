import { describe, expect, it } from 'vitest';
import { aLiveItem, aLiveMonitor, aLiveSection, aLiveSla, aMonitor, anItem, anSla, aSection, at, desiredState, guidFor, liveSnapshot, planFor } from '../../test-utils/index.js';

const manage = { monitors: { prune: false }, vault: { prune: false }, slas: { prune: false } };

describe('a declaration that matches a live object only as a look-alike', () => {
  it('is created beside it, with a warning naming both keys escaped, where the declaration is, and how to adopt it', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'Site\u00A0' }, at('monitors.yaml', '', 4))] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Site' })] }));
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${JSON.stringify(s.key)}`)).toEqual(['create monitor "Site\u00A0"']);
    expect(plan.warnings).toEqual([
      {
        code: 'LOOKALIKE_LIVE_KEY',
        message:
          `monitors.yaml:4:5: monitor "Site\u00A0" matches no live monitor exactly, but the live monitor "Site" [${guidFor('monitor', 'Site')}] reads the same ` +
          `("Site\u00A0" has a space that is not U+0020 (U+00A0)): the plan creates a new monitor instead of adopting it. ` +
          `To adopt it, write Name as the service has it (or pin MonitorGuid: ${guidFor('monitor', 'Site')})`,
        kind: 'monitor',
        key: 'Site\u00A0',
      },
    ]);
  });

  it('says the live one is deleted when the kind is pruned', () => {
    const desired = desiredState({ manage: { monitors: { prune: true } }, monitors: [aMonitor({ Name: 'Cafe\u0301' })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Caf\u00E9' })] }));
    expect(plan.steps.map((s) => `${s.action} ${s.key}`)).toEqual(['create Cafe\u0301', 'delete Caf\u00E9']);
    expect(plan.warnings.map((w) => w.code)).toEqual(['LOOKALIKE_LIVE_KEY']);
    expect(plan.warnings[0]?.message).toContain('a decomposed spelling');
    expect(plan.warnings[0]?.message).toContain('instead of adopting it, and deletes the live one (prune)');
  });

  it('holds for vault items within their section and for SLAs, whose keys ignore case', () => {
    const desired = desiredState({
      manage,
      vaultSections: [aSection({ Name: 'Web' }, [anItem({ Name: 'shop\u200Blogin' })])],
      slas: [anSla({ Description: 'gold\u2060' })],
    });
    const plan = planFor(desired, liveSnapshot({ vaultSections: [aLiveSection({ Name: 'Web' })], vaultItems: [aLiveItem('Web', { Name: 'shop-login' }), aLiveItem('Web', { Name: 'shoplogin' })], slas: [aLiveSla({ Description: 'Gold' })] }));
    expect(plan.warnings.map((w) => `${w.code} ${w.kind} ${JSON.stringify(w.key)}`)).toEqual(['LOOKALIKE_LIVE_KEY vaultItem "Web/shop\u200Blogin"', 'LOOKALIKE_LIVE_KEY sla "gold\u2060"']);
    expect(plan.warnings[0]?.message).toContain('the live vaultItem "Web/shoplogin"');
  });

  it('says nothing when the keys differ in what anybody can see, or when the live object is paired', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'Site A' }), aMonitor({ Name: 'Site' })] });
    const plan = planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Site B' }), aLiveMonitor({ Name: 'Site' })] }));
    expect(plan.warnings).toEqual([]);
    const paired = planFor(desiredState({ manage, monitors: [aMonitor({ Name: 'Si\u200Bte' })] }), liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Si\u200Bte' })] }));
    expect(paired.warnings).toEqual([]);
  });
});
