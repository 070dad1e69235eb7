import { isDeepStrictEqual } from 'node:util';
import {
  Document,
  isMap,
  isSeq,
  LineCounter,
  Pair,
  parseDocument,
  Scalar,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { analyzeMonitor, keyName, locate, startOf, type ExistingConditions, type MonitorPlan, type PlannedEntry, type SourceContext } from './analyze-monitor.js';
import { renderEntries, renderFlowCondition, type RenderedEntry } from './render.js';
import { applyEdits, SourceText, type TextEdit } from './source-text.js';
import type { MigrationChange, MigrationErrorCondition, MigrationProblem } from './types.js';

/** Strict like the loader: duplicate keys are errors, `<<` is an ordinary key, aliases are few. */
export const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  uniqueKeys: true,
  merge: false,
  prettyErrors: false,
};
// Maps keep non-string keys as they are (no warning, and a key that changed shape still compares unequal).
const TO_JS = { maxAliasCount: 100, mapAsMap: true };

export interface RewriteOutcome {
  /** The new text, or undefined when nothing changes (or the file cannot be rewritten safely). */
  text: string | undefined;
  changes: MigrationChange[];
  problems: MigrationProblem[];
}

function rangeOf(node: unknown): readonly [number, number, number] | undefined {
  if (node !== null && typeof node === 'object' && 'range' in node) {
    const range = (node as { range?: readonly [number, number, number] | null }).range;
    if (range) return range;
  }
  return undefined;
}

/** Where the pair's own text ends: after its value (or key when it has none), before any trailing comment. */
function contentEnd(pair: Pair): number {
  return rangeOf(pair.value)?.[1] ?? rangeOf(pair.key)?.[1] ?? 0;
}

function conditionNode(doc: Document, condition: MigrationErrorCondition): unknown {
  const node = doc.createNode(condition);
  node.flow = true;
  return node;
}

function newSeq(doc: Document, conditions: readonly MigrationErrorCondition[]): YAMLSeq {
  const seq = doc.createNode([]) as YAMLSeq;
  for (const condition of conditions) seq.items.push(conditionNode(doc, condition));
  return seq;
}

/** Gives `- ` items the offset the file already uses for lists under a key (0 or, most often, 2). */
function sequenceIndent(src: SourceText, root: YAMLMap): number {
  const monitors = root.items.find((pair) => keyName(pair) === 'monitors');
  const keyStart = rangeOf(monitors?.key)?.[0];
  const seqStart = rangeOf(monitors?.value)?.[0];
  if (keyStart === undefined || seqStart === undefined || !isSeq(monitors?.value) || monitors.value.flow) return 2;
  if (!src.startsLine(seqStart)) return 2;
  return Math.max(0, src.column(seqStart) - src.column(keyStart));
}

/** Whether the file writes `{ a: 1 }` or `{a: 1}`, judged by an existing flow-map entry. */
function paddedFlow(src: SourceText, item: unknown): boolean {
  const start = rangeOf(item)?.[0];
  if (!isMap(item) || !item.flow || start === undefined) return true;
  return /^\{\s/.test(src.text.slice(start, start + 2));
}

interface PlanEdits {
  edits: TextEdit[];
  notes: MigrationProblem[];
}

/**
 * The removed pair whose place `ErrorConditions` takes when the monitor has none: the first one that becomes an
 * entry. A pair dropped without replacement (an unspecified status code) must not lend its place, or the comment
 * above it would end up describing the new list.
 */
function anchorOf(plan: MonitorPlan): Pair | undefined {
  if (plan.existing !== undefined || plan.entries.length === 0) return undefined;
  const moved = new Set<Pair>(plan.entries.flatMap((entry) => entry.pairs));
  return plan.removedPairs.find((pair) => moved.has(pair));
}

/** Where comments for an existing list item can go: on lines of their own above its `- `, at the dash's column. */
function abovePlace(src: SourceText, item: unknown): { at: number; pad: string } | undefined {
  const start = rangeOf(item)?.[0];
  if (start === undefined) return undefined;
  const lineStart = src.lineStart(start);
  const lead = /^([ \t]*)-[ \t]+$/.exec(src.text.slice(lineStart, start));
  return lead ? { at: lineStart, pad: lead[1] ?? '' } : undefined;
}

/** What the edit steps of one block-map monitor share. */
interface BlockEdit {
  plan: MonitorPlan;
  src: SourceText;
  ctx: SourceContext;
  /** The removed pair whose place a new ErrorConditions list takes (see anchorOf). */
  anchor: Pair | undefined;
  /** Where the monitor's existing ErrorConditions key starts, when it has one. */
  ecKeyStart: number | undefined;
  edits: TextEdit[];
  notes: MigrationProblem[];
}

/**
 * Above the monitor's `ErrorConditions` key, existing or new: where a comment on a field that got no entry of its
 * own still reads right (it says why the list lacks that entry). Comments of fields above the new list's anchor
 * go before the anchor's own comments, keeping their source order.
 */
function listPlace(b: BlockEdit, from: number): { at: number; pad: string } | undefined {
  const { src, anchor, ecKeyStart } = b;
  if (ecKeyStart !== undefined) return src.startsLine(ecKeyStart) ? { at: src.lineStart(ecKeyStart), pad: ' '.repeat(src.column(ecKeyStart)) } : undefined;
  if (anchor === undefined) return undefined;
  const anchorStart = startOf(anchor.key);
  if (!src.startsLine(anchorStart)) return undefined;
  const at = from < anchorStart ? (src.commentsAbove(anchorStart)?.start ?? src.lineStart(anchorStart)) : src.lineStart(anchorStart);
  return { at, pad: ' '.repeat(src.column(anchorStart)) };
}

/** An entry with the comments of the pairs it comes from (the anchor's own comments stay where they are). */
function rendered(b: BlockEdit, entry: PlannedEntry): RenderedEntry {
  const above: string[] = [];
  const trailing: string[] = [];
  for (const pair of entry.pairs) {
    if (pair !== b.anchor) above.push(...(b.src.commentsAbove(startOf(pair.key))?.lines ?? []));
    const comment = b.src.trailingComment(contentEnd(pair));
    if (comment !== undefined) trailing.push(comment);
  }
  if (trailing.length === 1) return { condition: entry.condition, above, trailing: trailing[0] };
  return { condition: entry.condition, above: [...above, ...trailing], trailing: undefined };
}

interface DroppedComment {
  field: string;
  first: ReturnType<typeof locate>;
  last: number;
}

/**
 * Removes every removed pair but the anchor from the text. A comment goes with its pair: into the new entry
 * (rendered), above the existing entry that stands for the pair, or, when the pair is dropped without a
 * replacement, out of the file with a note. Left in place it would describe whatever key follows.
 */
function removePairs(b: BlockEdit): void {
  const { plan, src, ctx } = b;
  const movedPairs = new Set<Pair>(plan.entries.flatMap((entry) => entry.pairs));
  const matchedItem = new Map<Pair, unknown>(plan.matched.flatMap((match) => match.pairs.map((pair) => [pair, match.item] as const)));
  /** Comment lines to insert, by offset, in source order: comments of pairs dropped from the text but kept in meaning. */
  const inserts = new Map<number, { pad: string; lines: string[] }>();
  const dropped: DroppedComment[] = [];
  for (const pair of plan.removedPairs) {
    if (pair === b.anchor) continue;
    const keyStart = startOf(pair.key);
    const end = src.endOfLine(contentEnd(pair));
    const above = src.commentsAbove(keyStart);
    if (!movedPairs.has(pair)) {
      const trailing = src.trailingComment(contentEnd(pair));
      const lines = [...(above?.lines ?? []), ...(trailing === undefined ? [] : [trailing])];
      if (lines.length > 0) {
        const item = matchedItem.get(pair);
        const place = (item === undefined ? undefined : abovePlace(src, item)) ?? listPlace(b, keyStart);
        if (place !== undefined) {
          const insert = inserts.get(place.at) ?? { pad: place.pad, lines: [] };
          insert.lines.push(...lines);
          inserts.set(place.at, insert);
        } else {
          const at = above !== undefined ? above.start + src.column(keyStart) : src.text.indexOf('#', contentEnd(pair));
          const first = locate(ctx, at);
          const last = trailing === undefined ? first.line + lines.length - 1 : locate(ctx, contentEnd(pair)).line;
          dropped.push({ field: keyName(pair) ?? 'a removed field', first, last: last });
        }
      }
    }
    if (src.startsLine(keyStart)) {
      b.edits.push({ start: above?.start ?? src.lineStart(keyStart), end, text: '' });
    } else {
      // The pair follows `- `: the next line's key moves up behind the dash.
      b.edits.push({ start: keyStart, end: src.skipSpaces(end), text: '' });
    }
  }
  noteDroppedComments(b, dropped);
  for (const [at, { pad, lines }] of inserts) b.edits.push({ start: at, end: at, text: lines.map((line) => `${pad}${line}${src.eol}`).join('') });
}

function noteDroppedComments(b: BlockEdit, dropped: DroppedComment[]): void {
  const [firstDropped] = dropped;
  if (firstDropped === undefined) return;
  const one = dropped.length === 1;
  const lines = dropped.map(({ first, last }) => (last === first.line ? `${first.line}` : `${first.line}-${last}`));
  b.notes.push({
    severity: 'info',
    code: 'MIGRATE_COMMENT_DROPPED',
    message:
      `monitor "${b.plan.monitor}": ${dropped.map((d) => d.field).join(' and ')} ${one ? 'was' : 'were'} dropped without a replacement, and the monitor ` +
      `has no ErrorConditions to carry ${one ? 'its comment' : 'their comments'} (${lines.length === 1 && !lines[0]?.includes('-') ? 'line' : 'lines'} ${lines.join(', ')}), ` +
      `so ${one ? 'it was' : 'they were'} removed too; put back by hand what still says something`,
    ...firstDropped.first,
  });
}

/** The monitor had no ErrorConditions: the new list takes the anchor pair's place. */
function replaceAnchor(b: BlockEdit, anchor: Pair, seqIndent: number): void {
  const { src } = b;
  const keyStart = startOf(anchor.key);
  const keyColumn = src.column(keyStart);
  const atLineStart = src.startsLine(keyStart);
  const end = src.endOfLine(contentEnd(anchor));
  let text = `${atLineStart ? ' '.repeat(keyColumn) : ''}ErrorConditions:${src.eol}`;
  text += renderEntries(
    b.plan.entries.map((entry) => rendered(b, entry)),
    keyColumn + seqIndent,
    'flow',
    src.eol,
  );
  if (!src.text.slice(keyStart, end).endsWith('\n')) text = text.slice(0, -src.eol.length);
  b.edits.push({ start: atLineStart ? src.lineStart(keyStart) : keyStart, end, text });
}

/** A block list: the entries follow its last item, in the style of its first. */
function appendToBlockList(b: BlockEdit, seq: YAMLSeq, ecKeyStart: number, lastRange: readonly [number, number, number]): void {
  const { src } = b;
  const seqStart = rangeOf(seq)?.[0] ?? ecKeyStart;
  const first = seq.items[0];
  const style = isMap(first) && !first.flow ? 'block' : 'flow';
  let at = src.endOfLine(lastRange[1]);
  let text = renderEntries(
    b.plan.entries.map((entry) => rendered(b, entry)),
    src.column(seqStart),
    style,
    src.eol,
    paddedFlow(src, first),
  );
  if (at === src.text.length && !src.text.endsWith('\n')) text = src.eol + text.slice(0, -src.eol.length);
  if (at < src.text.length && src.text[at - 1] !== '\n') at = src.text.length;
  b.edits.push({ start: at, end: at, text });
}

/** A one-line list stays one line; comments of the removed fields go above the ErrorConditions key. */
function appendToFlowList(b: BlockEdit, seq: YAMLSeq, ecKeyStart: number, lastRange: readonly [number, number, number]): void {
  const { src } = b;
  const padded = paddedFlow(src, seq.items[0]);
  const inserted = b.plan.entries.map((entry) => `, ${renderFlowCondition(entry.condition, padded)}`).join('');
  b.edits.push({ start: lastRange[1], end: lastRange[1], text: inserted });
  const comments = b.plan.entries.flatMap((entry) => {
    const lines = rendered(b, entry);
    return [...lines.above, ...(lines.trailing === undefined ? [] : [lines.trailing])];
  });
  if (comments.length > 0 && src.startsLine(ecKeyStart)) {
    const pad = ' '.repeat(src.column(ecKeyStart));
    const lineStart = src.lineStart(ecKeyStart);
    b.edits.push({ start: lineStart, end: lineStart, text: comments.map((line) => `${pad}${line}${src.eol}`).join('') });
  }
}

/** `ErrorConditions: []` or `ErrorConditions:` with no value: the entries become a block list under the key. */
function fillEmptyList(b: BlockEdit, existing: ExistingConditions, ecKeyStart: number, seqIndent: number): boolean {
  const { src } = b;
  if (!src.startsLine(ecKeyStart)) return false;
  const valueRange = rangeOf(existing.pair.value);
  const keyEnd = rangeOf(existing.pair.key)?.[1] ?? ecKeyStart;
  if (existing.seq && valueRange) {
    const before = src.text.slice(keyEnd, valueRange[0]);
    const colon = before.indexOf(':');
    if (colon === -1) return false;
    b.edits.push({ start: keyEnd + colon + 1, end: valueRange[1], text: '' });
  }
  const lineEnd = src.endOfLine(valueRange ? Math.max(valueRange[1], keyEnd) : keyEnd);
  let text = renderEntries(
    b.plan.entries.map((entry) => rendered(b, entry)),
    src.column(ecKeyStart) + seqIndent,
    'flow',
    src.eol,
  );
  if (lineEnd === src.text.length && !src.text.endsWith('\n')) text = src.eol + text.slice(0, -src.eol.length);
  b.edits.push({ start: lineEnd, end: lineEnd, text });
  return true;
}

/**
 * Text edits for one block-map monitor. Only the removed pairs' lines and the `ErrorConditions` list are
 * touched, so aligned comments, quoting and spacing elsewhere stay byte for byte.
 */
function blockMonitorEdits(plan: MonitorPlan, src: SourceText, seqIndent: number, ctx: SourceContext): PlanEdits | undefined {
  const b: BlockEdit = {
    plan,
    src,
    ctx,
    anchor: anchorOf(plan),
    ecKeyStart: plan.existing === undefined ? undefined : startOf(plan.existing.pair.key),
    edits: [],
    notes: [],
  };
  const done = { edits: b.edits, notes: b.notes };
  removePairs(b);
  if (b.anchor) {
    replaceAnchor(b, b.anchor, seqIndent);
    return done;
  }
  const existing = plan.existing;
  const ecKeyStart = b.ecKeyStart;
  if (!existing || ecKeyStart === undefined || plan.entries.length === 0) return done;
  const seq = existing.seq;
  const lastItem = seq?.items[seq.items.length - 1];
  const lastRange = rangeOf(lastItem);
  if (seq && !seq.flow && lastRange) appendToBlockList(b, seq, ecKeyStart, lastRange);
  else if (seq && seq.flow && lastItem !== undefined && lastRange) appendToFlowList(b, seq, ecKeyStart, lastRange);
  else if (!fillEmptyList(b, existing, ecKeyStart, seqIndent)) return undefined;
  return done;
}

/** The same change through the Document API: the oracle the spliced text must parse back to. */
function applyToDocument(doc: Document, plan: MonitorPlan): void {
  const conditions = plan.entries.map((entry) => entry.condition);
  const map = plan.map;
  if (plan.existing) {
    if (conditions.length > 0) {
      if (plan.existing.seq) for (const condition of conditions) plan.existing.seq.items.push(conditionNode(doc, condition));
      else plan.existing.pair.value = newSeq(doc, conditions);
    }
    map.items = map.items.filter((pair) => !plan.removedPairs.includes(pair));
    return;
  }
  const anchor = anchorOf(plan);
  map.items = map.items.flatMap((pair) => {
    if (pair === anchor && conditions.length > 0) return [new Pair(new Scalar('ErrorConditions'), newSeq(doc, conditions))];
    return plan.removedPairs.includes(pair) ? [] : [pair];
  });
}

function renderNode(node: unknown, padded: boolean): string {
  const doc = new Document();
  doc.contents = node as Document['contents'];
  return doc.toString({ lineWidth: 0, flowCollectionPadding: padded }).replace(/\n$/, '');
}

/** Whether `text` parses cleanly to exactly the data of the edited document. */
function sameMeaning(text: string, doc: Document): boolean {
  try {
    const check = parseDocument(text, PARSE_OPTIONS);
    return check.errors.length === 0 && isDeepStrictEqual(check.toJS(TO_JS), doc.toJS(TO_JS));
  } catch {
    // toJS throws on aliases it cannot resolve: then the meanings cannot be shown equal.
    return false;
  }
}

/**
 * Rewrites the monitors of one YAML file off the removed fields. The edits are spliced into the original
 * text, then checked: the result must parse to exactly what the Document API edit gives, or the file is
 * left alone and a MIGRATE_REWRITE_FAILED problem says so.
 */
export function rewriteYamlSource(source: string, file: string, shown: string = file): RewriteOutcome {
  const lineCounter = new LineCounter();
  const ctx: SourceContext = { file, shown, lineCounter };
  const doc = parseDocument(source, { ...PARSE_OPTIONS, lineCounter });
  const problems: MigrationProblem[] = [];
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      problems.push({
        severity: 'error',
        code: 'MIGRATE_YAML_ERROR',
        message: `${error.message.split('\n')[0] ?? error.message}; the file was not migrated (fix the YAML first)`,
        ...locate(ctx, error.pos[0]),
      });
    }
    return { text: undefined, changes: [], problems };
  }
  const root = doc.contents;
  if (!isMap(root)) return { text: undefined, changes: [], problems };
  const monitors = root.items.find((pair) => keyName(pair) === 'monitors')?.value;
  if (!isSeq(monitors)) return { text: undefined, changes: [], problems };

  const src = new SourceText(source);
  const seqIndent = sequenceIndent(src, root);
  const edits: TextEdit[] = [];
  const changes: MigrationChange[] = [];

  monitors.items.forEach((item, index) => {
    if (!isMap(item)) return;
    const analysis = analyzeMonitor(item, index, ctx);
    if (analysis.kind === 'none') return;
    if (analysis.kind === 'blocked') {
      problems.push(...analysis.problems);
      return;
    }
    const plan = analysis.plan;
    const planned = item.flow ? undefined : blockMonitorEdits(plan, src, seqIndent, ctx);
    const padded = paddedFlow(src, item);
    applyToDocument(doc, plan);
    if (planned) {
      edits.push(...planned.edits);
    } else {
      const range = rangeOf(item);
      if (!range) return;
      edits.push({ start: range[0], end: range[1], text: renderNode(item, padded) });
    }
    problems.push(...plan.notes, ...(planned?.notes ?? []));
    changes.push({
      ...plan.location,
      monitor: plan.monitor,
      removed: plan.removedPairs.map((pair) => keyName(pair) ?? ''),
      added: plan.entries.map((entry) => entry.condition),
    });
  });

  if (changes.length === 0) return { text: undefined, changes, problems };
  const spliced = applyEdits(source, edits);
  // A file that ended without a newline still does (the last removed line may have carried the end).
  const text = spliced !== undefined && !source.endsWith('\n') ? spliced.replace(/\r?\n$/, '') : spliced;
  if (text === undefined || !sameMeaning(text, doc)) {
    // Never write a file whose meaning we did not intend; the layout is unusual enough to need a hand edit.
    return {
      text: undefined,
      changes: [],
      problems: [
        ...problems.filter((problem) => problem.severity !== 'info'),
        {
          severity: 'error',
          code: 'MIGRATE_REWRITE_FAILED',
          message:
            'the rewrite of this file could not be verified (its layout is unusual), so it was left unchanged; ' +
            'move the removed fields of its monitors into ErrorConditions by hand',
          ...locate(ctx, startOf(monitors)),
        },
      ],
    };
  }
  return { text, changes, problems };
}

