import { createHash } from 'node:crypto';
import type { Plan, PlanStep } from '@monsync/reconciler';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { gitHubClient } from '../src/github-api.js';
import { tokenLogin, WORKFLOW_TOKEN_LOGIN } from '../src/identity.js';
import { compareWithRecord, planOf, readRecord, recordLine, recordOf, RECORD_BUDGET } from '../src/review-record.js';

const hex = (seed: string): string => seed.repeat(64).slice(0, 64);

function step(id: string, digest: string, dependsOn: string[] = []): PlanStep {
  const [kind = 'monitor', key = id] = id.split(':');
  return { id, action: 'update', kind: kind as PlanStep['kind'], key, changes: [], dependsOn, digest: hex(digest) };
}

function plan(steps: PlanStep[]): Plan {
  const summary = { create: 0, update: steps.length, delete: 0, ensure: 0, unchanged: 0, unmanaged: 0 };
  return { formatVersion: 1, configDigest: hex('c'), liveDigest: hex('d'), planDigest: hex(steps.map((s) => s.digest).join('').slice(0, 1) || 'e'), summary, safe: true, violations: [], steps, unmanaged: [], warnings: [] };
}

describe('the reviewed-plan record', () => {
  it('reads back from the comment line it writes, the last one when there are two', () => {
    const first = recordOf(plan([step('monitor:a', '1')]), 'configs', 'a'.repeat(40));
    const second = recordOf(plan([step('monitor:b', '2')]), 'configs', 'b'.repeat(40));
    const body = `<!-- monsync:plan config=configs -->\n## plan\n${recordLine(first)}\ntext\n${recordLine(second)}\n`;
    expect(readRecord(body)).toEqual(second);
    // Nothing inside could end the HTML comment early.
    expect(recordLine(first).slice('<!-- monsync:reviewed '.length, -' -->'.length)).toMatch(/^[A-Za-z0-9+/=]+$/);
  });

  it('is unreadable, not half-read, when the line was edited', () => {
    const line = recordLine(recordOf(plan([step('monitor:a', '1')]), 'configs', 'a'.repeat(40)));
    const middle = Math.floor(line.length / 2);
    const edited = `${line.slice(0, middle)}${line[middle] === 'A' ? 'B' : 'A'}${line.slice(middle + 1)}`;
    expect(edited).not.toBe(line);
    expect(readRecord(edited)).toBeUndefined();
    expect(readRecord('no record here')).toBeUndefined();
  });

  it('keeps only the whole plan digest when the steps do not fit, and then accepts only that exact plan', () => {
    const many = plan(Array.from({ length: 2000 }, (_, i) => ({ ...step(`monitor:m${i}`, '0'), digest: createHash('sha256').update(String(i)).digest('hex') })));
    const line = recordLine(recordOf(many, 'configs', 'a'.repeat(40)));
    expect(line.length).toBeLessThanOrEqual(RECORD_BUDGET);
    const record = readRecord(line);
    expect(record?.steps).toBeUndefined();
    expect(compareWithRecord(record!, many).held).toEqual([]);
    const other = { ...many, planDigest: hex('f') };
    expect(compareWithRecord(record!, other).held.map((h) => h.reason.why)).toEqual(Array(2000).fill('unreviewable'));
  });
});

describe('comparing the plan made at merge with the record', () => {
  const reviewed = plan([step('monitor:a', '1'), step('monitor:b', '2'), step('monitor:gone', '9')]);
  const record = recordOf(reviewed, 'configs', 'a'.repeat(40));

  it('applies steps with a reviewed digest, holds new and changed ones, and names reviewed steps no longer planned', () => {
    const now = plan([step('monitor:a', '1'), step('monitor:b', '3'), step('monitor:c', '4')]);
    const result = compareWithRecord(record, now);
    expect(result.reviewed.map((s) => s.id)).toEqual(['monitor:a']);
    expect(result.held.map((h) => [h.step.id, h.reason.why])).toEqual([
      ['monitor:b', 'changed'],
      ['monitor:c', 'new'],
    ]);
    expect(result.gone.map((s) => s.key)).toEqual(['b', 'gone']);
  });

  it('holds every step that waits for a held one, also when the dependant comes first in the plan', () => {
    const now = plan([step('monitor:a', '1', ['monitor:x']), step('monitor:b', '2', ['monitor:a']), step('monitor:x', '5')]);
    const result = compareWithRecord(record, now);
    expect(result.reviewed).toEqual([]);
    expect(result.held.map((h) => [h.step.id, h.reason])).toEqual([
      ['monitor:a', { why: 'waits', on: 'monitor:x' }],
      ['monitor:b', { why: 'waits', on: 'monitor:a' }],
      ['monitor:x', { why: 'new' }],
    ]);
  });

  it('counts digests: one reviewed step covers one step of the plan made now, not two', () => {
    const twice = recordOf(plan([step('monitor:a', '1')]), 'configs', 'a'.repeat(40));
    const now = plan([step('monitor:a', '1'), { ...step('monitor:a', '1'), id: 'monitor:a:2' }]);
    expect(compareWithRecord(twice, now).held.map((h) => h.step.id)).toEqual(['monitor:a:2']);
  });

  it('gives the plan of the reviewed steps with its counts', () => {
    const now = plan([step('monitor:a', '1'), step('monitor:c', '4')]);
    const sub = planOf(now, compareWithRecord(record, now).reviewed);
    expect(sub.steps.map((s) => s.id)).toEqual(['monitor:a']);
    expect(sub.summary.update).toBe(1);
  });
});

describe('the token login', () => {
  afterEach(() => nock.cleanAll());
  const client = () => gitHubClient('t', 'https://api.github.com');
  const github = () => nock('https://api.github.com');
  const refused = () => github().get('/user').reply(403, { message: 'Resource not accessible by integration' });
  const viewer = (answer: object, status = 200) => github().post('/graphql').reply(status, answer);

  it('is the login GET /user names for a personal token', async () => {
    github().get('/user').reply(200, { login: 'release-bot' });
    expect(await tokenLogin(client())).toBe('release-bot');
  });

  it("is the bot GraphQL's viewer names for an installation token: the workflow token's, or a GitHub App's <slug>[bot]", async () => {
    refused();
    viewer({ data: { viewer: { login: 'github-actions[bot]', __typename: 'Bot' } } });
    expect(await tokenLogin(client())).toBe(WORKFLOW_TOKEN_LOGIN);
    refused();
    viewer({ data: { viewer: { login: 'monsync-deployer[bot]', __typename: 'Bot' } } });
    expect(await tokenLogin(client())).toBe('monsync-deployer[bot]');
    // A Bot's login without the suffix REST puts on its comments gets it.
    refused();
    viewer({ data: { viewer: { login: 'monsync-deployer', __typename: 'Bot' } } });
    expect(await tokenLogin(client())).toBe('monsync-deployer[bot]');
  });

  it('is github-actions[bot] when neither GET /user nor the viewer answers, and a refused token is an error', async () => {
    refused();
    viewer({ message: 'Not Found' }, 404);
    expect(await tokenLogin(client())).toBe(WORKFLOW_TOKEN_LOGIN);
    github().get('/user').reply(401, { message: 'Bad credentials' });
    await expect(tokenLogin(client())).rejects.toMatchObject({ status: 401 });
  });

  it('is the github-login input when given, without asking GitHub, and is asked once per client', async () => {
    expect(await tokenLogin(client(), ' monsync-deployer[bot] ')).toBe('monsync-deployer[bot]');
    const gh = client();
    github().get('/user').reply(200, { login: 'release-bot' });
    expect(await tokenLogin(gh)).toBe('release-bot');
    expect(await tokenLogin(gh)).toBe('release-bot');
    expect(nock.pendingMocks()).toEqual([]);
  });
});
