/**
 * Load -> session -> read -> plan, once for every caller: `monsync plan`, `monsync apply` and the GitHub Action.
 * Callers bring what differs (how findings are shown, the client's options, progress around the read); the order
 * and the rules (nothing is sent before the tree and its secrets are good; a failed read closes the session) are here.
 */
import type { DesiredState } from '../desired.js';
import { readLiveAgainOnUnclear } from '../apply/read-live-again.js';
import { readLive } from '../live/read-live.js';
import { selfMatters } from '../live/self.js';
import type { LiveSnapshot } from '../live/types.js';
import { liveScope } from '../plan/scope.js';
import type { FreshPlan } from './saved-plan.js';
import type { PlanSession } from './session.js';

export interface ReadAndPlanOptions<S extends PlanSession = PlanSession> {
  /** Apply's read: a listing with an unclear outcome is read again rather than failing the run. */
  rereadOnUnclear?: boolean;
  targets?: readonly string[];
  /** Keep the oldest of live objects sharing a key and delete the others (`--dedupe`). */
  dedupe?: boolean;
  /** `kind:key` patterns whose write-once fields are sent again (`--rotate operator:<Email>`). */
  rotate?: readonly string[];
  /** Runs the read: callers show progress around it, or close the session on failure. */
  around?(read: () => Promise<LiveSnapshot>, session: S): Promise<LiveSnapshot>;
}

export interface ReadAndPlan extends FreshPlan {
  live: LiveSnapshot;
}

/** Reads the live account on an open session and plans the session's tree against it. */
export async function readAndPlan<S extends PlanSession>(session: S, options: ReadAndPlanOptions<S> = {}): Promise<ReadAndPlan> {
  const planned = liveScope(session.desired);
  // The record of the API account's operator is read only when no operator is named and the plan uses it.
  const scope = session.readsSelf === true && selfMatters(planned) ? { ...planned, self: true } : planned;
  const read = () => (options.rereadOnUnclear === true ? readLiveAgainOnUnclear(session.client, scope) : readLive(session.client, scope));
  const live = await (options.around === undefined ? read() : options.around(read, session));
  const dedupe = { dedupe: options.dedupe === true, rotate: options.rotate };
  return { live, plan: session.plan(live, options.targets, dedupe), narrowed: (targets) => session.plan(live, targets, dedupe) };
}

export interface PipelineSteps<S extends PlanSession> {
  /** Loads and validates the tree, showing its findings; undefined when it has errors (then nothing is sent). */
  load(): Promise<DesiredState | undefined>;
  /** Opens the session on the tree: credentials, fingerprints (every secret read), client; no request yet. */
  open(desired: DesiredState): S;
}

/**
 * The whole pipeline. Returns the session open with the plan (apply goes on to use it; the caller closes it), or
 * undefined when the tree has errors. A failed read closes the session before the error goes on.
 */
export async function planPipeline<S extends PlanSession>(steps: PipelineSteps<S>, options: ReadAndPlanOptions<S> = {}): Promise<(ReadAndPlan & { session: S }) | undefined> {
  const desired = await steps.load();
  if (desired === undefined) return undefined;
  const session = steps.open(desired);
  try {
    return { session, ...(await readAndPlan(session, options)) };
  } catch (error) {
    await session.close();
    throw error;
  }
}
