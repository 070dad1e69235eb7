import { describe, expect, it } from 'vitest';
import { UnexpectedResponseError } from './errors.js';
import { nextCursorAtEnd, Paged, readPage, type NextCursorSeen, type Page } from './paging.js';
import { mockApi } from './test-utils/mock-api.js';

const monitor = (n: number) => ({ MonitorGuid: `m-${n}`, Name: `monitor ${n}`, MonitorType: 'Https', MonitorMode: 'Production', IsActive: true, GenerateAlert: true });

describe('readPage', () => {
  it('reads a bare array with no cursors', () => {
    expect(readPage([1, 2])).toEqual({ items: [1, 2], cursors: {} });
  });
  it('reads the envelope with its cursors, dropping empty ones', () => {
    expect(readPage({ Data: [1], Cursors: { Next: 'n1', Self: 's1' } })).toEqual({ items: [1], cursors: { next: 'n1', self: 's1' } });
    expect(readPage({ Data: [], Cursors: { Next: '', Self: null } })).toEqual({ items: [], cursors: {} });
    expect(readPage({ Data: [3] })).toEqual({ items: [3], cursors: {} });
  });
  it('refuses other shapes', () => {
    expect(readPage({ data: [] })).toBeUndefined();
    expect(readPage('x')).toBeUndefined();
    expect(readPage(undefined)).toBeUndefined();
  });
});

describe('Paged', () => {
  it('iterates lazily: the next batch is fetched only when the current one is used up', async () => {
    const fetched: (string | undefined)[] = [];
    const pages: Record<string, Page<number>> = {
      first: { items: [1, 2], cursors: { next: 'c2' } },
      c2: { items: [3], cursors: {} },
    };
    const paged = new Paged<number>(async (cursor) => {
      fetched.push(cursor);
      return pages[cursor ?? 'first'] ?? { items: [], cursors: {} };
    });
    const iterator = paged[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe(1);
    expect(fetched).toEqual([undefined]);
    await iterator.next();
    await iterator.next();
    expect(fetched).toEqual([undefined, 'c2']);
    expect(await paged.toArray()).toEqual([1, 2, 3]);
  });
});

describe('Paged.toArray', () => {
  const pages: Record<string, Page<number>> = {
    first: { items: [1, 2], cursors: { next: 'c2' } },
    c2: { items: [3], cursors: { next: 'c3' } },
    c3: { items: [4], cursors: {} },
  };

  it('requests the next batch as soon as the fetcher reports its cursor, before the current batch is ready, each batch once', async () => {
    const events: string[] = [];
    const paged = new Paged<number>(async (cursor, seen?: NextCursorSeen) => {
      const name = cursor ?? 'first';
      events.push(`fetch ${name}`);
      const page = pages[name] ?? { items: [], cursors: {} };
      await Promise.resolve();
      // As the client does: the cursor is seen in the response text, the batch is ready once parsed.
      if (page.cursors.next !== undefined) seen?.(page.cursors.next);
      await new Promise((resolve) => setTimeout(resolve, 1));
      events.push(`ready ${name}`);
      return page;
    });
    expect(await paged.toArray()).toEqual([1, 2, 3, 4]);
    // c3 is reported while c2 is still the batch ahead, so it is fetched in turn, once.
    expect(events).toEqual(['fetch first', 'fetch c2', 'ready first', 'ready c2', 'fetch c3', 'ready c3']);
  });

  it('starts no second batch when the fetcher reports a cursor at once', async () => {
    const fetched: (string | undefined)[] = [];
    const paged = new Paged<number>(async (cursor, seen?: NextCursorSeen) => {
      fetched.push(cursor);
      const page = pages[cursor ?? 'first'] ?? { items: [], cursors: {} };
      if (page.cursors.next !== undefined) seen?.(page.cursors.next);
      return page;
    });
    expect(await paged.toArray()).toEqual([1, 2, 3, 4]);
    expect(fetched).toEqual([undefined, 'c2', 'c3']);
  });

  it('fetches the cursor the batch names when the reported one differs, and never requests a cursor already used', async () => {
    const fetched: (string | undefined)[] = [];
    const looping = new Paged<number>(async (cursor, seen?: NextCursorSeen) => {
      fetched.push(cursor);
      if (cursor === undefined) {
        seen?.('elsewhere');
        return { items: [1], cursors: { next: 'c2' } };
      }
      seen?.('c2');
      return { items: [2], cursors: { next: 'c2' } };
    });
    await expect(looping.toArray()).rejects.toThrow(/c2.*twice/);
    expect(fetched).toEqual([undefined, 'elsewhere', 'c2']);
  });

  it('hands back an array of its own, whether the list is one batch or several', async () => {
    const shared = [1, 2];
    const single = new Paged<number>(async () => ({ items: shared, cursors: {} }));
    const list = await single.toArray();
    list.push(3);
    expect(shared).toEqual([1, 2]);
    expect(await single.toArray()).toEqual([1, 2]);
    const chained = new Paged<number>(async (cursor) => ({ items: shared, cursors: cursor === undefined ? { next: 'c2' } : {} }));
    expect(await chained.toArray()).toEqual([1, 2, 1, 2]);
    expect(shared).toEqual([1, 2]);
  });
});

describe('nextCursorAtEnd', () => {
  it('reads Next from cursors that end the envelope, as the service writes them', () => {
    expect(nextCursorAtEnd(JSON.stringify({ Data: [{ Name: 'a' }], Cursors: { Next: 'abc.def', Self: 'xyz.uvw' } }))).toBe('abc.def');
    expect(nextCursorAtEnd(`${JSON.stringify({ Data: [], Cursors: { Next: 'a\\"b', Self: 's' } })}\n`)).toBe('a\\"b');
  });

  it('reads nothing from any other form, so the batch is parsed before the next one is requested', () => {
    expect(nextCursorAtEnd(JSON.stringify({ Data: [1], Cursors: { Self: 'last' } }))).toBeUndefined();
    expect(nextCursorAtEnd(JSON.stringify({ Cursors: { Next: 'n', Self: 's' }, Data: [1] }))).toBeUndefined();
    expect(nextCursorAtEnd(JSON.stringify({ Data: [{ Cursors: { Next: 'inner', Self: 's' } }] }))).toBeUndefined();
    expect(nextCursorAtEnd(JSON.stringify({ Data: [], Cursors: { Next: '', Self: 's' } }))).toBeUndefined();
    expect(nextCursorAtEnd(JSON.stringify({ Data: [] }, null, 2))).toBeUndefined();
    expect(nextCursorAtEnd('[1,2]')).toBeUndefined();
  });
});

describe('cursor following through the client', () => {
  it('follows Cursors.Next over three pages of the envelope, keeping the query', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [monitor(1), monitor(2)], Cursors: { Next: 'cur/2+', Self: 'cur1' } });
    api.reply('GET', '/Monitor', 200, { Data: [monitor(3), monitor(4)], Cursors: { Next: 'cur3', Self: 'cur/2+' } });
    api.reply('GET', '/Monitor', 200, { Data: [monitor(5)], Cursors: { Self: 'cur3' } });
    const names: string[] = [];
    for await (const m of api.client.monitors.list({ Take: 2 })) names.push(m.Name);
    expect(names).toEqual(['monitor 1', 'monitor 2', 'monitor 3', 'monitor 4', 'monitor 5']);
    expect(api.calls().map((c) => c.url)).toEqual(['/v4/Monitor?Take=2', '/v4/Monitor?Take=2&Cursor=cur%2F2%2B', '/v4/Monitor?Take=2&Cursor=cur3']);
  });

  it('follows cursors when pages come as bare arrays mixed with envelopes', async () => {
    const api = mockApi();
    api.reply('GET', '/MonitorGroup/g1/Member', 200, { Data: [monitor(1)], Cursors: { Next: 'a' } });
    api.reply('GET', '/MonitorGroup/g1/Member', 200, { Data: [monitor(2)], Cursors: { Next: 'b' } });
    api.reply('GET', '/MonitorGroup/g1/Member', 200, [monitor(3), monitor(4)]);
    const all = await api.client.monitorGroups.members('g1').toArray();
    expect(all.map((m) => m.MonitorGuid)).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
    expect(api.calls()).toHaveLength(3);
  });

  it("tells toArray's answered when the last batch has arrived, and sends a request started there before that batch is parsed", async () => {
    const events: string[] = [];
    const api = mockApi({ onRequest: (e) => events.push(`request ${e.path}`) });
    api.reply('GET', '/MonitorGroup/g1/Member', 200, { Data: [monitor(1)], Cursors: { Next: 'a', Self: 's' } });
    api.reply('GET', '/MonitorGroup/g1/Member', 200, [monitor(2)]);
    api.reply('GET', '/MonitorGroup/g2/Member', 200, [monitor(3)]);
    let next: Promise<unknown> | undefined;
    const answered = () => {
      events.push('answered');
      next ??= api.client.monitorGroups.members('g2').toArray();
    };
    const first = await api.client.monitorGroups.members('g1').toArray({ answered });
    events.push('g1 parsed');
    expect(first.map((m) => m.MonitorGuid)).toEqual(['m-1', 'm-2']);
    expect(await next).toEqual([{ ...monitor(3) }]);
    expect(events).toEqual(['request /MonitorGroup/g1/Member', 'request /MonitorGroup/g1/Member', 'answered', 'request /MonitorGroup/g2/Member', 'g1 parsed']);
  });

  it('reads a bare-array list in one request', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, [monitor(1), monitor(2), monitor(3)]);
    expect(await api.client.monitors.list().toArray()).toHaveLength(3);
    expect(api.calls()).toHaveLength(1);
  });

  it('returns one batch with its cursors from listPage', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [monitor(9)], Cursors: { Next: 'n', Self: 's' } });
    const page = await api.client.monitors.listPage({ Take: 1, Cursor: 'start' });
    expect(page.items.map((m) => m.Name)).toEqual(['monitor 9']);
    expect(page.cursors).toEqual({ next: 'n', self: 's' });
    expect(api.last().url).toBe('/v4/Monitor?Take=1&Cursor=start');
  });

  it('stops with an error when the service repeats a cursor', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [monitor(1)], Cursors: { Next: 'same' } }).times(3);
    const error = await api.client.monitors.list().toArray().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/cursor "same" a second time/);
    expect(api.calls()).toHaveLength(2);
  });

  it('starts again from the first batch on each iteration', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 200, [{ SlaGuid: 's', Description: 'Gold' }]).times(2);
    const list = api.client.slas.list();
    expect(await list.toArray()).toHaveLength(1);
    expect(await list.toArray()).toHaveLength(1);
    expect(api.calls()).toHaveLength(2);
  });
});

describe('list answers of every shape the service may give', () => {
  const G = '20000000-0000-4000-8000-000000000001';
  const M1 = '10000000-0000-4000-8000-000000000001';
  const M2 = '10000000-0000-4000-8000-000000000002';

  it.each([
    ['an empty 200', 200, undefined],
    ['an empty 204', 204, undefined],
    ['an empty JSON array', 200, []],
    ['an empty envelope', 200, { Data: [], Cursors: {} }],
  ] as const)('reads %s as no items', async (_name, status, body) => {
    const api = mockApi();
    api.reply('GET', '/VaultItem', status, body);
    await expect(api.client.vaultItems.list().toArray()).resolves.toEqual([]);
  });

  it('reads the published bare array of GET /Monitor (no cursor) and the spec cursor-paged envelope alike', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, [monitor(1), monitor(2)]);
    await expect(api.client.monitors.list().toArray()).resolves.toEqual([monitor(1), monitor(2)]);
    api.reply('GET', '/Monitor', 200, { Data: [monitor(1)], Cursors: { Next: 'c2', Self: 'c1' } });
    api.reply('GET', '/Monitor', 200, { Data: [monitor(2)], Cursors: { Self: 'c2' } });
    await expect(api.client.monitors.list().toArray()).resolves.toEqual([monitor(1), monitor(2)]);
    expect(api.calls().map((c) => c.url)).toEqual(['/v4/Monitor', '/v4/Monitor', '/v4/Monitor?Cursor=c2']);
  });

  it.each([
    ['{MonitorGuid} objects (published)', [{ MonitorGuid: M1 }, { MonitorGuid: M2 }]],
    ['bare GUID strings', [M1, M2]],
    ['full monitors', [{ ...monitor(1), MonitorGuid: M1 }, { ...monitor(2), MonitorGuid: M2 }]],
  ] as const)('reads monitor group members given as %s', async (_name, body) => {
    const api = mockApi();
    api.reply('GET', `/MonitorGroup/${G}/Member`, 200, body);
    const members = await api.client.monitorGroups.members(G).toArray();
    expect(members.map((m) => m.MonitorGuid)).toEqual([M1, M2]);
  });

  it.each([
    ['{OperatorGuid} objects (published)', [{ OperatorGuid: M1 }]],
    ['bare GUID strings', [M1]],
  ] as const)('reads operator group members given as %s', async (_name, body) => {
    const api = mockApi();
    api.reply('GET', `/OperatorGroup/${G}/Member`, 200, body);
    await expect(api.client.operatorGroups.members(G).toArray()).resolves.toEqual([{ OperatorGuid: M1 }]);
  });

  it.each([
    ['bare', { AlertType: 'Error', MonitorGuid: M1, Timestamp: '2026-11-20T10:00:00' }],
    ['in an envelope whose Data is the object', { Data: { Id: 'a1', Type: 'Alert', Attributes: { AlertType: 'Error', MonitorGuid: M1, Timestamp: '2026-11-20T10:00:00' } } }],
  ] as const)('reads a single alert answered %s as a one-item list', async (_name, body) => {
    const api = mockApi();
    api.reply('GET', `/Alert/Monitor/${M1}`, 200, body);
    const alerts = await api.client.alerts.byMonitor(M1).toArray();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.Attributes).toEqual({ AlertType: 'Error', MonitorGuid: M1, Timestamp: '2026-11-20T10:00:00' });
  });

  it('still refuses a list answer of an unknown shape, naming what came back', async () => {
    const api = mockApi();
    api.reply('GET', '/VaultItem', 200, { Items: [] });
    const error = await api.client.vaultItems.list().toArray().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain('an object with keys Items');
  });
});
