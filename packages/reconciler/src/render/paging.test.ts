import { describe, expect, it } from 'vitest';
import { parsePlanFile, type PlanPaging, type PlanPagingLevel } from '@monsync/schema';
import type { Plan } from '../plan/types.js';
import { anEmptyPlan } from '../test-utils/index.js';
import { renderMarkdown } from './markdown.js';
import { shownValue } from './escape.js';
import { definitionLines, pagingMermaid, pagingTextLines } from './paging.js';
import { renderText } from './text.js';

/** 7 days from Monday 2 March 2026 00:00 UTC, somebody on duty 00:00-20:00 each day. */
const FROM = '2026-03-02T00:00:00Z';
const DAYTIME = `${'#'.repeat(20)}....`.repeat(7);
const gapsOfDaytime = Array.from({ length: 7 }, (_, d) => ({ from: `2026-03-${String(2 + d).padStart(2, '0')}T20:00:00Z`, to: `2026-03-${String(3 + d).padStart(2, '0')}T00:00:00Z`, hours: 4 }));

function level(id: number, reaches: string[], fields: Partial<PlanPagingLevel> = {}): PlanPagingLevel {
  return {
    id,
    active: true,
    escalationMode: 'AlertOnErrorCount',
    thresholdErrorCount: id + 1,
    operators: reaches.filter((r) => !r.startsWith('group:')),
    operatorGroups: [],
    reaches,
    timeZone: 'UTC',
    from: FROM,
    onDuty: (reaches.length === 0 ? '.' : '#').repeat(168),
    nobodyOnDuty: reaches.length === 0 ? [{ from: FROM, to: '2026-03-09T00:00:00Z', hours: 168 }] : [],
    ...fields,
  };
}

function paging(key: string, names: { operator: string; group: string; monitor: string }): PlanPaging {
  return {
    now: FROM,
    hours: 168,
    reading: 'on-duty',
    definitions: [
      {
        key,
        before: { active: true, monitors: [names.monitor], monitorGroups: [], levels: [level(1, [names.operator]), level(2, [])] },
        after: {
          active: true,
          monitors: [names.monitor],
          monitorGroups: ['Shop'],
          levels: [
            level(1, ['ann@example.com', names.operator], {
              operators: [],
              operatorGroups: [{ key: names.group, members: ['ann@example.com', names.operator] }],
              onDuty: DAYTIME,
              nobodyOnDuty: gapsOfDaytime,
            }),
            level(2, ['cat@example.com'], { escalationMode: 'AlertOnErrorDuration', thresholdMinutes: 30 }),
          ],
        },
      },
    ],
  };
}

function planWith(section: PlanPaging | undefined): Plan {
  const plan = anEmptyPlan();
  if (section !== undefined) plan.paging = section;
  return plan;
}

const PLAIN = paging('Shop on-call', { operator: 'bob@example.com', group: 'Night shift', monitor: 'Shop homepage' });

describe('who gets paged, rendered', () => {
  it('shows each level before and after in the text plan, with the hours and a grid where they differ', () => {
    expect(pagingTextLines(PLAIN, (_style, text) => text)).toEqual([
      '',
      "Who gets paged: the escalation path of each alert definition this plan changes, before and after: each level's threshold and whom it reaches (groups expanded), with the hours somebody is on duty in the next 7 days from 2026-03-02 00:00 UTC.",
      '  # somebody the level reaches is on duty, + part of the hour, . nobody on duty',
      '',
      '  alert definition "Shop on-call" (changed, active)',
      '    covers before: monitors "Shop homepage"',
      '    covers after:  monitor groups "Shop"; monitors "Shop homepage"',
      '    level 1 (after 2 errors)',
      '      before: reaches "bob@example.com" (operators "bob@example.com")',
      '      after:  reaches "ann@example.com", "bob@example.com" (group "Night shift": "ann@example.com", "bob@example.com")',
      '      hours somebody is on duty: 168 of 168 -> 140 of 168 (UTC)',
      '      nobody on duty after the plan: Mon 02 Mar 20:00-Tue 03 Mar 00:00 (4 hours), Tue 03 Mar 20:00-Wed 04 Mar 00:00 (4 hours), Wed 04 Mar 20:00-Thu 05 Mar 00:00 (4 hours), Thu 05 Mar 20:00-Fri 06 Mar 00:00 (4 hours) and 3 more spans',
      '                  before                     after',
      '                  00    06    12    18       00    06    12    18',
      '      Mon 02 Mar  ########################   ####################....',
      '      Tue 03 Mar  ########################   ####################....',
      '      Wed 04 Mar  ########################   ####################....',
      '      Thu 05 Mar  ########################   ####################....',
      '      Fri 06 Mar  ########################   ####################....',
      '      Sat 07 Mar  ########################   ####################....',
      '      Sun 08 Mar  ########################   ####################....',
      '    level 2 (after 3 errors -> after 30 minutes)',
      '      before: reaches nobody',
      '      after:  reaches "cat@example.com" (operators "cat@example.com")',
      '      hours somebody is on duty: 0 of 168 -> 168 of 168 (UTC)',
    ]);
  });

  it('draws the path as a Mermaid flowchart, before and after, in the pull-request comment', () => {
    expect(pagingMermaid(PLAIN.definitions[0] ?? { key: '' }).split('\n')).toEqual([
      '```mermaid',
      'flowchart LR',
      '  subgraph was["before"]',
      '    direction LR',
      '    was_d["Shop on-call<br/>active, covers 0 monitor groups, 1 monitor"]',
      '    was_d --> was_l1["level 1<br/>after 2 errors<br/>somebody on duty 168 of 168 h"]',
      '    was_l1 --> was_l1_0["bob@example.com"]',
      '    was_l1 --> was_l2["level 2<br/>after 3 errors<br/>somebody on duty 0 of 168 h"]',
      '    was_l2 --- was_l2_n["nobody"]',
      '  end',
      '  subgraph will["after"]',
      '    direction LR',
      '    will_d["Shop on-call<br/>active, covers 1 monitor group, 1 monitor"]',
      '    will_d --> will_l1["level 1<br/>after 2 errors<br/>somebody on duty 140 of 168 h"]',
      '    will_l1 --> will_l1_0["group Night shift"]',
      '    will_l1_0 --> will_l1_0_0["ann@example.com"]',
      '    will_l1_0 --> will_l1_0_1["bob@example.com"]',
      '    will_l1 --> will_l2["level 2<br/>after 30 minutes<br/>somebody on duty 168 of 168 h"]',
      '    will_l2 --> will_l2_0["cat@example.com"]',
      '  end',
      '```',
    ]);
    const markdown = renderMarkdown(planWith(PLAIN));
    expect(markdown).toContain('### Who gets paged\n\nThe escalation path of each alert definition this plan changes');
    expect(markdown).toContain('> [!WARNING]\n> `Shop on-call` has nobody on duty at level 1 in 28 hours of the next 7 days.');
    expect(markdown).toContain('#### Alert definition `Shop on-call`: changed\n\n```mermaid\nflowchart LR\n');
    // The same facts as text, for readers and logs that do not draw diagrams.
    expect(markdown).toContain(`<details><summary>Levels, people and hours as text</summary>\n\n\`\`\`text\n# somebody the level reaches is on duty, + part of the hour, . nobody on duty\n${definitionLines(PLAIN.definitions[0] ?? { key: '' }).join('\n')}\n\`\`\``);
    expect(renderText(planWith(PLAIN))).toContain('\nWho gets paged: ');
  });

  it("leaves a definition whose alertsReachSomeone finding is waived out of the warning, and says where the waiver is", () => {
    const shop = PLAIN.definitions[0] ?? { key: '' };
    const waived = { ...shop, key: 'Night <b>pager</b>', waived: { file: 'alerts.yaml', line: 7, column: 9 } };
    const markdown = renderMarkdown(planWith({ ...PLAIN, definitions: [shop, waived] }));
    expect(markdown).toContain(
      '> [!WARNING]\n> `Shop on-call` has nobody on duty at level 1 in 28 hours of the next 7 days.\n\n' +
        '> [!NOTE]\n> `Night <b>pager</b>` has nobody on duty at level 1 in 28 hours of the next 7 days; its `alertsReachSomeone` finding is waived (alerts.yaml:7:9).\n',
    );
    const onlyWaived = renderMarkdown(planWith({ ...PLAIN, definitions: [waived] }));
    expect(onlyWaived).not.toContain('[!WARNING]');
    expect(onlyWaived).toContain('> [!NOTE]\n> `Night <b>pager</b>` has nobody on duty');
  });

  it("prints a waived definition's hours with nobody on duty in the text plan as the waiver's note, not in red", () => {
    const shop = PLAIN.definitions[0] ?? { key: '' };
    const waived = { ...shop, key: 'Night pager', waived: { file: 'alerts.yaml', line: 7, column: 9 } };
    const red = '\u001b[31m';
    const nobody = (text: string, key: string) => text.split('\n').slice(text.split('\n').findIndex((l) => l.includes(`alert definition "${key}"`))).find((l) => l.includes('nobody on duty after the plan')) ?? '';
    const text = renderText(planWith({ ...PLAIN, definitions: [shop, waived] }), { color: true });
    expect(nobody(text, 'Shop on-call')).toContain(`${red}nobody on duty after the plan: `);
    const line = nobody(text, 'Night pager');
    expect(line).not.toContain(red);
    expect(line).toMatch(/nobody on duty after the plan: .*; the definition's `alertsReachSomeone` finding is waived \(alerts\.yaml:7:9\)$/);
    // The comment's text block says the same.
    expect(renderMarkdown(planWith({ ...PLAIN, definitions: [waived] }))).toContain("; the definition's `alertsReachSomeone` finding is waived (alerts.yaml:7:9)\n");
  });

  it('says how many definitions were left out', () => {
    const markdown = renderMarkdown(planWith({ ...PLAIN, omitted: 7 }));
    expect(markdown).toContain('7 more definitions whose path changes are not shown (the plan lists at most 1): see the plan JSON (`paging`).');
    expect(renderText(planWith({ ...PLAIN, omitted: 1 }))).toContain('  1 more definition whose path changes is not shown (the plan lists at most 1).');
  });

  it('writes a plan file the plan schema accepts, the paging section included', async () => {
    const plan = planWith(PLAIN);
    await expect(parsePlanFile(JSON.stringify(plan))).resolves.toEqual(JSON.parse(JSON.stringify(plan)));
    const broken = { ...PLAIN, definitions: [{ key: 'x', after: { active: true, levels: [{ id: 1, active: true, onDuty: 'x' }] } }] };
    await expect(parsePlanFile(JSON.stringify({ ...plan, paging: broken }))).rejects.toThrow(/paging/);
  });

  it('adds nothing to a plan without a preview', () => {
    expect(renderText(planWith(undefined))).not.toContain('Who gets paged');
    expect(renderMarkdown(planWith(undefined))).not.toContain('Who gets paged');
  });
});

/** Markdown with its fenced blocks (closed by a fence of their own length or longer) and code spans taken out. */
function outsideCode(markdown: string): string {
  const kept: string[] = [];
  let open: string | undefined;
  for (const line of markdown.split('\n')) {
    const fence = /^(`{3,})/.exec(line)?.[1];
    if (open === undefined && fence !== undefined) open = fence;
    else if (open !== undefined && fence !== undefined && fence.length >= open.length && line.trim() === fence) open = undefined;
    else if (open === undefined) kept.push(line.replace(/(`+)[\s\S]*?\1/g, ''));
  }
  return kept.join('\n');
}

describe('who gets paged, with hostile names from the account and the tree', () => {
  const HOSTILE = {
    key: 'Shop"] --> X[pwned]\n```\n<img src=x onerror=alert(1)> %%{init: {}}%% #quot; `tick`',
    operator: 'eve"]-->evil@example.com\u202e',
    group: 'Night]] --> Z\r\n<script>alert(1)</script>',
    monitor: '```js\n## [x](javascript:alert(1)) ::warning::forged',
  };
  const hostile = paging(HOSTILE.key, HOSTILE);
  /** What a quoted label may hold: plain characters, entity codes, and the line breaks monsync writes. */
  const SAFE_LABEL = /^"(?:[\p{L}\p{N} .,@_+:/()'?!=*$^~-]|#\d+;|<br\/>)*"$/u;
  const LINE = /^(?:```mermaid|flowchart LR|```| {2}end| {4}direction LR| {2}subgraph \w+(\[.*\])| {4}\w+(\[.*\])| {4}\w+ (?:-->|-\.->|---) \w+(\[.*\]))$/;

  it('keeps every Mermaid label inside its quotes: no quote, bracket, arrow, HTML, comment, backtick or line break gets out', () => {
    const diagram = pagingMermaid(hostile.definitions[0] ?? { key: '' });
    const lines = diagram.split('\n');
    for (const line of lines) {
      const match = LINE.exec(line);
      expect(match, line).not.toBeNull();
      const label = (match?.[1] ?? match?.[2] ?? match?.[3])?.slice(1, -1);
      if (label !== undefined) expect(label, line).toMatch(SAFE_LABEL);
    }
    expect(lines.filter((l) => l.startsWith('```'))).toEqual(['```mermaid', '```']);
    expect(diagram).not.toContain('<img');
    expect(diagram).not.toContain('%%');
    expect(diagram).toContain('was_d["Shop#34;#93; --#62; X#91;pwned#93;#92;n#96;#96;#96;#92;n#60;img src=x onerror=alert(1)#62; #37;#37;#123;init: #123;#125;#125;#37;#37; #35;quot#59; #96;tick#96;<br/>');
    expect(diagram).toContain('["eve#34;#93;--#62;evil@example.com#92;u202e"]');
  });

  it('shows hostile names escaped in the text plan and the comment, one line each', () => {
    const text = renderText(planWith(hostile));
    expect(text).toContain(`alert definition ${shownValue(HOSTILE.key)} (changed, active)`);
    expect(text).toContain(`group ${shownValue(HOSTILE.group)}: "ann@example.com", ${shownValue(HOSTILE.operator)}`);
    expect(text).not.toContain('\u202e');
    expect(text).not.toMatch(/^::warning/m);
    for (const name of Object.values(HOSTILE)) expect(text).not.toContain(name);
    const markdown = renderMarkdown(planWith(hostile));
    // Outside code (fenced blocks and code spans, where Markdown shows text as written) no HTML gets through.
    expect(outsideCode(markdown)).not.toMatch(/<img|<script|javascript:/);
    expect(markdown).not.toContain('\u202e');
    for (const name of Object.values(HOSTILE)) expect(markdown).not.toContain(name);
    // Every fence the comment opens is closed by its own: the hostile backticks cannot end the text block early.
    const fences = markdown.split('\n').filter((line) => /^`{3,}/.test(line));
    expect(fences.length % 2).toBe(0);
  });
});
