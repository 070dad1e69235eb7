import { relative } from 'node:path';
import { childKinds, formatDiagnostic, hasErrors, isPolicyFinding, loadConfig, topLevelKinds, type DesiredState, type Diagnostic } from '@monsync/schema';
import { style, useColor, type CliIo } from './io.js';
import { plainLines, plainText } from '@monsync/reconciler/escape';

export interface LoadedTree {
  /** Undefined when the tree has errors (they have been printed). */
  desired: DesiredState | undefined;
  errors: number;
  warnings: number;
  /** The config folder as the user would write it (relative to the working directory when inside it). */
  label: string;
  /** Every finding, with `file` as the user would write it (the config folder's label in front). */
  diagnostics: Diagnostic[];
}

/** A diagnostic's file as the user would write it: relative to the working directory, so editors open the right file. */
function shownFile(label: string, diagnostic: Diagnostic): Diagnostic {
  return label === '.' ? diagnostic : { ...diagnostic, file: `${label}/${diagnostic.file}` };
}

export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}

/**
 * `file:line:col: severity CODE: message` plus the caret snippet from the file's text as the loader read it (`sources`),
 * coloured on a terminal. Nothing is read again: a file the loader refused (a link out of the tree, a device) is
 * never opened to quote it.
 */
export function printDiagnostics(io: CliIo, label: string, diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, string>): void {
  const s = style(useColor(io));
  for (const diagnostic of diagnostics) {
    // File names, messages quoting config values and the quoted source line are shown with the terminal's escapes.
    const named = shownFile(label, diagnostic);
    const shown = { ...named, file: plainText(named.file), message: plainText(diagnostic.message), ...(diagnostic.hint === undefined ? {} : { hint: plainText(diagnostic.hint) }) };
    // A literal secret sits on the very line a snippet would quote: print the position without the line.
    const text = diagnostic.code === 'LITERAL_SECRET' ? undefined : sources.get(diagnostic.file);
    const [head = '', ...rest] = plainLines(formatDiagnostic(shown, text === undefined ? {} : { source: text })).split('\n');
    const paint = diagnostic.severity === 'error' ? s.red : s.yellow;
    io.stderr.write(`${[paint(head), ...rest].join('\n')}\n`);
  }
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Loads and validates the tree, printing every diagnostic to stderr so that stdout stays the command's own
 * output (a plan, JSON). With `needSecrets`, a secret that cannot be read is an error (plan, apply).
 */
export async function loadTree(dir: string, io: CliIo, options: { needSecrets: boolean; policyErrorsBlock?: boolean; quiet?: boolean }): Promise<LoadedTree> {
  const label = displayPath(io.cwd, dir);
  const { desired, diagnostics, sources } = await loadConfig(dir, { env: io.env, resolveSecrets: options.needSecrets });
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const shown = diagnostics.map((diagnostic) => shownFile(label, diagnostic));
  // quiet: the caller reports them itself (validate --json).
  if (options.quiet !== true) printDiagnostics(io, label, diagnostics, sources);
  // plan goes on past policy findings, to show them with the plan they belong to (and then exits 1).
  const blocking = options.policyErrorsBlock === false ? diagnostics.filter((d) => !isPolicyFinding(d)) : diagnostics;
  if (hasErrors(blocking)) {
    const s = style(useColor(io));
    if (options.quiet !== true) io.stderr.write(s.red(`${label}: ${plural(errors, 'error')}${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}; nothing was sent to the API.`) + '\n');
    return { desired: undefined, errors, warnings, label, diagnostics: shown };
  }
  return { desired, errors, warnings, label, diagnostics: shown };
}

type KindEntry = ReturnType<typeof topLevelKinds>[number];

/** Each top-level kind of the registry with how many are declared, and its children (those declared inside a parent) with theirs. */
function declaredByKind(desired: DesiredState): { entry: KindEntry; count: number; children: { child: KindEntry; count: number }[] }[] {
  return topLevelKinds().flatMap((entry) => {
    if (entry.stateField === undefined) return [];
    const declared: readonly { value: Record<string, unknown> }[] = desired[entry.stateField] ?? [];
    const children = childKinds(entry).map((child) => {
      const field = child.path[child.path.length - 1] ?? '';
      return { child, count: declared.reduce((sum, parent) => sum + (Array.isArray(parent.value[field]) ? (parent.value[field] as unknown[]).length : 0), 0) };
    });
    return [{ entry, count: declared.length, children }];
  });
}

/** `3 monitors, 1 vault section with 2 items, ...`: each top-level kind of the registry, with the children declared in it. */
export function countDeclared(desired: DesiredState): string {
  return declaredByKind(desired)
    .map(({ entry, count, children }) => {
      const inside = children.flatMap(({ child, count: n }) => (child.title.inParent === undefined ? [] : [` with ${plural(n, child.title.inParent.one, child.title.inParent.many)}`]));
      return `${plural(count, entry.title.one, entry.title.many)}${inside.join('')}`;
    })
    .join(', ');
}

/** Objects declared per kind name (`monitor`, `vaultItem`, ...), for validate --json. */
export function declaredCounts(desired: DesiredState): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { entry, count, children } of declaredByKind(desired)) {
    counts[entry.kind] = count;
    for (const { child, count: n } of children) counts[child.kind] = n;
  }
  return counts;
}
