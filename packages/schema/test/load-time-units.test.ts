import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadConfigTexts } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: {}\n';

function monitorWith(conditions: string) {
  const text = ['monitors:', '  - Name: Shop', '    MonitorType: Https', '    Url: https://shop.example.com/', '    ErrorConditions:', conditions, ''].join('\n');
  return loadConfigTexts('/cfg', [
    { file: 'monsync.yaml', text: SETTINGS },
    { file: 'monitors.yaml', text },
  ]).diagnostics.filter((d) => d.code === 'LOAD_TIME_IN_SECONDS');
}

describe('load-time limits, which count milliseconds', () => {
  it('warn on a value under 100 at the value, with the milliseconds it likely meant', () => {
    const [warning, ...more] = monitorWith('      - { ErrorConditionType: HttpStatus, Value: "200" }\n      - { ErrorConditionType: LoadTimeLimit1, Value: "3", Effect: Error }');
    expect(more).toEqual([]);
    expect(warning?.severity).toBe('warning');
    expect([warning?.file, warning?.line, warning?.column]).toEqual(['monitors.yaml', 7, 54]);
    expect(formatDiagnostic(warning!)).toContain(
      'monitors.yaml:7:54: warning LOAD_TIME_IN_SECONDS: LoadTimeLimit1 Value "3" is 3 milliseconds: the service reads load-time limits in milliseconds, so this alerts whenever a page takes longer than 3 ms',
    );
    expect(formatDiagnostic(warning!)).toContain('write the limit in milliseconds, e.g. Value: "3000" for 3 seconds');
  });

  it('warn on LoadTimeLimit2 and on a fraction of a second too', () => {
    const found = monitorWith('      - ErrorConditionType: LoadTimeLimit2\n        Value: "2.5"');
    expect(found.map((d) => [d.line, d.column])).toEqual([[7, 16]]);
    expect(formatDiagnostic(found[0]!)).toContain('Value: "2500" for 2.5 seconds');
  });

  it('say nothing of 100 ms and more, of other condition types, or of a value that is no number', () => {
    expect(monitorWith('      - { ErrorConditionType: LoadTimeLimit1, Value: "100" }\n      - { ErrorConditionType: LoadTimeLimit2, Value: "3500" }')).toEqual([]);
    expect(monitorWith('      - { ErrorConditionType: TotalMinBytes, Value: "10" }\n      - { ErrorConditionType: PageElementFailedWithPercentage, Value: "5", Percentage: "5" }')).toEqual([]);
    expect(monitorWith('      - { ErrorConditionType: LoadTimeLimit1, Value: "fast" }')).toEqual([]);
  });

  it('leaves the demo tree without a warning: its limits are written in milliseconds', async () => {
    const { loadConfig } = await import('../src/index.js');
    const { diagnostics } = await loadConfig(new URL('../../../configs', import.meta.url).pathname, { resolveSecrets: false });
    expect(diagnostics.filter((d) => d.code === 'LOAD_TIME_IN_SECONDS')).toEqual([]);
  });
});
