import { describe, expect, it } from 'vitest';
import { parsePlanFile } from '@monsync/schema';
import { previewOnCall } from '../on-call/preview.js';
import { UTC } from '../on-call/zone.js';
import type { Plan } from '../plan/types.js';
import { anEmptyPlan } from '../test-utils/index.js';
import { renderMarkdown } from './markdown.js';
import { renderText } from './text.js';

const before = { operators: [{ key: 'dana@example.com', zone: UTC, schedules: [{ ScheduleMode: 'Daily', StartTime: '09:00', EndTime: '17:00' }] }], groups: [{ key: 'Month end', members: ['dana@example.com'] }] };
const after = { operators: [{ key: 'dana@example.com', zone: UTC, schedules: [{ ScheduleMode: 'Daily', StartTime: '10:00', EndTime: '17:00' }] }], groups: [{ key: 'Month end', members: ['dana@example.com'] }] };

function planWith(onCall: Plan['onCall']): Plan {
  const plan = anEmptyPlan();
  if (onCall !== undefined) plan.onCall = onCall;
  return plan;
}

describe('the on-call preview in rendered plans', () => {
  const onCall = previewOnCall({ now: Date.parse('2026-06-01T00:00:00Z'), before, after });
  const plan = planWith(onCall);

  it('shows each uncovered hour and the week grid in the text plan', () => {
    const text = renderText(plan);
    expect(text).toContain('operator group "Month end" (UTC): 7 hours with nobody on duty');
    expect(text).toContain('! uncovered Mon 01 Jun 09:00-10:00 (1 hour)');
    expect(text).toContain('Mon 01 Jun  .........########.......   .........!#######.......');
    expect(text).toContain('operator "dana@example.com" (UTC)');
    expect(text).toContain('Mon 01 Jun  .........########.......   ..........#######.......');
  });

  it('calls the uncovered hours out in a warning of the Markdown comment, with a grid per subject', () => {
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('### On call');
    expect(markdown).toMatch(/> \[!WARNING\]\n> \*\*Month end\*\* has nobody on duty in 7 hours it had someone before: Mon 01 Jun 09:00-10:00 \(1 hour\), Tue 02 Jun/);
    expect(markdown).toContain('<details><summary>operator group "Month end" (UTC): 7 hours uncovered</summary>');
  });

  it('writes a plan file the plan schema accepts, the on-call section included', async () => {
    await expect(parsePlanFile(JSON.stringify(plan))).resolves.toEqual(JSON.parse(JSON.stringify(plan)));
    await expect(parsePlanFile(JSON.stringify({ ...plan, onCall: { ...onCall, subjects: [{ ...onCall.subjects[0], before: 'x' }] } }))).rejects.toThrow(/onCall/);
  });

  it('adds nothing to a plan that changes nobody’s hours', () => {
    expect(renderText(planWith(undefined))).not.toContain('On call');
    expect(renderMarkdown(planWith(undefined))).not.toContain('On call');
  });
});
