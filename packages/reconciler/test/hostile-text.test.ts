/**
 * Text monsync did not write (names and fields from the service, file names, config values) in every field the plan
 * renderers show, asserted line by line: nothing forges a line of the plan, reaches the terminal as a control, starts
 * a workflow command, or acts as Markdown. The same strings go through the action and the CLI in their own suites.
 */
import { describe, expect, it } from 'vitest';
import { describeHolder, renderJson, renderMarkdown, renderPolicySection, renderStepList, renderText, type Plan } from '../src/index.js';
import { aLiveMonitor, aLiveRumWebsite, aMonitor, aRumWebsite, at, desiredState, guidFor, liveSnapshot, OTHER_OPERATOR, planFor } from '../src/test-utils/index.js';

/** An operator's FullName as anyone with web-app access can set it. */
const OPERATOR = 'Jane\n+     Url: "https://evil"\n::warning ::x \u001b]52;c;ZXZpbA==\u0007\u001b[2K\u001b[1A <img src=x onerror=alert(1)> \u202Eabc\u200B';
/** A monitor's name, made in the web app. */
const NAME = 'Shop\n+ create monitor "x"\n```\n## heading <!-- monsync:plan --> ##[warning]y';
/** A file of the tree. */
const FILE = '::stop-commands::tok\n<b>x</b>.yaml';
/** A policy rule, its message and fix, as a tree may name and word them. */
const RULE = '`rule` ## [x](https://evil)';

function hostilePlan(): Plan {
  const plan = planFor(
    desiredState({
      manage: { monitors: { prune: false } },
      monitors: [aMonitor({ Name: NAME, Url: `https://example.com/${'a'.repeat(400)}z`, IsActive: false }, at(FILE, '', 3)), aMonitor({ Name: 'Si\u200Bte' }, at('m.yaml', '', 9)), aMonitor({ Name: 'Site\u00A0' }, at('m.yaml', '', 10))],
    }),
    liveSnapshot({
      monitors: [
        aLiveMonitor({ Name: NAME, Url: `https://example.com/${'a'.repeat(400)}y`, LastModifiedByOperatorId: OTHER_OPERATOR, LastModifiedDate: '2026-01-02T00:00:00\n::error::z' }),
        aLiveMonitor({ Name: 'Site' }),
        aLiveMonitor({ Name: '`evil`\u001b[31m' }),
      ],
      operators: [{ OperatorGuid: OTHER_OPERATOR, FullName: OPERATOR, Email: 'jane@example.com' }],
    }),
  );
  return {
    ...plan,
    warnings: [{ code: 'SERVICE_SAID', message: 'the service said:\n## pwned \u001b[2J' }],
    policy: [{ rule: RULE, severity: 'warning', message: '<!-- monsync:plan -->\n- forged', fix: '```\nfix', kind: 'monitor', key: NAME, file: FILE, line: 3, column: 5 }],
  };
}

const SHOP_GUID = guidFor('monitor', NAME);
const UNMANAGED_GUID = guidFor('monitor', '`evil`\u001b[31m');
const SHOWN_NAME = '"Shop\\n+ create monitor \\"x\\"\\n```\\n## heading <!-- monsync:plan --> ##\\u005bwarning]y"';
const SHOWN_FILE = '\\u003a:stop-commands::tok\\n<b>x</b>.yaml';
const SHOWN_OPERATOR = 'Jane\\n+     Url: "https://evil"\\n::warning ::x \\u001b]52;c;ZXZpbA==\\u0007\\u001b[2K\\u001b[1A <img src=x onerror=alert(1)> \\u202eabc\\u200b';
const URL_BEFORE = `"https://example.com/aaa…(+357 chars)…${'a'.repeat(40)}y"`;
const URL_AFTER = `"https://example.com/aaa…(+357 chars)…${'a'.repeat(40)}z"`;

/** A raw control, format character (bidi, zero-width) or separator, within a line. */
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('hostile text in the text plan (terminal and Actions log)', () => {
  const text = renderText(hostilePlan());
  const lines = text.split('\n');

  it('shows every name, file, operator and value on its own line, escaped', () => {
    expect(lines).toContain(`  ~ update monitor ${SHOWN_NAME} [${SHOP_GUID}]  (${SHOWN_FILE}:3:5)`);
    expect(lines).toContain(`      ~ Url: ${URL_BEFORE} -> ${URL_AFTER}`);
    expect(lines).toContain(`      drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-02T00:00:00\\n::error::z`);
    expect(lines).toContain(`  ? monitor "\`evil\`\\u001b[31m" [${UNMANAGED_GUID}]`);
    expect(lines).toContain('  ! SERVICE_SAID: the service said:\\n## pwned \\u001b[2J');
    expect(lines).toContain(`  ! \`rule\` ## [x](https://evil): <!-- monsync:plan -->\\n- forged  (${SHOWN_FILE}:3:5)`);
    expect(lines).toContain('      fix: ```\\nfix');
  });

  it('shows look-alike names apart: zero-width and NBSP escaped', () => {
    expect(lines).toContain('  + create monitor "Si\\u200bte"  (m.yaml:9:5)');
    expect(lines).toContain('  + create monitor "Site\\u00a0"  (m.yaml:10:5)');
    expect(lines).toContain('      + Name: "Si\\u200bte"');
  });

  it('writes no control character, no forged plan line, and no line a runner takes for a command', () => {
    expect(lines.filter((line) => RAW.test(line))).toEqual([]);
    expect(lines.filter((line) => /^\s*[+~-] /.test(line) && line.includes('evil'))).toEqual([]);
    expect(lines.filter((line) => /^\s*::/.test(line) || line.includes('##['))).toEqual([]);
  });
});

describe('hostile text in the Markdown comment', () => {
  const md = renderMarkdown(hostilePlan());
  const lines = md.split('\n');

  it('keeps every name inside its line of the diff block, which it cannot close', () => {
    expect(lines).toContain('````diff');
    expect(lines).toContain(`! update monitor ${SHOWN_NAME} [${SHOP_GUID}]  (${SHOWN_FILE}:3:5)`);
    expect(lines).toContain(`-     Url: ${URL_BEFORE}`);
    expect(lines).toContain(`+     Url: ${URL_AFTER}`);
    expect(lines).toContain(`#     drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-02T00:00:00\\n::error::z`);
    expect(lines).toContain('+ create monitor "Si\\u200bte"  (m.yaml:9:5)');
    // The only lines of the block that start like a planned change are monsync's own.
    const block = lines.slice(lines.indexOf('````diff') + 1, lines.indexOf('````'));
    expect(block.filter((line) => line.startsWith('+') || line.startsWith('-')).every((line) => /^[+-] (create|delete)|^[+-] {5}[A-Za-z]/.test(line))).toBe(true);
    expect(block.filter((line) => line.includes('https://evil'))).toEqual([`#     drift: changed outside git by ${SHOWN_OPERATOR} at 2026-01-02T00:00:00\\n::error::z`]);
  });

  it('shows names outside code as text: no HTML, marker, heading, link or code span of theirs', () => {
    expect(lines).toContain(
      '| monitor "Shop\\\\n+ create monitor \\\\"x\\\\"\\\\n\\`\\`\\`\\\\n## heading &lt;!-- monsync:plan --&gt; ##\\\\u005bwarning\\]y" | ' +
        'Jane\\\\n+     Url: "https://evil"\\\\n::warning ::x \\\\u001b\\]52;c;ZXZpbA==\\\\u0007\\\\u001b\\[2K\\\\u001b\\[1A &lt;img src=x onerror=alert(1)&gt; \\\\u202eabc\\\\u200b | ' +
        '2026-01-02T00:00:00\\\\n::error::z | sets back IsActive, Url |',
    );
    expect(lines).toContain(`- monitor "\\\`evil\\\`\\\\u001b\\[31m" (${UNMANAGED_GUID})`);
    expect(lines).toContain('- `SERVICE_SAID` the service said:\\\\n## pwned \\\\u001b\\[2J');
    expect(lines).toContain(
      '- **warning** `` `rule` ## [x](https://evil) `` monitor "Shop\\\\n+ create monitor \\\\"x\\\\"\\\\n\\`\\`\\`\\\\n## heading &lt;!-- monsync:plan --&gt; ##\\\\u005bwarning\\]y" ' +
        '(`\\u003a:stop-commands::tok\\n<b>x</b>.yaml:3:5`): &lt;!-- monsync:plan --&gt;\\\\n- forged. Fix: \\`\\`\\`\\\\nfix.',
    );
    // Inside the diff block a name is code (shown, inert); outside it, only monsync's marker opens an HTML comment.
    const outside = [...lines.slice(0, lines.indexOf('````diff')), ...lines.slice(lines.indexOf('````') + 1)];
    expect(outside.filter((line) => line.includes('<!--'))).toEqual(['<!-- monsync:plan -->']);
    expect(outside.join('\n')).not.toMatch(/<img/);
    expect(outside.filter((line) => /^\s*#{1,6} /.test(line))).toEqual(['## monsync plan', '### Policy: 0 errors, 1 warning', '### Drift: changed outside git', '### Warnings']);
  });

  it('does the same in the Policy section and step list the action shows alone', () => {
    const plan = hostilePlan();
    const policy = renderPolicySection(plan, 10_000, () => '');
    expect(policy).not.toMatch(/<!--|<img|\n- forged/);
    const steps = renderStepList(plan.steps, 10_000, () => '');
    expect(steps.split('\n')[0]).toBe('````diff');
    expect(steps.split('\n')).toContain(`! update monitor ${SHOWN_NAME} [${SHOP_GUID}]  (${SHOWN_FILE}:3:5)`);
  });
});

describe('the JSON plan', () => {
  it('keeps every value exactly as it is', () => {
    const json = JSON.parse(renderJson(hostilePlan())) as Plan;
    const step = json.steps.find((s) => s.key === NAME);
    expect(step?.source?.file).toBe(FILE);
    expect(step?.drift?.operatorName).toBe(OPERATOR);
    expect(step?.changes.find((c) => c.path === '/Url')?.after).toBe(`https://example.com/${'a'.repeat(400)}z`);
  });
});

describe('hostile text in a RUM website\'s Description, in every plan output', () => {
  /** A website's name, set in the web app (live) or written in the tree (declared). */
  const LIVE = 'Shop\n+ create rumWebsite "x"\n````\n<!-- monsync:plan --> ::warning ::y \u001b[2J\u202E';
  const DECLARED = 'Docs\n- delete rumWebsite "Shop"\n## [x](https://evil) <img src=x>';
  const UNMANAGED = '`evil`\u001b[31m\u200B';
  const pinnedId = guidFor('rumWebsite', LIVE);
  const plan = planFor(
    desiredState({ manage: { rumWebsites: { prune: false } }, rumWebsites: [aRumWebsite({ Description: 'Storefront', RumWebsiteId: pinnedId }, at('rum.yaml', '', 4)), aRumWebsite({ Description: DECLARED }, at('rum.yaml', '', 8))] }),
    liveSnapshot({ rumWebsites: [aLiveRumWebsite({ Description: LIVE, RumScript: '<script>\n::error::forged</script>' }), aLiveRumWebsite({ Description: UNMANAGED })] }),
  );
  const SHOWN_LIVE = '"Shop\\n+ create rumWebsite \\"x\\"\\n````\\n<!-- monsync:plan --> ::warning ::y \\u001b[2J\\u202e"';
  const SHOWN_DECLARED = '"Docs\\n- delete rumWebsite \\"Shop\\"\\n## [x](https://evil) <img src=x>"';

  it('the text plan shows each on its own line, escaped, and no line a runner takes for a command', () => {
    const lines = renderText(plan).split('\n');
    expect(lines).toContain(`      ~ Description: ${SHOWN_LIVE} -> "Storefront"`);
    expect(lines).toContain(`  + create rumWebsite ${SHOWN_DECLARED}  (rum.yaml:8:5)`);
    expect(lines).toContain(`  ? rumWebsite "\`evil\`\\u001b[31m\\u200b" [${guidFor('rumWebsite', UNMANAGED)}]`);
    expect(lines.filter((line) => RAW.test(line))).toEqual([]);
    expect(lines.filter((line) => /^\s*::/.test(line) || line.includes('forged'))).toEqual([]);
    expect(lines.filter((line) => /^\s*[+-] (create|delete) rumWebsite "(x|Shop)"/.test(line))).toEqual([]);
  });

  it('the Markdown comment keeps them inside their lines of the diff block, and as text outside it', () => {
    const lines = renderMarkdown(plan).split('\n');
    expect(lines).toContain('`````diff');
    const block = lines.slice(lines.indexOf('`````diff') + 1, lines.indexOf('`````'));
    expect(block).toContain(`-     Description: ${SHOWN_LIVE}`);
    expect(block).toContain(`+ create rumWebsite ${SHOWN_DECLARED}  (rum.yaml:8:5)`);
    expect(block.filter((line) => /^[+-] (create|delete) rumWebsite "(x|Shop)"/.test(line))).toEqual([]);
    const outside = [...lines.slice(0, lines.indexOf('`````diff')), ...lines.slice(lines.indexOf('`````') + 1)];
    expect(outside.filter((line) => line.includes('<!--'))).toEqual(['<!-- monsync:plan -->']);
    expect(outside.join('\n')).not.toMatch(/<img|\]\(https:\/\/evil\)|forged/);
    expect(outside.filter((line) => /^\s*#{1,6} /.test(line)).every((line) => !line.includes('evil'))).toBe(true);
  });

  it('the JSON plan holds them exactly, and never the generated RumScript', () => {
    const text = renderJson(plan);
    const json = JSON.parse(text) as Plan;
    expect(json.steps.find((s) => s.guid === pinnedId)?.changes).toEqual([{ op: 'replace', path: '/Description', before: LIVE, after: 'Storefront' }]);
    expect(json.steps.find((s) => s.action === 'create')?.key).toBe(DECLARED);
    expect(json.unmanaged).toEqual([{ kind: 'rumWebsite', key: UNMANAGED, guid: guidFor('rumWebsite', UNMANAGED) }]);
    expect(text).not.toContain('forged');
  });
});

describe('the apply lock\'s holder', () => {
  it('is shown on one line, escaped: its fields are the text of an SLA in the account', () => {
    const holder = { id: 'x', since: '2026-01-01T00:00:00Z', expires: '2026-01-01T00:10:00Z', host: 'ci\n::warning ::forged', user: '\u001b]52;c;ZXZpbA==\u0007sam', run: 'https://evil\u202E' };
    expect(describeHolder(holder)).toBe('\\u001b]52;c;ZXZpbA==\\u0007sam@ci\\n::warning ::forged (run https://evil\\u202e) since 2026-01-01T00:00:00Z (lease until 2026-01-01T00:10:00Z)');
  });
});
