import { describe, expect, it } from 'vitest';
import { scalar, toYaml } from './yaml-writer.js';

describe('YAML writer', () => {
  it('leaves ordinary words plain and quotes what YAML would read differently', () => {
    expect(scalar('Shop homepage')).toBe('Shop homepage');
    expect(scalar('Web/shop-login')).toBe('Web/shop-login');
    expect(scalar('70606d28-20e3-47ac-ac93-a0147cd7e9eb')).toBe('70606d28-20e3-47ac-ac93-a0147cd7e9eb');
    for (const risky of ['yes', 'No', 'null', '~', '4000', '08:00:00', '2026-11-27', '1_000', '0b101', '0x1F', '+1', '1e3', '.5', '.inf', '-x', '#note', 'a: b', 'ends:', 'x #y', '', ' padded', 'https://example.com', 'a,b', '[x]', '{x}', '*ref', '&anchor', '!tag', '@at', 'line\nbreak']) {
      expect(scalar(risky), risky).toBe(JSON.stringify(risky));
    }
    expect(scalar(99.5)).toBe('99.5');
    expect(scalar(false)).toBe('false');
    expect(scalar(null)).toBe('null');
  });

  it('writes nested data in block style with short scalar entries in flow style', () => {
    const text = toYaml(
      {
        monitors: [
          {
            Name: 'Shop homepage',
            IsActive: true,
            ErrorConditions: [{ ErrorConditionType: 'LoadTimeLimit1', Value: '4000', Effect: 'Error' }],
            Tags: [],
            Schedule: { ScheduleType: 'Weekly', Time: '08:00:00' },
            Nested: { Deep: { Value: 1 } },
          },
        ],
        members: ['a', 'b'],
      },
      ['first comment', '', 'second'],
    );
    expect(text).toBe(
      [
        '# first comment',
        '#',
        '# second',
        'monitors:',
        '  - Name: Shop homepage',
        '    IsActive: true',
        '    ErrorConditions:',
        '      - { ErrorConditionType: LoadTimeLimit1, Value: "4000", Effect: Error }',
        '    Tags: []',
        '    Schedule: { ScheduleType: Weekly, Time: "08:00:00" }',
        '    Nested:',
        '      Deep: { Value: 1 }',
        'members: [a, b]',
        '',
      ].join('\n'),
    );
  });

  it('breaks long entries into block style and skips undefined fields', () => {
    const long = 'x'.repeat(120);
    expect(toYaml({ list: [{ A: long, B: undefined }] })).toBe(`list:\n  - A: ${long}\n`);
  });

  it('refuses values JSON cannot hold instead of writing something else', () => {
    expect(() => toYaml({ n: Number.NaN })).toThrow(/cannot write the number NaN/);
    expect(() => toYaml({ f: () => 1 })).toThrow(/cannot write function at \/f/);
  });
});
