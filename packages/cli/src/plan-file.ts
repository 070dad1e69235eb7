import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plan } from '@monsync/reconciler';
import { parsePlanFile, PlanFileError } from '@monsync/schema';
import { CliError } from './errors.js';
import type { CliIo } from './io.js';

/** The plan JSON written by `plan --out`, validated against the plan schema (a truncated or edited file is refused). */
export async function readPlanFile(io: CliIo, file: string): Promise<Plan> {
  const path = resolve(io.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('PLAN_FILE_UNREADABLE', `${file}: cannot read the plan file (${(error as NodeJS.ErrnoException).code ?? String(error)}); pass a file written by monsync plan --out FILE`);
  }
  try {
    return await parsePlanFile(text);
  } catch (error) {
    if (!(error instanceof PlanFileError)) throw error;
    const advice = error.code === 'PLAN_FILE_VERSION' ? '' : '; pass a file written by monsync plan --out FILE';
    const at = error.position === undefined ? '' : `:${error.position.line}:${error.position.col}`;
    throw new CliError('PLAN_FILE_INVALID', `${file}${at}: ${error.message}${advice}`);
  }
}

