import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { monsync, tempTree } from './helpers.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  monitors: { prune: false }\n';
const MONITORS = ['monitors:', '  - Name: Shop', '    MonitorType: HTTPS', '    CheckIntervall: 3', '    Url: https://shop.example.com/', ''].join('\n');

describe('monsync validate is strict by default', () => {
  it('exits 1 on a misspelt API field and a wrong-case enum value, each at file:line:col with the one meant and how to let a newer one through', async () => {
    const tree = tempTree({ 'monsync.yaml': SETTINGS, 'monitors.yaml': MONITORS });
    const { code, err } = await monsync(['validate', '--config', '.', '--no-color'], { cwd: tree });
    expect(code).toBe(ExitCode.Error);
    expect(err).toContain('monitors.yaml:3:18: error INVALID_ENUM: `MonitorType` must be one of Http, Https,');
    expect(err).toContain('(got `HTTPS`); did you mean `Https`?');
    expect(err).toContain('hint: write `Https`; if the service added `HTTPS` after this release of monsync, let it through in monsync.yaml: allowUnknown: { values: { MonitorType: [HTTPS] } }');
    expect(err).toContain("monitors.yaml:4:5: error UNKNOWN_API_FIELD: unknown field `CheckIntervall`: the service's published definition of Monitor has no such field; did you mean `CheckInterval`?");
    expect(err).toContain('allowUnknown: { fields: { monitor: [CheckIntervall] } }');
    expect(err).toMatch(/2 errors; nothing was sent to the API/);
  });

  it('passes the same tree once monsync.yaml lets the field and the value through, as a team would for what the service added later', async () => {
    const allow = 'allowUnknown:\n  fields: { monitor: [CheckIntervall] }\n  values: { MonitorType: [HTTPS] }\n';
    const tree = tempTree({ 'monsync.yaml': `${SETTINGS}${allow}`, 'monitors.yaml': MONITORS });
    const { code, out, err } = await monsync(['validate', '--config', '.', '--no-color'], { cwd: tree });
    expect(err).not.toContain('error');
    expect(code).toBe(ExitCode.Ok);
    expect(out).toContain('valid (1 monitor');
  });
});
