import * as core from '@actions/core';
import { checkApiUrlValue, DEFAULT_PARALLELISM, MAX_PARALLELISM } from '@monsync/reconciler';
import { likelyMeant } from '@monsync/schema';
import { ActionInputError } from './errors.js';

export const COMMANDS = ['plan', 'apply', 'drift'] as const;
export type Command = (typeof COMMANDS)[number];

/** The inputs that are credentials: read first, so that they are masked before anything is printed. */
export interface Credentials {
  apiUrl: string;
  apiUsername: string;
  apiPassword: string;
  fingerprintKey: string;
  githubToken: string;
}

export interface ActionInputs extends Credentials {
  command: Command;
  /** The config folder as given, relative to the workspace. */
  config: string;
  comment: boolean;
  parallelism: number;
  /** Accept a plan over the safety thresholds (`allow-unsafe`, or its former name `allow-deletes`). */
  allowUnsafe: boolean;
  /** The input `operators`: e-mails or GUIDs of the API accounts' operators, as given (split by the reconciler). */
  operators: string;
  /** Take the apply lock in the account while applying ('false' when the API account may not create SLAs). */
  lock: boolean;
  /** drift: keep an "Accept live changes" pull request that writes the live account into the tree. */
  driftPr: boolean;
  /** apply: what happens to steps nobody reviewed (new or changed since the plan comment): held, or applied on purpose. */
  unreviewed: Unreviewed;
  /** plan: comment (one line) on a pull request that changes nothing in the account. */
  commentUnchanged: boolean;
  /** The login github-token writes as, when given (`tokenLogin` asks GitHub otherwise). */
  githubLogin: string;
}

export const UNREVIEWED = ['hold', 'apply'] as const;
export type Unreviewed = (typeof UNREVIEWED)[number];

/** The names of the inputs in messages: the user set an input, not a variable. */
export const INPUT_NAMES = { url: 'input api-url', username: 'input api-username', password: 'input api-password' } as const;

/**
 * The credentials as given. The workflow token is the default of `github-token` in action.yml; run elsewhere (tests,
 * local runners) the GITHUB_TOKEN variable stands in for it.
 */
export function readCredentials(env: Readonly<Record<string, string | undefined>> = process.env): Credentials {
  return {
    apiUrl: core.getInput('api-url'),
    apiUsername: core.getInput('api-username'),
    apiPassword: core.getInput('api-password'),
    fingerprintKey: core.getInput('fingerprint-key'),
    githubToken: core.getInput('github-token') || (env['GITHUB_TOKEN']?.trim() ?? ''),
  };
}

function booleanInput(name: string, fallback: boolean, problems: string[]): boolean {
  const raw = core.getInput(name);
  if (raw === '') return fallback;
  if (/^true$/i.test(raw)) return true;
  if (/^false$/i.test(raw)) return false;
  problems.push(`input ${name}: ${JSON.stringify(raw)} is not true or false; write ${name}: 'true' or ${name}: 'false'`);
  return fallback;
}

/** `allow-unsafe`, or `allow-deletes`, its former name, accepted for one more release with a warning. */
function allowUnsafeInput(problems: string[]): boolean {
  const allowed = booleanInput('allow-unsafe', false, problems);
  if (core.getInput('allow-deletes') === '') return allowed;
  core.warning('input allow-deletes is deprecated and will be removed in the next release; write allow-unsafe instead (it accepts any unsafe plan, updates as well as deletes)');
  return booleanInput('allow-deletes', false, problems) || allowed;
}

/** Every input checked at once, so one failed run names every mistake. */
export function readInputs(credentials: Credentials): ActionInputs {
  const problems: string[] = [];
  const rawCommand = core.getInput('command');
  let command: Command = 'plan';
  if (rawCommand === '') problems.push(`input command is required: one of ${COMMANDS.join(', ')}`);
  else if ((COMMANDS as readonly string[]).includes(rawCommand)) command = rawCommand as Command;
  else {
    const meant = likelyMeant(rawCommand, COMMANDS);
    problems.push(`input command: ${JSON.stringify(rawCommand)} is not one of ${COMMANDS.join(', ')}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`);
  }
  const config = core.getInput('config') || '.';
  const comment = booleanInput('comment', true, problems);
  const allowUnsafe = allowUnsafeInput(problems);
  const lock = booleanInput('lock', true, problems);
  const driftPr = booleanInput('drift-pr', false, problems);
  const commentUnchanged = booleanInput('comment-unchanged', true, problems);
  const rawUnreviewed = core.getInput('unreviewed') || 'hold';
  if (!(UNREVIEWED as readonly string[]).includes(rawUnreviewed)) {
    problems.push(`input unreviewed: ${JSON.stringify(rawUnreviewed)} is not hold or apply; write unreviewed: hold (apply only reviewed steps) or unreviewed: apply`);
  }
  const rawParallelism = core.getInput('parallelism');
  let parallelism = DEFAULT_PARALLELISM;
  if (rawParallelism !== '') {
    const n = Number(rawParallelism);
    if (!/^\d+$/.test(rawParallelism) || !Number.isInteger(n) || n < 1 || n > MAX_PARALLELISM) {
      problems.push(`input parallelism: ${JSON.stringify(rawParallelism)} is not a whole number from 1 to ${MAX_PARALLELISM}`);
    } else parallelism = n;
  }
  try {
    checkApiUrlValue(credentials.apiUrl, INPUT_NAMES);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0) throw new ActionInputError(problems.length === 1 ? (problems[0] ?? '') : `the step's inputs have ${problems.length} problems:\n- ${problems.join('\n- ')}`);
  const operators = core.getInput('operators');
  const githubLogin = core.getInput('github-login');
  return { ...credentials, command, config, comment, parallelism, allowUnsafe, operators, lock, driftPr, unreviewed: rawUnreviewed as Unreviewed, commentUnchanged, githubLogin };
}

/** Which of the three API settings are empty, by input name. */
export function missingApiInputs(inputs: Credentials): string[] {
  const missing: string[] = [];
  if (inputs.apiUrl === '') missing.push('api-url');
  if (inputs.apiUsername === '') missing.push('api-username');
  if (inputs.apiPassword === '') missing.push('api-password');
  return missing;
}
