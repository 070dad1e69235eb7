import { describe, expect, it } from 'vitest';
import { DEMO, type ProfileName } from '../src/index.js';
import { emulator, VIEWER } from './helpers.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const SITE = { Description: 'Docs', Url: 'https://docs.example.com', IsSpa: true, IncludeUrlFragment: true };

describe('RUM websites', () => {
  it('creates a website with a generated RumScript, lists it in a bare array, replaces it with PUT and deletes it', async () => {
    const api = await emulator();
    const created = await api.post('/Rum/Website', SITE);
    expect(created.status).toBe(201);
    const id = String(created.body['RumWebsiteId']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body['RumScript']).toEqual(expect.stringContaining(id));
    const listed = await api.get('/Rum/Website');
    expect(Array.isArray(listed.json)).toBe(true);
    expect(listed.list).toEqual([created.body]);
    expect(Object.keys(listed.list[0] ?? {}).sort()).toEqual(['Description', 'IncludeUrlFragment', 'IsSpa', 'RumScript', 'RumWebsiteId', 'Url']);
    const put = await api.put(`/Rum/Website/${id}`, { RumWebsiteId: id, Description: 'Docs site', Url: 'https://docs.example.com', IsSpa: false, IncludeUrlFragment: false });
    expect(put.status).toBe(204);
    expect((await api.get(`/Rum/Website/${id}`)).body).toEqual({ ...created.body, Description: 'Docs site', IsSpa: false, IncludeUrlFragment: false });
    expect((await api.delete(`/Rum/Website/${id}`)).status).toBe(204);
    expect((await api.get(`/Rum/Website/${id}`)).status).toBe(404);
  });

  it('gives a website the defaults of the fields its create leaves out, and never takes the RumScript sent', async () => {
    const api = await emulator();
    const created = await api.post('/Rum/Website', { Description: 'Blog', Url: 'https://blog.example.com', RumScript: 'forged' });
    expect(created.body).toMatchObject({ IsSpa: false, IncludeUrlFragment: false });
    expect(created.body['RumScript']).not.toBe('forged');
  });

  it('refuses a website without Description or Url, with a bad Url, or with IncludeUrlFragment but not IsSpa', async () => {
    const api = await emulator();
    const missing = await api.post('/Rum/Website', { IsSpa: true });
    expect(missing.status).toBe(403);
    expect(missing.error).toEqual(expect.arrayContaining(['Description is required.', 'Url is required.']));
    expect((await api.post('/Rum/Website', { Description: 'x', Url: 'shop' })).status).toBe(403);
    const fragment = await api.post('/Rum/Website', { Description: 'x', Url: 'https://x.example.com', IncludeUrlFragment: true });
    expect(fragment.error).toMatch(/IncludeUrlFragment can be true only when IsSpa is true/);
    expect((await api.get('/Rum/Website')).list).toEqual([]);
  });

  it('answers 404 for an unknown website and 400 for a RumWebsiteId in the body that is not the one in the path', async () => {
    const api = await emulator({ seed: 'demo' });
    expect((await api.get(`/Rum/Website/${MISSING}`)).status).toBe(404);
    expect((await api.put(`/Rum/Website/${MISSING}`, SITE)).status).toBe(404);
    expect((await api.delete(`/Rum/Website/${MISSING}`)).status).toBe(404);
    expect((await api.put(`/Rum/Website/${DEMO.rumWebsites.shop}`, { ...SITE, RumWebsiteId: MISSING })).status).toBe(400);
  });

  it('lets only administrators write websites', async () => {
    const api = await emulator({ seed: 'demo' });
    expect((await api.post('/Rum/Website', SITE, VIEWER)).status).toBe(403);
    expect((await api.delete(`/Rum/Website/${DEMO.rumWebsites.shop}`, VIEWER)).status).toBe(403);
    expect((await api.get('/Rum/Website')).list.map((site) => site['Description'])).toEqual(['Shop storefront']);
  });

  it('keeps websites in its saved state', async () => {
    const api = await emulator({ seed: 'demo' });
    await api.post('/Rum/Website', SITE);
    const state = (await api.controlRequest('GET', '/state')).json;
    const other = await emulator();
    expect((await other.controlRequest('PUT', '/state', state)).status).toBe(204);
    expect((await other.get('/Rum/Website')).list.map((site) => site['Description'])).toEqual(['Shop storefront', 'Docs']);
  });
});

describe('RUM websites, as each profile reads what the vendor provider does not show', () => {
  it.each<[ProfileName, number, boolean]>([
    ['default', 201, true],
    ['published', 201, true],
    ['strict', 200, true],
    ['lean', 204, false],
    ['rate-limited', 201, true],
  ])('%s answers a create %i (with the website: %s)', async (profile, status, withBody) => {
    const api = await emulator({ profile, ...(profile === 'rate-limited' ? { rateLimit: { share: 0 } } : {}) });
    const created = await api.post('/Rum/Website', SITE);
    expect(created.status).toBe(status);
    if (withBody) expect(created.body).toMatchObject(SITE);
    else expect(created.text).toBe('');
    expect((await api.get('/Rum/Website')).list).toHaveLength(1);
  });

  it('strict refuses a body holding RumScript, and a create naming its own RumWebsiteId', async () => {
    const api = await emulator({ profile: 'strict', seed: 'demo' });
    expect((await api.post('/Rum/Website', { ...SITE, RumScript: 'x' })).status).toBe(400);
    expect((await api.post('/Rum/Website', { ...SITE, RumWebsiteId: MISSING })).status).toBe(400);
    const put = await api.put(`/Rum/Website/${DEMO.rumWebsites.shop}`, { ...SITE, RumScript: 'x' });
    expect(put.status).toBe(400);
    expect(put.error).toMatch(/RumScript is generated by the service/);
  });

  it.each<ProfileName>(['strict', 'published'])('%s takes only a PUT of the whole website', async (profile) => {
    const api = await emulator({ profile, seed: 'demo' });
    const partial = await api.put(`/Rum/Website/${DEMO.rumWebsites.shop}`, { Description: 'Shop' });
    expect([400, 403]).toContain(partial.status);
    expect(partial.error).toMatch(/Url, IsSpa, IncludeUrlFragment missing/);
    expect((await api.put(`/Rum/Website/${DEMO.rumWebsites.shop}`, { ...SITE, Description: 'Shop' })).status).toBe(204);
  });

  it.each<ProfileName>(['default', 'lean'])('%s merges the fields a PUT sends into the website', async (profile) => {
    const api = await emulator({ profile, seed: 'demo' });
    expect((await api.put(`/Rum/Website/${DEMO.rumWebsites.shop}`, { Description: 'Shop' })).status).toBe(204);
    expect((await api.get(`/Rum/Website/${DEMO.rumWebsites.shop}`)).body).toMatchObject({ Description: 'Shop', Url: 'https://shop.example.com', IsSpa: true });
  });

  it('published drops fields it does not list; default keeps them', async () => {
    const published = await emulator({ profile: 'published' });
    expect((await published.post('/Rum/Website', { ...SITE, Extra: 1 })).body).not.toHaveProperty('Extra');
    const kept = await emulator();
    expect((await kept.post('/Rum/Website', { ...SITE, Extra: 1 })).body).toHaveProperty('Extra', 1);
  });
});
