import { describe, expect, it } from 'vitest';
import { isUnclearOutcome, MalformedListingError } from '../errors.js';
import { mockApi } from '../test-utils/mock-api.js';

const ID = '046a727c-7a90-4776-9e41-ab050bdda5dc';
const site = { RumWebsiteId: ID, Description: 'Shop', Url: 'https://shop.example.com', IsSpa: true, IncludeUrlFragment: false, RumScript: '<script>x</script>' };
const body = { Description: 'Shop', Url: 'https://shop.example.com', IsSpa: true, IncludeUrlFragment: false };

describe('rumWebsites', () => {
  it('lists the bare array of GET /Rum/Website and reads one with GET /Rum/Website/{id}', async () => {
    const api = mockApi();
    api.reply('GET', '/Rum/Website', 200, [site]);
    api.reply('GET', `/Rum/Website/${ID}`, 200, site);
    await expect(api.client.rumWebsites.list().toArray()).resolves.toEqual([site]);
    await expect(api.client.rumWebsites.get(ID)).resolves.toEqual(site);
  });

  it('refuses a listing whose entry has no RumWebsiteId, rather than plan from it', async () => {
    const api = mockApi();
    api.reply('GET', '/Rum/Website', 200, [{ Description: 'Shop' }]);
    await expect(api.client.rumWebsites.list().toArray()).rejects.toBeInstanceOf(MalformedListingError);
  });

  it.each([201, 200])('creates with POST /Rum/Website and reads the object answered %i', async (status) => {
    const api = mockApi();
    api.reply('POST', '/Rum/Website', status, site);
    await expect(api.client.rumWebsites.create(body)).resolves.toEqual(site);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([['POST', '/v4/Rum/Website', body]]);
  });

  it('takes a bare id as the answer of a create', async () => {
    const api = mockApi();
    api.reply('POST', '/Rum/Website', 201, JSON.stringify(ID));
    await expect(api.client.rumWebsites.create(body)).resolves.toMatchObject({ ...body, RumWebsiteId: ID });
    expect(api.calls()).toHaveLength(1);
  });

  it('finds the website a create answered 204 without a body by listing, matching its Description', async () => {
    const api = mockApi();
    api.reply('POST', '/Rum/Website', 204);
    api.reply('GET', '/Rum/Website', 200, [{ ...site, RumWebsiteId: '11111111-1111-1111-1111-111111111111', Description: 'Blog' }, site]);
    await expect(api.client.rumWebsites.create(body)).resolves.toEqual(site);
    expect(api.calls().map((c) => `${c.method} ${c.url}`)).toEqual(['POST /v4/Rum/Website', 'GET /v4/Rum/Website']);
  });

  it('calls the outcome unclear, without posting again, when neither the answer nor the listing names the website', async () => {
    const api = mockApi();
    api.reply('POST', '/Rum/Website', 204);
    api.reply('GET', '/Rum/Website', 200, []);
    const failure = await api.client.rumWebsites.create(body).catch((error: unknown) => error);
    expect(isUnclearOutcome(failure)).toBe(true);
    expect(api.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('replaces with a PUT of the whole website, its RumWebsiteId in the body too, and deletes with DELETE', async () => {
    const api = mockApi();
    api.reply('PUT', `/Rum/Website/${ID}`, 204);
    api.reply('DELETE', `/Rum/Website/${ID}`, 204);
    await expect(api.client.rumWebsites.replace(ID, body)).resolves.toBeUndefined();
    await api.client.rumWebsites.delete(ID);
    expect(api.calls().map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/v4/Rum/Website/${ID}`, { ...body, RumWebsiteId: ID }],
      ['DELETE', `/v4/Rum/Website/${ID}`, undefined],
    ]);
  });
});
