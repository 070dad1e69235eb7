import { describe, expect, it } from 'vitest';
import { PlanError } from '../src/plan/errors.js';
import { renderJson, type Plan } from '../src/index.js';
import { aLiveRumWebsite, aRumWebsite, desiredState, guidFor, liveSnapshot, planFor } from '../src/test-utils/index.js';

const rumOnly = (prune: boolean) => ({ rumWebsites: { prune } });
const shop = guidFor('rumWebsite', 'Shop storefront');

describe('rumWebsite kind', () => {
  it('creates a declared website with the fields declared, never a RumScript', () => {
    const plan = planFor(desiredState({ manage: rumOnly(false), rumWebsites: [aRumWebsite({ Description: 'Docs', Url: 'https://docs.example.com' })] }), liveSnapshot());
    expect(plan.steps).toMatchObject([{ action: 'create', id: 'rumWebsite:Docs', kind: 'rumWebsite', dependsOn: [] }]);
    expect(plan.steps[0]?.desired).toEqual({ Description: 'Docs', Url: 'https://docs.example.com', IsSpa: true });
  });

  it('plans nothing for a website as declared, whatever script the service generated and whichever defaults it filled', () => {
    const live = aLiveRumWebsite({ RumScript: '<script>changed</script>' });
    const plan = planFor(desiredState({ manage: rumOnly(true), rumWebsites: [aRumWebsite()] }), liveSnapshot({ rumWebsites: [live] }));
    expect(plan.steps).toEqual([]);
    expect(plan.summary.unchanged).toBe(1);
    const { IsSpa: _spa, IncludeUrlFragment: _fragment, ...withoutFlags } = aLiveRumWebsite();
    const omitted = planFor(desiredState({ manage: rumOnly(true), rumWebsites: [aRumWebsite({ IsSpa: false, IncludeUrlFragment: false })] }), liveSnapshot({ rumWebsites: [withoutFlags] }));
    expect(omitted.steps).toEqual([]);
  });

  it('updates a changed field with a PUT body of the whole website: the live fields the tree leaves out, no read-only field', () => {
    const declared = { value: { Description: 'Shop storefront', Url: 'https://www.example.com' }, source: aRumWebsite().source };
    const plan = planFor(desiredState({ manage: rumOnly(false), rumWebsites: [declared] }), liveSnapshot({ rumWebsites: [aLiveRumWebsite()] }));
    expect(plan.steps).toMatchObject([{ action: 'update', guid: shop, changes: [{ op: 'replace', path: '/Url', before: 'https://shop.example.com', after: 'https://www.example.com' }] }]);
    expect(plan.steps[0]?.desired).toEqual({ Description: 'Shop storefront', Url: 'https://www.example.com', IsSpa: true, IncludeUrlFragment: false });
    const saved = JSON.parse(renderJson(plan)) as Plan;
    expect(JSON.stringify(saved.steps)).not.toContain('RumScript');
  });

  it('renames the website a pinned RumWebsiteId names, in place', () => {
    const plan = planFor(
      desiredState({ manage: rumOnly(true), rumWebsites: [aRumWebsite({ Description: 'Storefront', RumWebsiteId: shop })] }),
      liveSnapshot({ rumWebsites: [aLiveRumWebsite()] }),
    );
    expect(plan.steps).toMatchObject([{ action: 'update', id: 'rumWebsite:Storefront', guid: shop, changes: [{ op: 'replace', path: '/Description', before: 'Shop storefront', after: 'Storefront' }] }]);
  });

  it('adopts a live website of the declared Description instead of creating a second one', () => {
    const plan = planFor(desiredState({ manage: rumOnly(false), rumWebsites: [aRumWebsite({ IsSpa: false })] }), liveSnapshot({ rumWebsites: [aLiveRumWebsite()] }));
    expect(plan.steps.map((s) => [s.action, s.guid])).toEqual([['update', shop]]);
  });

  it('lists an undeclared website as unmanaged without prune, and deletes it with prune', () => {
    const live = liveSnapshot({ rumWebsites: [aLiveRumWebsite(), aLiveRumWebsite({ Description: 'Old blog' })] });
    const kept = planFor(desiredState({ manage: rumOnly(false), rumWebsites: [aRumWebsite()] }), live);
    expect(kept.unmanaged).toEqual([{ kind: 'rumWebsite', key: 'Old blog', guid: guidFor('rumWebsite', 'Old blog') }]);
    expect(kept.steps).toEqual([]);
    const pruned = planFor(desiredState({ manage: rumOnly(true), rumWebsites: [aRumWebsite()] }), live);
    expect(pruned.steps.map((s) => [s.action, s.id])).toEqual([['delete', 'rumWebsite:Old blog']]);
  });

  it('refuses a declared website two live ones answer to, naming both', () => {
    const twins = liveSnapshot({ rumWebsites: [aLiveRumWebsite(), aLiveRumWebsite({ RumWebsiteId: guidFor('rumWebsite', 'twin') })] });
    expect(() => planFor(desiredState({ manage: rumOnly(false), rumWebsites: [aRumWebsite()] }), twins)).toThrow(PlanError);
  });

  it('leaves websites alone when rumWebsites is not managed', () => {
    const plan = planFor(desiredState({ manage: { slas: { prune: true } }, rumWebsites: [aRumWebsite({ Description: 'New' })] }), liveSnapshot({ rumWebsites: [aLiveRumWebsite()] }));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('ignores websites an ignore pattern names', () => {
    const plan = planFor(desiredState({ manage: rumOnly(true), ignore: ['rumWebsite:Old *'] }), liveSnapshot({ rumWebsites: [aLiveRumWebsite({ Description: 'Old blog' })] }));
    expect(plan.steps).toEqual([]);
  });
});

describe('rumWebsite safety, weighed as an object kind', () => {
  const sites = (n: number) => Array.from({ length: n }, (_, i) => aLiveRumWebsite({ Description: `Site ${i}` }));

  it('calls deleting every one of 2 or more live websites unsafe', () => {
    const plan = planFor(desiredState({ manage: rumOnly(true) }), liveSnapshot({ rumWebsites: sites(2) }));
    expect(plan.safe).toBe(false);
    expect(plan.violations).toMatchObject([{ kind: 'rumWebsite', action: 'delete', count: 2, total: 2, rule: 'every' }]);
    expect(plan.violations[0]?.message).toMatch(/every one of the 2 live RUM websites/);
  });

  it('deletes one of 4 websites safely, and 3 of 4 not', () => {
    const live = liveSnapshot({ rumWebsites: sites(4) });
    const keep = (n: number) => sites(n).map((site) => aRumWebsite({ Description: String(site['Description']) }));
    expect(planFor(desiredState({ manage: rumOnly(true), rumWebsites: keep(3) }), live).safe).toBe(true);
    const three = planFor(desiredState({ manage: rumOnly(true), rumWebsites: keep(1) }), live);
    expect(three.violations).toMatchObject([{ kind: 'rumWebsite', action: 'delete', count: 3, total: 4, rule: 'share' }]);
  });
});
