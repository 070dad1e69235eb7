/**
 * The on-call preview as people read it: per operator and group whose hours the plan changes, a week grid before and
 * after (a row per day on the subject's clock, a cell per hour), and every hour a group loses its last operator on
 * duty called out by name and time.
 */
import { OPERATOR_GROUP_KIND, OPERATOR_KIND } from '@monsync/schema';
import { gapLabels, GRID_LEGEND, weekGrid, type GridSubject } from '../on-call/grid.js';
import type { OnCallPreview, OnCallSubject } from '../on-call/preview.js';
import { plainText, shownValue } from './escape.js';

const HOURS_HEADER = '00    06    12    18    ';
const DAY_WIDTH = 'Thu 26 Mar'.length;

function title(subject: OnCallSubject): string {
  return `${subject.kind === OPERATOR_GROUP_KIND.kind ? OPERATOR_GROUP_KIND.title.one : OPERATOR_KIND.title.one} ${shownValue(subject.key)} (${plainText(subject.timeZone)})`;
}

function uncoveredHours(subject: OnCallSubject): number {
  return (subject.uncovered ?? []).reduce((sum, gap) => sum + gap.hours, 0);
}

/** The grid of one subject, before and after side by side, as fixed-width lines. */
export function gridLines(subject: GridSubject): string[] {
  const pad = ' '.repeat(DAY_WIDTH);
  const lines = [`${pad}  ${'before'.padEnd(24)}   after`, `${pad}  ${HOURS_HEADER}   ${HOURS_HEADER}`];
  for (const row of weekGrid(subject)) lines.push(`${row.day.padEnd(DAY_WIDTH)}  ${row.before}   ${row.after}`);
  return lines.map((line) => line.trimEnd());
}

function opening(preview: OnCallPreview): string {
  const reading = preview.reading === 'on-duty' ? 'schedules are the hours an operator is on duty' : 'schedules are the hours an operator is off duty';
  return `who is on duty each hour of the next ${Math.round(preview.hours / 24)} days from ${preview.now.slice(0, 10)} ${preview.now.slice(11, 16)} UTC (${reading})`;
}

/** Lines of the text plan; none when the plan changes nobody's hours. */
export function onCallTextLines(preview: OnCallPreview | undefined, paint: (style: 'bold' | 'red' | 'dim', text: string) => string): string[] {
  if (preview === undefined || preview.subjects.length === 0) return [];
  const lines = ['', paint('bold', `On call: ${opening(preview)}.`), `  ${paint('dim', GRID_LEGEND)}`];
  for (const subject of preview.subjects) {
    lines.push('');
    const lost = uncoveredHours(subject);
    const summary = lost === 0 ? '' : `: ${paint('red', `${lost} ${lost === 1 ? 'hour' : 'hours'} with nobody on duty`)}`;
    lines.push(`  ${title(subject)}${summary}`);
    for (const label of gapLabels(subject)) lines.push(`    ${paint('red', '!')} uncovered ${plainText(label)}`);
    for (const note of subject.notes ?? []) lines.push(`    ${paint('dim', `note: ${plainText(note)}`)}`);
    for (const line of gridLines(subject)) lines.push(`    ${line}`);
  }
  return lines;
}

/** The Markdown section: a warning naming every uncovered hour, then one collapsible grid per subject. */
export function onCallMarkdown(preview: OnCallPreview | undefined, escape: (text: string) => string): { open: string; blocks: string[]; close: string } | undefined {
  if (preview === undefined || preview.subjects.length === 0) return undefined;
  const sentence = opening(preview);
  const open = [`### On call\n\n${escape(sentence.charAt(0).toUpperCase() + sentence.slice(1))}. ${escape(GRID_LEGEND)}.\n`];
  const gaps = preview.subjects.filter((s) => uncoveredHours(s) > 0);
  if (gaps.length > 0) {
    open.push('> [!WARNING]');
    for (const subject of gaps) open.push(`> **${escape(plainText(subject.key))}** has nobody on duty in ${uncoveredHours(subject)} hours it had someone before: ${escape(gapLabels(subject).join(', '))}.`);
  }
  const blocks = preview.subjects.map((subject) => {
    const lost = uncoveredHours(subject);
    const summary = lost === 0 ? '' : `: ${lost} ${lost === 1 ? 'hour' : 'hours'} uncovered`;
    const notes = (subject.notes ?? []).map((n) => `\n_${escape(n)}_\n`).join('');
    return `<details><summary>${escape(title(subject))}${summary}</summary>\n${notes}\n\`\`\`text\n${gridLines(subject).join('\n')}\n\`\`\`\n\n</details>\n`;
  });
  return { open: `${open.join('\n')}\n\n`, blocks, close: '\n' };
}
