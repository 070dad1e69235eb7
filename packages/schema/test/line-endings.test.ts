import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadConfigSync } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }\n';
const MONITORS = [
  '# two monitors',
  'monitors:',
  '  - Name: Shop homepage',
  '    MonitorType: Https',
  '    Notes: |',
  '      first line',
  '      second line',
  '  - Name: Status page',
  '    MonitorType: Ping',
  '',
].join('\n');

function treeWith(lineEnd: string, monitors = MONITORS): string {
  const root = mkdtempSync(join(tmpdir(), 'monsync-line-ends-'));
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'monsync.yaml'), SETTINGS.replace(/\n/g, lineEnd));
  writeFileSync(join(root, 'monitors.yaml'), monitors.replace(/\n/g, lineEnd));
  return root;
}

describe('line endings', () => {
  it('reads a tree with CR-only or CRLF line ends as the same declarations, at the same lines, as with LF', () => {
    const lf = loadConfigSync(treeWith('\n'));
    expect(lf.diagnostics).toEqual([]);
    expect(lf.desired.monitors.map((m) => m.value.Name)).toEqual(['Shop homepage', 'Status page']);
    for (const lineEnd of ['\r', '\r\n']) {
      const other = loadConfigSync(treeWith(lineEnd));
      expect(other.diagnostics).toEqual([]);
      expect(other.desired.monitors.map((m) => ({ value: m.value, line: m.source.line, column: m.source.column }))).toEqual(
        lf.desired.monitors.map((m) => ({ value: m.value, line: m.source.line, column: m.source.column })),
      );
      expect(other.desired.settings.manage).toEqual(lf.desired.settings.manage);
    }
  });

  it('quotes the right line of a CR-only file under a diagnostic', () => {
    const text = MONITORS.replace('MonitorType: Ping', 'MonitorType: Ping\n    IsActive: "no"').replace(/\n/g, '\r');
    const { diagnostics } = loadConfigSync(treeWith('\r', MONITORS.replace('MonitorType: Ping', 'MonitorType: Ping\n    IsActive: "no"')));
    const [mismatch] = diagnostics;
    if (mismatch === undefined) throw new Error('no diagnostic');
    expect(mismatch).toMatchObject({ code: 'TYPE_MISMATCH', line: 10, column: 15 });
    expect(formatDiagnostic(mismatch, { source: text }).split('\n')[1]).toBe('10 |     IsActive: "no"');
  });
});
