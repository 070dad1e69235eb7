import { ClientConfigError } from '@monsync/client';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_MARKER, markdownLength, renderMarkdown } from '../render/markdown.js';
import { aLiveItem, aLiveSection, aMonitor, anItem, aSection, desiredState, liveSnapshot, planFor, secret } from '../test-utils/index.js';
import { checkApiUrlValue, printableUrl } from './api-url.js';
import { unsafeAdvice, violationLines } from './safety.js';
import { operatorValues, ownOperators, selfOperatorGuid } from './session.js';

describe('checkApiUrlValue', () => {
  it('names the setting as the caller calls it and never prints a query or user info', () => {
    const names = { url: 'input api-url', username: 'input api-username', password: 'input api-password' };
    expect(() => checkApiUrlValue('https://user:CANARY-7f3a9c@api.example.com/v4', names)).toThrow(ClientConfigError);
    try {
      checkApiUrlValue('https://user:CANARY-7f3a9c@api.example.com/v4', names);
    } catch (error) {
      expect((error as Error).message).toBe(
        'input api-url must not contain a user name or password: https://api.example.com/v4 (shown without them); put them in input api-username and input api-password',
      );
    }
    expect(() => checkApiUrlValue('https://api.example.com/v4?token=CANARY-7f3a9c', names)).toThrow(/^input api-url must not have a query or fragment: https:\/\/api\.example\.com\/v4 \(/);
    expect(() => checkApiUrlValue('ftp://api.example.com', names)).toThrow('input api-url must use http or https, got ftp:');
    expect(() => checkApiUrlValue('https://api.example.com/v4', names)).not.toThrow();
  });

  it('leaves an empty URL to the caller, who names every missing setting at once', () => {
    expect(() => checkApiUrlValue('  ')).not.toThrow();
    expect(() => checkApiUrlValue(undefined)).not.toThrow();
  });

  it('prints an unparsable URL without what follows ? or # and without user info', () => {
    expect(printableUrl('not a url@host?token=CANARY-7f3a9c')).toBe('host');
  });
});

describe('selfOperatorGuid', () => {
  const live = { operators: [{ OperatorGuid: 'op-1', Email: 'Admin@Example.com' }, { OperatorGuid: 'op-2', Email: 'sam@example.com' }] };

  it('finds the operator by e-mail, ignoring case, or by GUID', () => {
    expect(selfOperatorGuid(live, ' admin@example.com ')).toBe('op-1');
    expect(selfOperatorGuid(live, 'op-2')).toBe('op-2');
  });

  it('keeps an unknown value as given (operators unreadable), and nothing when unset', () => {
    expect(selfOperatorGuid({ operators: null }, 'op-9')).toBe('op-9');
    expect(selfOperatorGuid(live, '')).toBeUndefined();
    expect(selfOperatorGuid(live, undefined)).toBeUndefined();
  });
});

describe('ownOperators', () => {
  const live = { operators: [{ OperatorGuid: 'op-1', Email: 'plan-bot@example.com' }, { OperatorGuid: 'op-2', Email: 'apply-bot@example.com' }] };

  it('resolves a list of e-mails and GUIDs, separated by commas, spaces or lines', () => {
    expect(ownOperators(live, 'Plan-Bot@example.com, op-2')).toEqual({ guids: ['op-1', 'op-2'], unmatched: [] });
    expect(ownOperators(live, ['plan-bot@example.com\napply-bot@example.com'])).toEqual({ guids: ['op-1', 'op-2'], unmatched: [] });
    expect(operatorValues(' a@x.io ,, b@x.io\n')).toEqual(['a@x.io', 'b@x.io']);
  });

  it('lists a value that matches no operator read, and keeps it as given; nothing is unmatched when operators are unreadable', () => {
    expect(ownOperators(live, 'plan-bot@example.com,typo@example.com')).toEqual({ guids: ['op-1', 'typo@example.com'], unmatched: ['typo@example.com'] });
    expect(ownOperators({ operators: null }, 'op-9')).toEqual({ guids: ['op-9'], unmatched: [] });
  });

  it('finds them in the operator listing when operators were not read for drift (a tree managing only people)', () => {
    const people = { operators: null, lists: { operator: live.operators } };
    expect(ownOperators(people, 'apply-bot@example.com, typo@example.com')).toEqual({ guids: ['op-2', 'typo@example.com'], unmatched: ['typo@example.com'] });
  });
});

describe('unsafeAdvice', () => {
  const violations = [{ kind: 'monitor' as const, action: 'update' as const, count: 3, total: 4, percent: 75, limit: 50, message: 'x' }];

  it('names the CLI flag by default and another override when asked', () => {
    expect(unsafeAdvice(violations)).toBe('Review the plan. If it is what you want: --allow-unsafe accepts it (monsync apply --allow-unsafe); or raise safety.maxUpdatePercent in monsync.yaml.');
    expect(unsafeAdvice(violations, { name: 'the input allow-unsafe', example: 'allow-unsafe: true' })).toContain('the input allow-unsafe accepts it (allow-unsafe: true)');
  });

  it('names the setting each violation gives, relations included, once each', () => {
    const relation = { ...violations[0]!, kind: 'groupMembership', action: 'delete' as const, setting: 'safety.relations.maxDeletePercent' };
    expect(unsafeAdvice([relation, relation, ...violations])).toContain('raise safety.relations.maxDeletePercent and safety.maxUpdatePercent in monsync.yaml');
  });
});

describe('violationLines', () => {
  it('says each rule in its words, and reads a plan of an earlier release (no rule, no count)', () => {
    const base = { kind: 'monitor', action: 'delete' as const, count: 4, total: 5, percent: 80, limit: 30, message: 'x' };
    expect(
      violationLines([
        { ...base, rule: 'share', minCount: 3, setting: 'safety.maxDeletePercent' },
        { ...base, count: 2, total: 2, percent: 100, rule: 'every', minCount: 3, setting: 'safety.maxDeletePercent' },
        { ...base, kind: '*', rule: 'together', minCount: 3, setting: 'safety.maxDeletePercent' },
        { ...base, kind: 'groupMembership', rule: 'share', minCount: 10, setting: 'safety.relations.maxDeletePercent' },
        base,
      ]),
    ).toEqual([
      '  monitor: deletes 4 of 5 (80%), over 30% and at least 3 (safety.maxDeletePercent, safety.minDeleteCount)',
      '  monitor: deletes every one of 2 (safety.maxDeletePercent)',
      '  objects of all kinds together: deletes 4 of 5 (80%), over 30% and at least 3 (safety.maxDeletePercent, safety.minDeleteCount)',
      '  groupMembership: deletes 4 of 5 (80%), over 30% and at least 10 (safety.relations.maxDeletePercent, safety.relations.minDeleteCount)',
      '  monitor: deletes 4 of 5 (80%), limit 30% (safety.maxDeletePercent)',
    ]);
  });
});

describe('renderMarkdown override option', () => {
  // A vault item the account has, which monsync never applied: no fingerprint marker in its Notes.
  // minUpdateCount 1: one update of one item is over the thresholds.
  const desired = desiredState({ safety: { minUpdateCount: 1 }, vaultSections: [aSection({}, [anItem({ Password: secret('CANARY-7f3a9c-pw', 'SHOP_PASSWORD') })])] });
  const plan = planFor(desired, liveSnapshot({ vaultSections: [aLiveSection()], vaultItems: [aLiveItem('Web')] }));

  it('names the way past an unsafe plan the caller gives, and says why an item without a fingerprint is updated', () => {
    expect(plan.safe).toBe(false);
    const text = renderMarkdown(plan, { override: { name: 'the input allow-unsafe: true', example: 'set it on the apply step' } });
    expect(text).toContain('> **Unsafe plan:** apply refuses it without the input allow-unsafe: true.');
    expect(text).not.toContain('--allow-unsafe');
    expect(text).toContain('> 1 of the updates is there only because that vault item carries no monsync fingerprint marker yet');
    expect(text).not.toContain('CANARY-7f3a9c');
  });

  it('keeps the CLI flag without the option', () => {
    expect(renderMarkdown(plan)).toContain('apply refuses it without `--allow-unsafe`.');
  });
});

describe('renderMarkdown marker option', () => {
  const plan = planFor(desiredState({ monitors: [aMonitor({ Name: 'Shop' })] }), liveSnapshot({}));

  it('starts the comment with the given marker instead of the shared one', () => {
    const text = renderMarkdown(plan, { marker: '<!-- monsync:plan config=configs -->' });
    expect(text.split('\n')[0]).toBe('<!-- monsync:plan config=configs -->');
    expect(text).not.toContain(MARKDOWN_MARKER);
    expect(renderMarkdown(plan).split('\n')[0]).toBe(MARKDOWN_MARKER);
  });
});

describe('renderMarkdown intro and footer', () => {
  const many = planFor(desiredState({ monitors: Array.from({ length: 400 }, (_, i) => aMonitor({ Name: `Monitor ${i}`, Url: `https://example.com/${i}` })) }), liveSnapshot({}));

  it('keeps the intro under the heading and the footer at the end, both inside the budget, when the steps are cut', () => {
    const text = renderMarkdown(many, { budget: 6_000, intro: '**Applied: 3 of 3 steps done.**', footer: '<sub>commit abc1234</sub>' });
    expect(markdownLength(text)).toBeLessThanOrEqual(6_000);
    expect(text.split('\n').slice(0, 4)).toEqual([MARKDOWN_MARKER, '## monsync plan', '', '**Applied: 3 of 3 steps done.**']);
    expect(text.endsWith('\n<sub>commit abc1234</sub>\n')).toBe(true);
    expect(text).toContain('are not shown: this comment is limited to 6,000 characters');
  });

  it('adds nothing when neither is given', () => {
    expect(renderMarkdown(many, { budget: 6_000, intro: '', footer: '' })).toBe(renderMarkdown(many, { budget: 6_000 }));
  });
});
