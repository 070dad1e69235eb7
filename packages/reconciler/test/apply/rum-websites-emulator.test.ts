/**
 * RUM websites against the emulator, under every profile (`MONSYNC_EMULATOR_PROFILE`): created, updated with a PUT of
 * the whole website, renamed by a pinned id, deleted, and the second plan empty; every body sent uses only the fields
 * the vendor's provider lists, never the generated `RumScript`; a create whose answer is lost is found, not repeated.
 */
import { PUBLISHED_FIELDS } from '@monsync/schema';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { DesiredState } from '../../src/desired.js';
import type { ApiObject, WriteClient } from '../../src/live/types.js';
import { aRumWebsite, desiredState, FINGERPRINT_KEY } from '../../src/test-utils/index.js';
import { applyWith, describeSteps, expectConvergesInOneApply, planAgainst, type Harness, useEmulatorHarness, writeRequests } from './harness.js';

let h: Harness;
useEmulatorHarness((harness) => (h = harness));

const sites = (...declared: ReturnType<typeof aRumWebsite>[]): DesiredState =>
  desiredState({ manage: { rumWebsites: { prune: true } }, safety: { maxDeletePercent: 100 }, rumWebsites: declared });

const listedSites = async (): Promise<ApiObject[]> => (await h.client.rumWebsites.list().toArray()) as ApiObject[];

/** The client, its RUM website writes recorded with their bodies. */
function recording(bodies: ApiObject[]): WriteClient {
  const rum = h.client.rumWebsites;
  return {
    ...h.writer,
    maxAttempts: h.client.maxAttempts,
    rumWebsites: {
      list: () => rum.list(),
      create: (body) => (bodies.push(body), rum.create(body as Parameters<typeof rum.create>[0])),
      replace: (id, body) => (bodies.push(body), rum.replace(id, body as Parameters<typeof rum.replace>[1])),
      delete: (id) => rum.delete(id),
    },
  };
}

describe('RUM websites against the emulator', () => {
  it('creates, updates, renames and deletes websites, each tree converging in one apply', async () => {
    await expectConvergesInOneApply(h, sites(aRumWebsite(), aRumWebsite({ Description: 'Docs', Url: 'https://docs.example.com', IsSpa: false })));
    const created = await listedSites();
    expect(created.map((site) => site['Description']).sort()).toEqual(['Docs', 'Shop storefront']);
    for (const site of created) expect(site['RumScript']).toEqual(expect.stringContaining(String(site['RumWebsiteId'])));

    const shopId = String(created.find((site) => site['Description'] === 'Shop storefront')?.['RumWebsiteId']);
    const changed = sites(aRumWebsite({ Description: 'Storefront', RumWebsiteId: shopId, IncludeUrlFragment: true }));
    const plan = await expectConvergesInOneApply(h, changed);
    expect(describeSteps(plan)).toEqual(['update rumWebsite:Storefront', 'delete rumWebsite:Docs']);
    const after = await listedSites();
    expect(after).toEqual([expect.objectContaining({ RumWebsiteId: shopId, Description: 'Storefront', Url: 'https://shop.example.com', IsSpa: true, IncludeUrlFragment: true })]);
    // The script the service made for the website is still its own.
    expect(after[0]?.['RumScript']).toBe(created.find((site) => site['RumWebsiteId'] === shopId)?.['RumScript']);
  });

  it('sends only fields the published definition lists, never RumScript, and a PUT with every writable field', async () => {
    await expectConvergesInOneApply(h, sites(aRumWebsite()));
    const declared = { value: { Description: 'Shop storefront', Url: 'https://www.example.com' }, source: aRumWebsite().source };
    const desired = sites(aRumWebsite({ Description: 'Blog', Url: 'https://blog.example.com' }), declared as ReturnType<typeof aRumWebsite>);
    const bodies: ApiObject[] = [];
    const report = await applyPlan(await planAgainst(h, desired), recording(bodies), { secrets: { desired, key: FINGERPRINT_KEY } });
    expect(report.failed).toEqual([]);
    const allowed: readonly string[] = PUBLISHED_FIELDS.RumWebsite.filter((field) => field !== 'RumScript');
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(Object.keys(body).filter((field) => !allowed.includes(field))).toEqual([]);
    expect(bodies).toContainEqual({ Description: 'Shop storefront', Url: 'https://www.example.com', IsSpa: true, IncludeUrlFragment: false });
  });

  it('finds a website whose create was applied but whose answer was lost, and does not post it again', async () => {
    const desired = sites(aRumWebsite());
    const plan = await planAgainst(h, desired);
    h.emulator.control.setFaults({ scripted: [{ method: 'POST', route: '/Rum/Website', count: 1, kind: 'applied-then-reset' }] });
    const report = await applyWith(h, plan, desired);
    expect(report.failed).toEqual([]);
    expect(report.done.find((d) => d.id === 'rumWebsite:Shop storefront')?.note).toBe('found after an unclear outcome');
    expect(writeRequests(h).filter((e) => e.route === 'POST /Rum/Website' && e.fault !== 'rate-limit')).toHaveLength(1);
    expect((await listedSites()).map((site) => site['Description'])).toEqual(['Shop storefront']);
    expect(describeSteps(await planAgainst(h, desired))).toEqual([]);
  });
});
