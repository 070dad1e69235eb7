import { join, resolve } from 'node:path';
import { globMatches, type Plan, type PlanStep } from '@monsync/reconciler';
import { ALERT_DEFINITION_KIND } from '@monsync/schema';
import { closest, jsonOption, stringOption } from '../args.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { resolveConfigDir } from '../config-dir.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { displayPath } from '../load.js';
import { TARGET_KINDS } from '../targets.js';
import { DEFAULT_NEW_OBJECTS_FILE, planForPull, relativeFile, withPullResult, writeIntoTree, type TreeWritten } from './pull-into.js';

/** A live object the tree leaves out: unmanaged (prune: false), or one the plan would delete (prune: true). */
type Candidate = Pick<PlanStep, 'kind' | 'key'> & { guid?: string | undefined; step?: PlanStep };

function candidatesOf(plan: Plan, kind: string): Candidate[] {
  const pruned = plan.steps.filter((step) => step.action === 'delete' && step.kind === kind).map((step) => ({ kind: step.kind, key: step.key, guid: step.guid, step }));
  const unmanaged = plan.unmanaged.filter((entry) => entry.kind === kind).map((entry) => ({ kind: entry.kind as PlanStep['kind'], key: entry.key, guid: entry.guid }));
  return [...pruned, ...unmanaged];
}

/** A NAME matches a candidate by key, by GUID (any case), or as a glob (* and ?) over keys. */
function matches(name: string, candidate: Candidate): boolean {
  if (candidate.key === name || candidate.guid?.toLowerCase() === name.toLowerCase()) return true;
  return /[*?]/.test(name) && globMatches(name, candidate.key);
}

/** The candidates the NAMEs match, and the NAMEs that match none (with the closest key). */
function choose(plan: Plan, kind: string, names: readonly string[]): { candidates: Candidate[]; chosen: Set<Candidate>; missing: string[] } {
  const candidates = candidatesOf(plan, kind);
  const chosen = new Set<Candidate>();
  const missing: string[] = [];
  for (const name of names) {
    const hits = candidates.filter((candidate) => matches(name, candidate));
    if (hits.length === 0) {
      const suggestion = closest(name, candidates.map((candidate) => candidate.key));
      missing.push(`${kind} ${JSON.stringify(name)}${suggestion === undefined ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`}`);
    }
    hits.forEach((hit) => chosen.add(hit));
  }
  return { candidates, chosen, missing };
}

/** The plan pullInto answers: a delete step per chosen object, which it writes into the tree as pull --into does. */
function adoptionPlan(plan: Plan, chosen: readonly Candidate[]): Plan {
  const steps = chosen.map(
    (candidate): PlanStep =>
      candidate.step ?? { id: `${candidate.kind}:${candidate.key}`, action: 'delete', kind: candidate.kind, key: candidate.key, ...(candidate.guid === undefined ? {} : { guid: candidate.guid }), changes: [], dependsOn: [] },
  );
  return { ...plan, steps, unmanaged: [] };
}

export const importCommand: CommandSpec = {
  name: 'import',
  summary: 'adopt chosen live objects that the tree leaves out into the tree, in place, comments kept',
  usage: 'import KIND NAME... [--file FILE] [--json]',
  description:
    'Reads the tree and the live account as plan does, and writes the named live objects of KIND that no file\n' +
    'declares (unmanaged with prune: false, or about to be deleted with prune: true) into the tree, as pull --into\n' +
    'writes objects made outside git: a child (a vault item, an SLA exclusion period, a group member) into its\n' +
    `parent's declaration, anything else into FILE (default ${DEFAULT_NEW_OBJECTS_FILE} at the root of the tree; created when\n` +
    'absent, appended to when present). The rest of each file, its comments and layout included, stays as it is.\n' +
    'NAME is the key plan shows (a monitor\'s Name, Section/Item for a vault item), the GUID, or a glob (* and ?).\n' +
    'Secrets cannot be read back: each is written as a { fromEnv: ... } placeholder, listed at the end. Nothing is\n' +
    'written unless every NAME matches and the edited tree validates. Kinds: ' + TARGET_KINDS.join(', ') + '.\n' +
    'Environment: as for monsync plan. Exit codes: 0 written, 1 error (a NAME that matches nothing: nothing written).',
  options: {
    file: { type: 'string', value: 'FILE', description: `the .yaml file in the tree that takes the objects without a parent (default ${DEFAULT_NEW_OBJECTS_FILE} at the root)` },
    json: jsonOption('pull'),
  },
  positionals: { min: 2, max: Number.MAX_SAFE_INTEGER, names: 'KIND NAME...', complete: TARGET_KINDS },
  examples: ['monsync import monitor "Status page" "Blog"', 'monsync import vaultItem Web/shop-login --file configs/vault.yaml', 'monsync import monitor "legacy-*"'],
  async run(context) {
    return withPullResult(context, 'import', (io) => adopt({ ...context, io }));
  },
};

/** Finds the named objects among those the tree leaves out and writes them into the tree. */
async function adopt(context: CommandContext): Promise<TreeWritten | number> {
  const { io, values, positionals, global } = context;
  const [kind = '', ...names] = positionals;
  if (!(TARGET_KINDS as readonly string[]).includes(kind)) {
    const suggestion = closest(kind, TARGET_KINDS);
    throw new UsageError(`'${kind}' is not a kind${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}; kinds: ${TARGET_KINDS.join(', ')}`, 'import');
  }
  const dir = resolveConfigDir(io.cwd, global.config);
  const file = stringOption(values, 'file');
  const target = relativeFile(io, dir, file ?? join(dir, DEFAULT_NEW_OBJECTS_FILE), '--file');
  // An alert definition is written whole: its members and levels' members are read for the chosen ones only.
  const whole = (plan: Plan) => (kind === ALERT_DEFINITION_KIND.kind ? [...choose(plan, kind, names).chosen].flatMap((candidate) => candidate.guid ?? []) : []);
  const planned = await planForPull(context, dir, { whole });
  if (planned === undefined) return ExitCode.Error;
  const { candidates, chosen, missing } = choose(planned.plan, kind, names);
  if (missing.length > 0) {
    const shown = candidates.slice(0, 10).map((candidate) => `  ${candidate.kind} ${JSON.stringify(candidate.key)}${candidate.guid === undefined ? '' : ` (${candidate.guid})`}`);
    const more = candidates.length > 10 ? [`  and ${candidates.length - 10} more (monsync plan lists them)`] : [];
    throw new CliError(
      'IMPORT_NOT_FOUND',
      `no live object the tree leaves out matches ${missing.join(', ')}; nothing was written to ${displayPath(io.cwd, resolve(dir))}. An object declared already is managed, and one of a kind monsync.yaml does not manage is not read (add it to manage: with prune: false).` +
        (candidates.length === 0 ? ` The tree leaves out no live ${kind}.` : `\nThe live ${kind} objects it leaves out:\n${[...shown, ...more].join('\n')}`),
    );
  }
  return writeIntoTree(io, dir, planned, adoptionPlan(planned.plan, [...chosen]), target, `${chosen.size} live object${chosen.size === 1 ? '' : 's'}`);
}
