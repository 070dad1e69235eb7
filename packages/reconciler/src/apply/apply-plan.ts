/**
 * applyPlan: executes a plan's steps against the service. Steps start as soon as the steps they depend on are
 * done (a ready queue, not level by level, so one slow request holds up only what needs it), at most
 * `parallelism` at a time, preferring plan order. Each step's requests come from its kind module.
 *
 * Failure rules (docs/architecture.md, Apply): a POST is never blindly retried. Each request has one retry policy, the client's
 * (429 for every method, 5xx, resets and timeouts for idempotent ones), so apply sends nothing again on its own but a
 * create: after an unclear outcome (no response, timeout, 5xx, a 2xx it cannot read) the object is looked up by key
 * and the POST repeated only when it is absent, within the same number of sends. A failed step skips every step depending on it,
 * transitively; independent steps finish. A delete also waits for the creates that may replace its object
 * (`replacementGates`) and is skipped when one of them does not succeed. Running the same config again converges.
 */
import { DEFAULT_WRITE_ATTEMPTS, isApiError, isUnclearOutcome, NotFoundError } from '@monsync/client';
import { kindModule, replacedBy } from '../kinds/index.js';
import type { WriteClient } from '../live/types.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep, type StepKind } from '../plan/types.js';
import { refusalLines } from '../plan/refusals.js';
import { InvalidPlanError, PlanRefusedError } from './errors.js';
import { Placeholders } from './placeholders.js';
import { redactor, type Redactor } from './redact.js';
import { fillSecrets, resolveSecrets, type ResolvedSecrets } from './secrets.js';
import type { ApplyOptions, ApplyProgress, ApplyReport, DoneStep, FailedStep, SkippedStep, StepEvent, StepRef } from './types.js';

export const DEFAULT_PARALLELISM = 8;

type Status = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

interface Outcome {
  guid?: string;
  note?: string;
}

/** Checks what apply relies on: the format, unique ids, known dependencies, no cycle. Returns the steps' indices. */
/**
 * No delete of an object whose replacement failed. Which create replaces which delete cannot be known (a
 * rename without a pinned GUID is a create and a delete), so a delete waits for every create of the kinds that
 * may replace it (`replacedBy`): it is skipped when one of them fails or is skipped, and the next run deletes it.
 * Kept here as one gate per kind rather than as plan dependencies, which would be creates x deletes edges.
 * Returns, per kind with creates, how many, and the deletes waiting for them.
 */
function replacementGates(steps: readonly PlanStep[]): { creates: Map<StepKind, number>; waiting: Map<StepKind, string[]> } {
  const creates = new Map<StepKind, number>();
  for (const step of steps) if (step.action === 'create') creates.set(step.kind, (creates.get(step.kind) ?? 0) + 1);
  const waiting = new Map<StepKind, string[]>();
  for (const step of steps) {
    if (step.action !== 'delete') continue;
    for (const kind of replacedBy(step.kind)) {
      if (!creates.has(kind)) continue;
      const list = waiting.get(kind);
      if (list === undefined) waiting.set(kind, [step.id]);
      else list.push(step.id);
    }
  }
  return { creates, waiting };
}

export function checkPlan(plan: Plan): Map<string, number> {
  if (plan.formatVersion !== PLAN_FORMAT_VERSION) throw new InvalidPlanError(`plan formatVersion ${String(plan.formatVersion)} is not supported (expected ${PLAN_FORMAT_VERSION}); make the plan with this version of monsync`);
  if (!Array.isArray(plan.steps)) throw new InvalidPlanError('the plan has no steps array');
  const refused = refusalLines(plan);
  if (refused.length > 0) throw new PlanRefusedError(refused);
  const index = new Map<string, number>();
  plan.steps.forEach((step, i) => {
    if (index.has(step.id)) throw new InvalidPlanError(`step id ${step.id} appears twice in the plan`);
    index.set(step.id, i);
  });
  const remaining = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const step of plan.steps) {
    if ((step.action === 'create' || step.action === 'update' || step.action === 'ensure') && step.desired === undefined) {
      throw new InvalidPlanError(`step ${step.id} (${step.action}) has no desired body`);
    }
    for (const dep of step.dependsOn) {
      if (!index.has(dep)) throw new InvalidPlanError(`step ${step.id} depends on ${dep}, which is not in the plan`);
      dependents.set(dep, [...(dependents.get(dep) ?? []), step.id]);
    }
    remaining.set(step.id, new Set(step.dependsOn).size);
  }
  // The replacement gates are dependencies too (a create waiting for a delete of its own kind would never run).
  const gates = replacementGates(plan.steps);
  for (const [kind, deletes] of gates.waiting) {
    const gate = `\u0000gate:${kind}`;
    remaining.set(gate, gates.creates.get(kind) ?? 0);
    dependents.set(gate, deletes);
    for (const id of deletes) remaining.set(id, (remaining.get(id) ?? 0) + 1);
  }
  for (const step of plan.steps) if (step.action === 'create' && gates.waiting.has(step.kind)) dependents.set(step.id, [...(dependents.get(step.id) ?? []), `\u0000gate:${step.kind}`]);
  const queue = [...remaining.keys()].filter((id) => remaining.get(id) === 0);
  let seen = 0;
  while (queue.length > 0) {
    const id = queue.pop() as string;
    seen += 1;
    for (const next of new Set(dependents.get(id) ?? [])) {
      const left = (remaining.get(next) ?? 0) - 1;
      remaining.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  if (seen !== remaining.size) {
    const stuck = plan.steps.filter((s) => (remaining.get(s.id) ?? 0) > 0).map((s) => s.id);
    throw new InvalidPlanError(`the plan's dependencies form a cycle among ${stuck.slice(0, 5).join(', ')}${stuck.length > 5 ? ', ...' : ''}`);
  }
  return index;
}

/** Inserts `value` into the ascending list `sorted`, found by bisection. */
function insertSorted(sorted: number[], value: number): void {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  sorted.splice(lo, 0, value);
}

/**
 * A stopped apply waits for the requests under way only `settleMs`: a hung request must not keep the apply lock.
 * Calls `giveUp` then, if steps still run; returns what stops listening once the apply ends on its own.
 */
function afterStop(options: ApplyOptions, running: () => boolean, giveUp: () => void): () => void {
  const { signal, settleMs } = options;
  if (signal === undefined || settleMs === undefined) return () => undefined;
  const onAbort = (): void => {
    if (running()) setTimeout(giveUp, settleMs).unref();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

function refOf(step: PlanStep, guid?: string): StepRef {
  const g = guid ?? step.guid;
  return { id: step.id, action: step.action, kind: step.kind, key: step.key, ...(g === undefined ? {} : { guid: g }) };
}

export async function applyPlan(plan: Plan, client: WriteClient, options: ApplyOptions = {}): Promise<ApplyReport> {
  const started = performance.now();
  const parallelism = Math.max(1, Math.floor(options.parallelism ?? DEFAULT_PARALLELISM));
  const index = checkPlan(plan);
  // Every secret is read and checked before the first write: a changed one refuses the whole apply.
  const secrets = resolveSecrets(plan, options.secrets);
  const redact = redactor(secrets.values);
  const placeholders = new Placeholders(plan);
  const executor = new StepExecutor(client, placeholders, secrets, redact, options);

  const steps = plan.steps;
  const byId = new Map(steps.map((s) => [s.id, s]));
  const status = new Map<string, Status>(steps.map((s) => [s.id, 'pending']));
  const remaining = new Map(steps.map((s) => [s.id, new Set(s.dependsOn).size]));
  const dependents = new Map<string, string[]>();
  for (const step of steps) for (const dep of new Set(step.dependsOn)) dependents.set(dep, [...(dependents.get(dep) ?? []), step.id]);
  const gates = replacementGates(steps);
  for (const ids of gates.waiting.values()) for (const id of ids) remaining.set(id, (remaining.get(id) ?? 0) + 1);
  const openCreates = new Map(gates.creates);
  /** What a failed or skipped step takes down with it: its dependents, and for a create the deletes its kind's gate holds (once). */
  const closed = new Set<StepKind>();
  const waitingFor = (step: PlanStep): string[] => {
    const direct = dependents.get(step.id) ?? [];
    if (step.action !== 'create' || closed.has(step.kind)) return direct;
    closed.add(step.kind);
    return [...direct, ...(gates.waiting.get(step.kind) ?? [])];
  };

  const report: ApplyReport = { total: steps.length, done: [], failed: [], skipped: [], notRun: [], ok: false, durationMs: 0 };
  let inFlight = 0;
  const progress = (): ApplyProgress => ({ total: steps.length, done: report.done.length, failed: report.failed.length, skipped: report.skipped.length, inFlight });
  const emit = (event: StepEvent): void => {
    try {
      options.onStep?.(event);
    } catch {
      // Progress display must never break an apply half-way.
    }
  };

  // Ready steps in plan order (the kind registry's order), as a sorted list of indices.
  const ready: number[] = [];
  const enqueue = (id: string): void => insertSorted(ready, index.get(id) as number);
  for (const step of steps) if (remaining.get(step.id) === 0) enqueue(step.id);

  const release = (id: string): void => {
    const left = (remaining.get(id) ?? 0) - 1;
    remaining.set(id, left);
    if (left === 0 && status.get(id) === 'pending') enqueue(id);
  };

  const skipDependents = (failed: PlanStep): void => {
    const failedId = failed.id;
    const stack: { id: string; via: string }[] = waitingFor(failed).map((id) => ({ id, via: failedId }));
    while (stack.length > 0) {
      const { id, via } = stack.pop() as { id: string; via: string };
      if (status.get(id) !== 'pending') continue;
      status.set(id, 'skipped');
      const step = byId.get(id) as PlanStep;
      const result: SkippedStep = { ...refOf(step), waitedFor: failedId, ...(via === failedId ? {} : { via }) };
      report.skipped.push(result);
      emit({ type: 'skipped', step, result, progress: progress() });
      for (const next of waitingFor(step)) stack.push({ id: next, via: id });
    }
  };

  const aborted = (): boolean => options.signal?.aborted === true;
  // Once the apply stopped waiting (`settleMs` after a stop), a step that ends later is no longer reported.
  let settled = false;

  await new Promise<void>((resolve) => {
    const stopWaiting = afterStop(options, () => inFlight > 0, () => {
      settled = true;
      resolve();
    });
    const finish = (): void => {
      stopWaiting();
      resolve();
    };
    const pump = (): void => {
      while (!aborted() && inFlight < parallelism && ready.length > 0) {
        const step = steps[ready.shift() as number] as PlanStep;
        if (status.get(step.id) !== 'pending') continue;
        status.set(step.id, 'running');
        inFlight += 1;
        emit({ type: 'start', step, progress: progress() });
        void executor.run(step, (reason, attempt) => emit({ type: 'retry', step, reason, attempt, progress: progress() })).then((outcome) => {
          if (settled) return;
          inFlight -= 1;
          if ('error' in outcome) {
            status.set(step.id, 'failed');
            report.failed.push(outcome.error);
            emit({ type: 'failed', step, result: outcome.error, progress: progress() });
            skipDependents(step);
          } else {
            status.set(step.id, 'done');
            const result: DoneStep = { ...refOf(step, outcome.guid), ...(outcome.note === undefined ? {} : { note: outcome.note }) };
            report.done.push(result);
            emit({ type: 'done', step, result, progress: progress() });
            for (const next of dependents.get(step.id) ?? []) release(next);
            if (step.action === 'create') {
              const open = (openCreates.get(step.kind) ?? 0) - 1;
              openCreates.set(step.kind, open);
              if (open === 0) for (const next of gates.waiting.get(step.kind) ?? []) release(next);
            }
          }
          pump();
        });
      }
      if (inFlight === 0 && (ready.length === 0 || aborted())) finish();
    };
    pump();
  });

  for (const step of steps) if (status.get(step.id) === 'pending') report.notRun.push(refOf(step));
  const unsettled = steps.filter((step) => status.get(step.id) === 'running').map((step) => refOf(step));
  if (unsettled.length > 0) report.unsettled = unsettled;
  report.ok = report.done.length === steps.length;
  report.durationMs = performance.now() - started;
  return report;
}

/** Runs one step: builds its body (placeholders, secrets) and sends its requests, recovering what can be recovered. */
class StepExecutor {
  readonly #client: WriteClient;
  readonly #placeholders: Placeholders;
  readonly #secrets: ResolvedSecrets;
  readonly #redact: Redactor;
  /** POSTs a create may send in all, the client's own retries included. */
  readonly #maxSends: number;

  constructor(client: WriteClient, placeholders: Placeholders, secrets: ResolvedSecrets, redact: Redactor, options: ApplyOptions) {
    this.#client = client;
    this.#placeholders = placeholders;
    this.#secrets = secrets;
    this.#redact = redact;
    this.#maxSends = Math.max(1, options.maxUnclearAttempts ?? client.maxAttempts ?? DEFAULT_WRITE_ATTEMPTS);
  }

  async run(step: PlanStep, onRetry: (reason: string, attempt: number) => void): Promise<Outcome | { error: FailedStep }> {
    try {
      return await this.#perform(step, onRetry);
    } catch (error) {
      return { error: this.#failure(step, error) };
    }
  }

  #body(step: PlanStep): Record<string, unknown> {
    const substituted = this.#placeholders.substitute(step.desired ?? {});
    const values = this.#secrets.forStep(step.id);
    return values === undefined ? substituted : (fillSecrets(substituted, values) as Record<string, unknown>);
  }

  async #perform(step: PlanStep, onRetry: (reason: string, attempt: number) => void): Promise<Outcome> {
    const requests = kindModule(step.kind).requests;
    switch (step.action) {
      case 'create': {
        const body = this.#body(step);
        const { guid, note } = await this.#create(step, body, onRetry);
        this.#placeholders.learn(step.kind, step.key, guid);
        return { guid, ...(note === undefined ? {} : { note }) };
      }
      case 'update':
      case 'ensure': {
        // Idempotent: the client has already sent it as many times as its retry policy allows.
        const body = this.#body(step);
        await requests.update(this.#client, step, body);
        return {};
      }
      case 'delete':
        try {
          // A kind may do otherwise than delete (a monitor retired where the service refuses DELETE), and says so.
          // The GUID of what a create of this plan brought along is learned by that create (`{{operator:...}}/...`).
          const target = step.guid?.includes('{{') === true ? { ...step, guid: this.#placeholders.substitute(step.guid) } : step;
          const note = (await requests.delete(this.#client, target)) ?? undefined;
          return note === undefined ? {} : { note };
        } catch (error) {
          // Gone already (an earlier attempt whose answer was lost, or someone else): the goal is reached.
          if (error instanceof NotFoundError) return { note: 'already deleted' };
          throw error;
        }
    }
  }

  /**
   * A POST whose outcome is unclear may have created the object: it is looked up by key (the lookup's GETs have the
   * client's retry policy) and sent again only when absent, until the sends, the client's retries of 429s included,
   * reach the client's configured attempts.
   */
  async #create(step: PlanStep, body: Record<string, unknown>, onRetry: (reason: string, attempt: number) => void): Promise<{ guid: string; note?: string }> {
    const requests = kindModule(step.kind).requests;
    let sent = 0;
    let note: string | undefined;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const guid = await requests.create(this.#client, step, body);
        return { guid, ...(note === undefined ? {} : { note }) };
      } catch (error) {
        if (!isUnclearOutcome(error)) throw error;
        sent += isApiError(error) ? Math.max(1, error.attempts) : 1;
        const found = await requests.find(this.#client, step, body);
        if (found !== undefined) return { guid: found, note: 'found after an unclear outcome' };
        if (sent >= this.#maxSends) throw error;
        note = 'created after an unclear outcome';
        onRetry(`${errorLabel(error)}: not applied (not found by key)`, attempt + 1);
      }
    }
  }

  #failure(step: PlanStep, error: unknown): FailedStep {
    const base = refOf(step);
    if (isApiError(error)) {
      return {
        ...base,
        message: this.#redact(error.message),
        code: error.code,
        status: error.status,
        ...(error.serviceMessage === undefined ? {} : { serviceMessage: this.#redact(error.serviceMessage) }),
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    return { ...base, message: this.#redact(message), ...(typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? { code } : {}) };
  }
}

function errorLabel(error: unknown): string {
  if (isApiError(error)) return error.status === 0 ? error.code : String(error.status);
  return 'error';
}
