import type { DesiredState } from '../desired.js';
import type { PlanStep, StepAction, StepKind } from '../plan/types.js';

/** Where apply finds the values of the plan's `(sensitive)` fields: the same config tree and key as at plan time. */
export interface SecretSource {
  desired: DesiredState;
  /** The fingerprint key the plan was made with (`MONSYNC_FINGERPRINT_KEY`, or derived from the credentials). */
  key: string | Uint8Array;
}

export interface ApplyOptions {
  /** Steps running at once (default 8). */
  parallelism?: number;
  /** Required when a step writes a secret; checked against the planned fingerprints before any write. */
  secrets?: SecretSource;
  /** Progress: one event per step start and end. Called synchronously; an exception in it is ignored. */
  onStep?: (event: StepEvent) => void;
  /** Stops starting steps; those already running finish. The rest are reported as not run. */
  signal?: AbortSignal;
  /**
   * After `signal`, how long to wait for the steps already running (default: until they end). Those still running
   * then are reported as `unsettled`: their requests may still be carried out.
   */
  settleMs?: number;
  /**
   * POSTs a create may send in all (default: the client's `retry.maxAttempts`, else `DEFAULT_WRITE_ATTEMPTS`, 5),
   * counting the client's own retries of a 429: after an unclear outcome (no response, timeout, 5xx) a create is sent
   * again only when looking it up by key does not find it. Updates and deletes are sent as the client's retry policy allows, never more.
   */
  maxUnclearAttempts?: number;
}

/** A step as reported: what it is, and the object's GUID when known (after a create: the new one). */
export interface StepRef {
  id: string;
  action: StepAction;
  kind: StepKind;
  key: string;
  guid?: string;
}

export interface DoneStep extends StepRef {
  /** How it ended when not plainly: `found after an unclear outcome`, `already deleted`. */
  note?: string;
}

export interface FailedStep extends StepRef {
  /** One line for people, redacted: names the request and carries the service's message. */
  message: string;
  /** The error's SCREAMING_SNAKE code, e.g. `VALIDATION_FAILED`. */
  code?: string;
  /** HTTP status (0: no response). */
  status?: number;
  /** The service's own words (`ErrorDescription`), redacted. */
  serviceMessage?: string;
}

export interface SkippedStep extends StepRef {
  /** The failed step this one waited for (directly or through other skipped steps). */
  waitedFor: string;
  /** The dependency through which it waited, when it is not `waitedFor` itself. */
  via?: string;
}

export interface ApplyReport {
  total: number;
  done: DoneStep[];
  failed: FailedStep[];
  skipped: SkippedStep[];
  /** Steps never started because the apply was stopped (`signal`). */
  notRun: StepRef[];
  /** Steps still running when a stopped apply gave up waiting (`settleMs`): their outcome is unknown. */
  unsettled?: StepRef[];
  /** True when every step is done. */
  ok: boolean;
  durationMs: number;
}

export type StepEvent =
  | { type: 'start'; step: PlanStep; progress: ApplyProgress }
  | { type: 'done'; step: PlanStep; result: DoneStep; progress: ApplyProgress }
  | { type: 'failed'; step: PlanStep; result: FailedStep; progress: ApplyProgress }
  | { type: 'skipped'; step: PlanStep; result: SkippedStep; progress: ApplyProgress }
  /** A create is tried again: after 429, or after an unclear outcome when the object was not found. */
  | { type: 'retry'; step: PlanStep; reason: string; attempt: number; progress: ApplyProgress };

export interface ApplyProgress {
  total: number;
  done: number;
  failed: number;
  skipped: number;
  inFlight: number;
}
