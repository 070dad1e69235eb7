import { resolve } from 'node:path';
import type { CommandSpec } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { useColor } from '../io.js';
import { displayPath } from '../load.js';
import { readPlanFile } from '../plan-file.js';
import { PLAN_FORMAT_OPTIONS, planFormat, renderPlan } from '../renderers.js';

export const showCommand: CommandSpec = {
  name: 'show',
  summary: 'print a plan saved with plan --out, as text, markdown or json, without calling the API',
  usage: 'show PLANFILE [--format text|markdown|json | --json]',
  description:
    'Reads a plan file written by monsync plan --out (checked against schemas/plan.schema.json; an edited or\n' +
    'truncated file is refused with its line and column) and prints it as monsync plan would have: text (default),\n' +
    'markdown (for a PR comment) or json. Needs no credentials and makes no API request: the file holds everything\n' +
    'shown, secrets only as (sensitive). Whether the plan still applies is for monsync apply PLANFILE to say.\n' +
    'Exit codes: 0 shown, 1 the file is missing or not a monsync plan.',
  options: {
    ...PLAN_FORMAT_OPTIONS,
  },
  positionals: { min: 1, max: 1, names: 'PLANFILE', complete: 'file' },
  examples: ['monsync show plan.json', 'monsync show plan.json --format markdown > plan.md'],
  async run({ io, values, positionals }) {
    const file = positionals[0] ?? '';
    const plan = await readPlanFile(io, file);
    const format = planFormat(values, 'show');
    io.stdout.write(renderPlan(plan, format, { color: useColor(io), planFile: displayPath(io.cwd, resolve(io.cwd, file)) }));
    return ExitCode.Ok;
  },
};
