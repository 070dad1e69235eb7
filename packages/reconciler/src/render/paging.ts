/**
 * Who gets paged, as people read it: per alert definition whose escalation path the plan changes, what it covers and,
 * level by level, its threshold, whom it reaches (groups expanded) and the hours somebody of them is on duty, before
 * and after. The text plan gets lines (the same lines go into the pull-request comment, under a Mermaid diagram of
 * the path that GitHub draws). Every name goes through `escape.ts`.
 */
import type { PlanPaging, PlanPagingDefinition, PlanPagingLevel, PlanPagingPath } from '@monsync/schema';
import { ALERT_DEFINITION_KIND } from '@monsync/schema';
import { gapLabels, type GridSubject } from '../on-call/grid.js';
import { formatCount as count } from './format.js';
import { markdownCode, mermaidLabel, plainText, shownValue } from './escape.js';
import { gridLines } from './on-call.js';

type Paint = (style: 'bold' | 'red' | 'dim', text: string) => string;
const NO_PAINT: Paint = (_style, text) => text;

/** Names listed per level in the text and per level in a diagram; the rest are counted. */
const NAMES_SHOWN = 10;
const NODES_SHOWN = 8;
const GAPS_SHOWN = 4;
export const PAGING_LEGEND = '# somebody the level reaches is on duty, + part of the hour, . nobody on duty';

const plural = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

function names(list: readonly string[], shown = NAMES_SHOWN): string {
  if (list.length === 0) return 'nobody';
  const head = list.slice(0, shown).map(shownValue).join(', ');
  return list.length > shown ? `${head} and ${count(list.length - shown)} more` : head;
}

/** `after 2 errors`, `after 30 minutes`: when the level pages, as its mode says. */
export function thresholdText(level: PlanPagingLevel): string {
  if (level.escalationMode === 'AlertOnErrorCount' && level.thresholdErrorCount !== undefined) return `after ${plural(level.thresholdErrorCount, 'error')}`;
  if (level.escalationMode === 'AlertOnErrorDuration' && level.thresholdMinutes !== undefined) return `after ${plural(level.thresholdMinutes, 'minute')}`;
  return level.escalationMode === undefined ? 'threshold not known' : plainText(level.escalationMode);
}

function covers(path: PlanPagingPath | undefined): string {
  if (path === undefined) return '-';
  if (path.monitors === undefined || path.monitorGroups === undefined) return 'not read (the definition declares no members)';
  const parts = [path.monitorGroups.length > 0 ? `monitor groups ${names(path.monitorGroups)}` : '', path.monitors.length > 0 ? `monitors ${names(path.monitors)}` : ''].filter((p) => p !== '');
  return parts.length === 0 ? 'no monitors' : parts.join('; ');
}

/** Whom a level reaches, groups named with their members. */
function reachText(level: PlanPagingLevel): string {
  if (level.operators === undefined || level.operatorGroups === undefined) return 'members not read (the level declares none)';
  const unread = level.operatorGroups.filter((g) => g.members === undefined);
  const via = level.operatorGroups.map((g) => `group ${shownValue(g.key)}${g.members === undefined ? ' (members not read)' : `: ${names(g.members)}`}`);
  const direct = level.operators.length > 0 ? [`operators ${names(level.operators)}`] : [];
  const reached = level.reaches === undefined ? (unread.length > 0 ? 'not known' : '') : names(level.reaches);
  return `reaches ${reached}${direct.length + via.length > 0 ? ` (${[...direct, ...via].join('; ')})` : ''}`;
}

function onDutyHours(cells: string): number {
  let n = 0;
  for (const cell of cells) if (cell !== '.') n += 1;
  return n;
}

const uniform = (cells: string): boolean => cells.length > 0 && [...cells].every((cell) => cell === cells[0]);

/**
 * The level's hours, before and after, as one grid. Each side is counted on its own clock; a side that is the same
 * every hour (nobody, or somebody around the clock) reads the same on any clock, so it is drawn on the other's.
 */
function subjectOf(was: PlanPagingLevel | undefined, will: PlanPagingLevel | undefined): GridSubject | undefined {
  const sides = [will, was].filter((l): l is PlanPagingLevel => l?.onDuty !== undefined);
  const shape = sides.find((l) => !uniform(l.onDuty ?? '')) ?? sides[0];
  if (shape?.onDuty === undefined || shape.timeZone === undefined || shape.from === undefined) return undefined;
  const hours = shape.onDuty.length;
  const aligned = (level: PlanPagingLevel | undefined): string => {
    const cells = level?.onDuty;
    if (level === undefined || cells === undefined || cells.length !== hours) return ' '.repeat(hours);
    if (level.from === shape.from && level.timeZone === shape.timeZone) return cells;
    return uniform(cells) ? cells : ' '.repeat(hours);
  };
  return { timeZone: shape.timeZone, from: shape.from, before: aligned(was), after: aligned(will) };
}

/** Where the waiver of a definition's `alertsReachSomeone` finding is (`paging.definitions[].waived`). */
type Waiver = NonNullable<PlanPagingDefinition['waived']>;

/**
 * The hours a level leaves nobody on duty after the plan: red, unless the definition's `alertsReachSomeone` finding is
 * waived, which the team decided; the line then says so, as the plan JSON and the comment's note do.
 */
function nobodyLine(text: string, waived: Waiver | undefined, paint: Paint): string {
  if (waived === undefined) return paint('red', text);
  return `${text}; the definition's \`alertsReachSomeone\` finding is waived (${plainText(`${waived.file}:${waived.line}:${waived.column}`)})`;
}

function hoursLines(was: PlanPagingLevel | undefined, will: PlanPagingLevel | undefined, paint: Paint, waived: Waiver | undefined): string[] {
  const subject = subjectOf(was?.active === false ? undefined : was, will?.active === false ? undefined : will);
  if (subject === undefined) return [];
  const side = (level: PlanPagingLevel | undefined): string => (level?.onDuty === undefined || !level.active ? '-' : `${count(onDutyHours(level.onDuty))} of ${count(level.onDuty.length)}`);
  const lines = [`hours somebody is on duty: ${was === undefined || will === undefined ? side(will ?? was) : `${side(was)} -> ${side(will)}`} (${plainText(subject.timeZone)})`];
  const last = will ?? was;
  const gaps = last?.active === true ? (last.nobodyOnDuty ?? []) : [];
  if (gaps.length > 0) {
    const labels = gapLabels({ ...subject, uncovered: gaps });
    const more = labels.length > GAPS_SHOWN ? ` and ${plural(labels.length - GAPS_SHOWN, 'more span')}` : '';
    lines.push(nobodyLine(`nobody on duty${will === undefined ? '' : ' after the plan'}: ${labels.slice(0, GAPS_SHOWN).map(plainText).join(', ')}${more}`, waived, paint));
  }
  // A grid only says more than the counts when some hours are on and others off.
  const drawn = [subject.before, subject.after].filter((cells) => cells.trim() !== '');
  if (drawn.some((cells) => !uniform(cells.trim()))) lines.push(...gridLines(subject));
  return lines;
}

function levelLines(was: PlanPagingLevel | undefined, will: PlanPagingLevel | undefined, paint: Paint, waived: Waiver | undefined): string[] {
  const head = (level: PlanPagingLevel): string => `${thresholdText(level)}${level.active ? '' : ', inactive'}`;
  const id = (will ?? was)?.id ?? 0;
  const lines: string[] = [];
  const same = was !== undefined && will !== undefined;
  if (same && head(was) === head(will)) lines.push(paint('bold', `level ${id} (${head(will)})`));
  else lines.push(paint('bold', `level ${id} (${was === undefined ? '' : head(was)}${same ? ' -> ' : ''}${will === undefined ? '' : head(will)})`));
  const reachWas = was === undefined ? undefined : reachText(was);
  const reachWill = will === undefined ? undefined : reachText(will);
  if (reachWas === reachWill || reachWas === undefined || reachWill === undefined) lines.push(`  ${reachWill ?? reachWas ?? ''}`);
  else lines.push(`  before: ${reachWas}`, `  after:  ${reachWill}`);
  for (const line of hoursLines(was, will, paint, waived)) lines.push(`  ${line}`);
  return lines;
}

function changeWord(definition: PlanPagingDefinition): string {
  return definition.before === undefined ? 'created' : definition.after === undefined ? 'deleted' : 'changed';
}

/** The facts of one definition as lines (escaped for a terminal; colour by `paint`). */
export function definitionLines(definition: PlanPagingDefinition, paint: Paint = NO_PAINT): string[] {
  const { before, after } = definition;
  const state = (path: PlanPagingPath | undefined): string => (path === undefined ? '-' : path.active ? 'active' : 'inactive');
  const lines = [`${paint('bold', `${ALERT_DEFINITION_KIND.title.one} ${shownValue(definition.key)}`)} (${changeWord(definition)}${before !== undefined && after !== undefined && before.active !== after.active ? `, ${state(before)} -> ${state(after)}` : `, ${state(after ?? before)}`})`];
  const coversWas = covers(before);
  const coversWill = covers(after);
  if (before === undefined || after === undefined || coversWas === coversWill) lines.push(`  covers ${after === undefined ? coversWas : coversWill}`);
  else lines.push(`  covers before: ${coversWas}`, `  covers after:  ${coversWill}`);
  const ids = [...new Set([...(before?.levels ?? []), ...(after?.levels ?? [])].map((l) => l.id))].sort((a, b) => a - b);
  for (const id of ids) {
    const was = before?.levels.find((l) => l.id === id);
    const will = after?.levels.find((l) => l.id === id);
    for (const line of levelLines(was, will, paint, definition.waived)) lines.push(`  ${line}`);
  }
  return lines;
}

function opening(paging: PlanPaging): string {
  const hours = paging.now === undefined ? '' : `, with the hours somebody is on duty in the next ${Math.round(paging.hours / 24)} days from ${paging.now.slice(0, 10)} ${paging.now.slice(11, 16)} UTC`;
  return `the escalation path of each alert definition this plan changes, before and after: each level's threshold and whom it reaches (groups expanded)${hours}`;
}

function omittedSentence(paging: PlanPaging): string {
  return paging.omitted === undefined ? '' : `${plural(paging.omitted, 'more definition')} whose path changes ${paging.omitted === 1 ? 'is' : 'are'} not shown (the plan lists at most ${count(paging.definitions.length)})`;
}

/** Lines of the text plan; none without a preview. */
export function pagingTextLines(paging: PlanPaging | undefined, paint: Paint): string[] {
  if (paging === undefined || paging.definitions.length === 0) return [];
  const lines = ['', paint('bold', `Who gets paged: ${opening(paging)}.`)];
  if (paging.now !== undefined) lines.push(`  ${paint('dim', PAGING_LEGEND)}`);
  for (const definition of paging.definitions) {
    lines.push('');
    for (const line of definitionLines(definition, paint)) lines.push(`  ${line}`);
  }
  if (paging.omitted !== undefined) lines.push('', `  ${omittedSentence(paging)}.`);
  return lines;
}

/** Whether a path pages nobody (no active level reaches anyone) or has hours with nobody on duty at its first active level. */
export function pathWarning(path: PlanPagingPath | undefined): string | undefined {
  if (path === undefined || !path.active) return undefined;
  const active = path.levels.filter((l) => l.active);
  if (active.length > 0 && active.every((l) => l.reaches !== undefined && l.reaches.length === 0)) return 'reaches nobody at any active level';
  const first = active[0];
  const gaps = first?.nobodyOnDuty ?? [];
  const hours = gaps.reduce((sum, gap) => sum + gap.hours, 0);
  return first === undefined || hours === 0 ? undefined : `has nobody on duty at level ${first.id} in ${plural(hours, 'hour')} of the next 7 days`;
}

/** A Mermaid flowchart of one moment of a path: definition -> level 1 -> level 2 ..., each level -> operators (groups -> members). */
function mermaidSide(id: string, title: string, definition: string, path: PlanPagingPath | undefined): string[] {
  const out = [`  subgraph ${id}[${mermaidLabel(title)}]`, '    direction LR'];
  if (path === undefined) {
    out.push(`    ${id}_d[${mermaidLabel([definition, title === 'before' ? 'does not exist yet' : 'deleted'])}]`, '  end');
    return out;
  }
  const monitors = path.monitors === undefined || path.monitorGroups === undefined ? 'covers: not read' : `covers ${plural(path.monitorGroups.length, 'monitor group')}, ${count(path.monitors.length)} monitor${path.monitors.length === 1 ? '' : 's'}`;
  out.push(`    ${id}_d[${mermaidLabel([definition, `${path.active ? 'active' : 'inactive'}, ${monitors}`])}]`);
  let previous = `${id}_d`;
  for (const level of path.levels) {
    const node = `${id}_l${level.id}`;
    const hours = level.onDuty === undefined || !level.active ? [] : [`somebody on duty ${count(onDutyHours(level.onDuty))} of ${count(level.onDuty.length)} h`];
    out.push(`    ${previous} ${level.active ? '-->' : '-.->'} ${node}[${mermaidLabel([`level ${level.id}${level.active ? '' : ' (inactive)'}`, thresholdText(level), ...hours])}]`);
    previous = node;
    out.push(...mermaidReach(node, level));
  }
  out.push('  end');
  return out;
}

function mermaidReach(node: string, level: PlanPagingLevel): string[] {
  if (level.operators === undefined || level.operatorGroups === undefined) return [`    ${node} --- ${node}_u[${mermaidLabel('members not read')}]`];
  const targets: [string, string[]][] = [...level.operators.map((o): [string, string[]] => [o, []]), ...level.operatorGroups.map((g): [string, string[]] => [`group ${g.key}`, g.members ?? ['members not read']])];
  if (targets.length === 0) return [`    ${node} --- ${node}_n[${mermaidLabel('nobody')}]`];
  const out: string[] = [];
  let shown = 0;
  targets.forEach(([label, members], i) => {
    if (shown >= NODES_SHOWN) return;
    shown += 1;
    out.push(`    ${node} --> ${node}_${i}[${mermaidLabel(label)}]`);
    members.slice(0, NODES_SHOWN).forEach((member, j) => out.push(`    ${node}_${i} --> ${node}_${i}_${j}[${mermaidLabel(member)}]`));
    if (members.length > NODES_SHOWN) out.push(`    ${node}_${i} --> ${node}_${i}_more[${mermaidLabel(`and ${count(members.length - NODES_SHOWN)} more`)}]`);
  });
  if (targets.length > shown) out.push(`    ${node} --> ${node}_more[${mermaidLabel(`and ${count(targets.length - shown)} more`)}]`);
  return out;
}

/** The diagram of one definition: its path before and after, side by side. */
export function pagingMermaid(definition: PlanPagingDefinition): string {
  return ['```mermaid', 'flowchart LR', ...mermaidSide('was', 'before', definition.key, definition.before), ...mermaidSide('will', 'after', definition.key, definition.after), '```'].join('\n');
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function fence(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The Markdown section: a warning naming every definition left paging nobody, then a diagram and the text per definition. */
export function pagingMarkdown(paging: PlanPaging | undefined, escape: (text: string) => string): { open: string; blocks: string[]; close: string } | undefined {
  if (paging === undefined || paging.definitions.length === 0) return undefined;
  const sentence = opening(paging);
  const open = [`### Who gets paged\n\n${escape(capitalised(sentence))}.${paging.omitted === undefined ? '' : ` ${escape(omittedSentence(paging))}: see the plan JSON (\`paging\`).`}\n`];
  const warned = (waived: boolean) =>
    paging.definitions.flatMap((d) => {
      const warning = (d.waived !== undefined) === waived ? pathWarning(d.after) : undefined;
      if (warning === undefined) return [];
      const where = d.waived === undefined ? '' : `; its \`alertsReachSomeone\` finding is waived (${escape(`${d.waived.file}:${d.waived.line}:${d.waived.column}`)})`;
      return [`> ${markdownCode(d.key)} ${escape(warning)}${where}.`];
    });
  // A waived finding is the team's decision: said, but not among the warnings.
  const [warnings, notes] = [warned(false), warned(true)];
  if (warnings.length > 0) open.push('> [!WARNING]', ...warnings);
  if (notes.length > 0) open.push(...(warnings.length > 0 ? [''] : []), '> [!NOTE]', ...notes);
  const blocks = paging.definitions.map((definition) => {
    const lines = definitionLines(definition);
    const f = fence(lines);
    const legend = paging.now === undefined ? '' : `${PAGING_LEGEND}\n`;
    return (
      `#### ${escape(capitalised(ALERT_DEFINITION_KIND.title.one))} ${markdownCode(definition.key)}: ${changeWord(definition)}\n\n${pagingMermaid(definition)}\n\n` +
      `<details><summary>Levels, people and hours as text</summary>\n\n${f}text\n${legend}${lines.join('\n')}\n${f}\n\n</details>\n\n`
    );
  });
  return { open: `${open.join('\n')}\n\n`, blocks, close: '\n' };
}
