import type { SourceRef } from '../desired.js';
import { plainText } from '../render/escape.js';

export type PlanProblemCode =
  | 'DUPLICATE_LIVE_KEY'
  | 'DUPLICATE_DESIRED_KEY'
  | 'PINNED_GUID_NOT_FOUND'
  | 'PINNED_GUID_TWICE'
  | 'UNRESOLVED_REFERENCE'
  | 'REFERENCE_TO_DELETED'
  | 'DELETE_IN_USE'
  | 'DELETE_NOT_EMPTY'
  | 'MISSING_FINGERPRINT'
  | 'SECRET_UNAVAILABLE'
  | 'CREATE_FIELD_MISSING'
  | 'LIVE_NOT_READ'
  | 'LIVE_RESTRICTED'
  | 'LOCK_OUT'
  | 'TARGET_ORPHANS'
  | 'UNKNOWN_ESCALATION_LEVEL'
  | 'INTEGRATION_SETTING_REFUSED';

/**
 * Why a plan cannot be made, as data: the position of the declaration at fault (when one is), a code, and a
 * message that does not repeat the position. `PlanError` formats them as `file:line:col: message`.
 */
export interface PlanProblem {
  code: PlanProblemCode;
  message: string;
  file?: string;
  line?: number;
  col?: number;
}

/** A problem positioned at `source` (none when the problem has no declaration to point at). */
export function planProblem(code: PlanProblemCode, message: string, source?: SourceRef): PlanProblem {
  return source === undefined ? { code, message } : { code, message, file: source.file, line: source.line, col: source.column };
}

/** `file:line:col`, for a message naming another declaration. */
export function place(source: SourceRef): string {
  return `${plainText(source.file)}:${source.line}:${source.column}`;
}

/** `file:line:col: ` before a warning's message (warnings are plan JSON, where the position is part of the text). */
export function at(source: SourceRef | undefined): string {
  return source === undefined ? '' : `${place(source)}: `;
}

/** The problem as one line: `file:line:col: message`, or the message alone. */
export function problemLine(problem: PlanProblem): string {
  return problem.file === undefined ? problem.message : `${plainText(problem.file)}:${problem.line ?? 1}:${problem.col ?? 1}: ${problem.message}`;
}

/**
 * The plan cannot be made (Terraform refuses to plan rather than guess). Every problem found is collected, so one
 * run shows them all; `code` is the first problem's code.
 */
export class PlanError extends Error {
  readonly code: PlanProblemCode;
  readonly problems: PlanProblem[];

  constructor(problems: PlanProblem[]) {
    const first = problems[0];
    if (first === undefined) throw new TypeError('PlanError needs at least one problem');
    const head = problems.length === 1 ? 'cannot plan' : `cannot plan (${problems.length} problems)`;
    super(`${head}:\n${problems.map((p) => `  ${problemLine(p)}`).join('\n')}`);
    this.name = 'PlanError';
    this.code = first.code;
    this.problems = problems;
  }
}

/**
 * `LIVE_READ_FAILED`: a listing failed. `MALFORMED_LISTING`: a listing answered with an entry that is not of its shape
 * (the client's error says which entry and what was expected). `LIVE_INCOMPLETE`: the listings answered but
 * contradict each other (a group names monitors the monitor listing lacks). `LIVE_RESTRICTED`: the API account sees
 * only part of the data.
 */
export type LiveReadErrorCode = 'LIVE_READ_FAILED' | 'MALFORMED_LISTING' | 'LIVE_INCOMPLETE' | 'LIVE_RESTRICTED';

function isMalformedListing(cause: unknown): boolean {
  return cause instanceof Error && (cause as { code?: unknown }).code === 'MALFORMED_LISTING';
}

/** A listing failed or is not whole: the plan must not read it as complete (that would plan creates of what exists and deletes). */
export class LiveReadError extends Error {
  readonly code: LiveReadErrorCode;
  readonly listing: string;

  /** With `problem`, the listings answered but cannot be trusted: its message says why and what to do. */
  constructor(listing: string, cause: unknown, problem?: { code: Exclude<LiveReadErrorCode, 'LIVE_READ_FAILED' | 'MALFORMED_LISTING'>; message: string }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const malformed = isMalformedListing(cause);
    const message = malformed
      ? `${reason}. No plan was made: a listing is read whole or not at all (an entry that does not name its object would be planned as something else, a delete)`
      : `reading ${listing} from the service failed, so no plan was made (a failed listing is never read as empty): ${reason}`;
    super(problem?.message ?? message, cause === undefined ? {} : { cause });
    this.name = 'LiveReadError';
    this.code = problem?.code ?? (malformed ? 'MALFORMED_LISTING' : 'LIVE_READ_FAILED');
    this.listing = listing;
  }
}
