/**
 * RUM websites through `monsync` against the emulator (run under every profile: `MONSYNC_EMULATOR_PROFILE`): bad
 * declarations refused at their position before any write; plan, apply, a second plan empty; pull writes them without
 * the generated RumScript, and `pull --into` writes a web-app edit into the tree in place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { listedRows, monsync, tempTree, useEmulator } from './helpers.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  rumWebsites: { prune: true }\n';
const SITES = [
  '# Websites measured by real user monitoring.',
  'rumWebsites:',
  '  - Description: Shop storefront   # the name the web app shows',
  '    Url: https://shop.example.com',
  '    IsSpa: true',
  '  - { Description: Docs, Url: "https://docs.example.com" }',
  '',
].join('\n');

const suite = useEmulator({ eachTest: { reset: true, clearLog: true } });
const writes = () => suite.emulator.control.requestLog().entries.filter((e) => e.method !== 'GET');

async function webApp(method: string, path: string, body?: unknown): Promise<unknown> {
  const result = await suite.emulator.control.actAs('admin@example.com', { method, path, ...(body === undefined ? {} : { body }) });
  expect(result.status, `${method} ${path}`).toBeLessThan(300);
  return result.body;
}

describe('monsync and RUM websites', () => {
  it.each([
    ['    IncludeUrlFragment: true\n', 'rum-websites.yaml:6:25', 'RUM_FRAGMENT_WITHOUT_SPA'],
    ['    RumScript: "<script></script>"\n', 'rum-websites.yaml:6:5', 'GENERATED_FIELD: `RumScript` is the snippet the service makes'],
    ['    Uri: https://x.example.com\n', 'rum-websites.yaml:6:5', 'UNKNOWN_API_FIELD'],
  ])('refuses a website declaring %j at its position, before any write', async (line, at, said) => {
    const tree = SITES.replace('    IsSpa: true\n', `    IsSpa: false\n${line}`);
    const root = tempTree({ 'monsync.yaml': SETTINGS, 'rum-websites.yaml': tree });
    const applied = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root });
    expect(applied.code).toBe(ExitCode.Error);
    expect(applied.err).toContain(at);
    expect(applied.err).toContain(said);
    expect(writes()).toEqual([]);
  });

  it('plans, applies, plans nothing more; pull writes the websites without RumScript, and the pulled tree plans nothing', async () => {
    const root = tempTree({ 'monsync.yaml': SETTINGS, 'rum-websites.yaml': SITES });
    const planned = await monsync(['plan'], { env: suite.env, cwd: root });
    expect(planned.code).toBe(ExitCode.Ok);
    expect(planned.out).toContain('+ create rumWebsite "Shop storefront"  (rum-websites.yaml:3:5)');
    expect(planned.out).toContain('Plan: 2 to create, 0 to update, 0 to delete');
    expect((await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    const live = suite.emulator.control.dump().rumWebsites ?? [];
    expect(live.map((site) => [site['Description'], site['IsSpa']]).sort()).toEqual([
      ['Docs', false],
      ['Shop storefront', true],
    ]);
    const again = await monsync(['plan', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(again.out).toContain('No changes.');
    expect(again.code).toBe(ExitCode.Ok);

    const out = join(tempTree({}), 'pulled');
    expect((await monsync(['pull', '--out', out], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    const pulled = readFileSync(join(out, 'rum-websites.yaml'), 'utf8');
    expect(pulled.split('\n').filter((line) => !line.startsWith('#'))).toEqual([
      'rumWebsites:',
      '  - { Description: Docs, Url: "https://docs.example.com", IsSpa: false, IncludeUrlFragment: false }',
      '  - Description: Shop storefront',
      '    Url: "https://shop.example.com"',
      '    IsSpa: true',
      '    IncludeUrlFragment: false',
      '',
    ]);
    expect(pulled).not.toMatch(/<script|RumWebsiteId/);
    expect(readFileSync(join(out, 'monsync.yaml'), 'utf8')).toContain('rumWebsites: { prune: false }');
    const pulledPlan = await monsync(['plan', '--config', out, '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(pulledPlan.out).toContain('No changes.');
    expect(pulledPlan.code).toBe(ExitCode.Ok);
  });

  it('pull --into writes a web-app edit of a website into the tree in place, comments kept, and deletes with prune', async () => {
    const root = tempTree({ 'monsync.yaml': SETTINGS, 'rum-websites.yaml': SITES });
    expect((await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    const shop = listedRows(await webApp('GET', '/Rum/Website')).find((site) => site['Description'] === 'Shop storefront');
    await webApp('PUT', `/Rum/Website/${String(shop?.['RumWebsiteId'])}`, { Description: 'Shop storefront', Url: 'https://www.example.com', IsSpa: false, IncludeUrlFragment: false });

    const pulled = await monsync(['pull', '--into', '.'], { env: suite.env, cwd: root });
    expect(pulled.code, pulled.err).toBe(ExitCode.Ok);
    expect(pulled.out).toContain('The tree now plans no changes against the live account.');
    const edited = readFileSync(join(root, 'rum-websites.yaml'), 'utf8');
    expect(edited).toContain('# Websites measured by real user monitoring.');
    expect(edited).toBe(SITES.replace('Url: https://shop.example.com', 'Url: "https://www.example.com"').replace('IsSpa: true', 'IsSpa: false'));
    expect(edited).not.toContain('RumScript');

    const withoutDocs = edited.replace(/ {2}- \{ Description: Docs.*\n/, '');
    const narrowed = tempTree({ 'monsync.yaml': SETTINGS, 'rum-websites.yaml': withoutDocs });
    const pruned = await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: narrowed });
    expect(pruned.code).toBe(ExitCode.Ok);
    expect((suite.emulator.control.dump().rumWebsites ?? []).map((site) => site['Description'])).toEqual(['Shop storefront']);
  });

  it('imports a website made in the web app into the tree, which then plans it unchanged', async () => {
    const settings = SETTINGS.replace('prune: true', 'prune: false');
    const root = tempTree({ 'monsync.yaml': settings, 'rum-websites.yaml': SITES });
    expect((await monsync(['apply', '--auto-approve'], { env: suite.env, cwd: root })).code).toBe(ExitCode.Ok);
    await webApp('POST', '/Rum/Website', { Description: 'Status page', Url: 'https://status.example.com', IsSpa: true, IncludeUrlFragment: true });
    const planned = await monsync(['plan'], { env: suite.env, cwd: root });
    expect(planned.out).toMatch(/\? rumWebsite "Status page" \[[0-9a-f-]{36}\]/);

    const imported = await monsync(['import', 'rumWebsite', 'Status *'], { env: suite.env, cwd: root });
    expect(imported.code, imported.err).toBe(ExitCode.Ok);
    expect(imported.out).toContain('+ RUM website "Status page" (new-objects.yaml)');
    const written = readFileSync(join(root, 'new-objects.yaml'), 'utf8');
    expect(written).toContain('rumWebsites:\n');
    expect(written).toContain('Description: Status page');
    expect(written).not.toMatch(/RumScript|<script/);
    expect(readFileSync(join(root, 'rum-websites.yaml'), 'utf8')).toBe(SITES);
    const again = await monsync(['plan', '--detailed-exitcode'], { env: suite.env, cwd: root });
    expect(again.code, again.out + again.err).toBe(ExitCode.Ok);
    expect(again.out).toContain('No changes.');
  });
});
