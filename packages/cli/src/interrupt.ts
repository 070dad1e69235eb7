/**
 * Ctrl-C and SIGTERM while a command has something to finish. Outside `guard` a signal ends the process at once, as
 * Node's default does (nothing is under way that a stop could leave half done). Inside it, the first signal aborts
 * `signal` (apply starts no new step, lets the requests under way settle, releases the apply lock and says what was
 * done), and a second one ends the process at once, saying what it leaves behind (the apply lock).
 */

/** The exit code of a command stopped by a signal, as shells report one: 128 + the signal's number. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT_CODES;
const STOP_SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];

export interface Interrupts {
  /** Aborted by the first signal that arrives while guarded; its `reason` is the signal's name. */
  readonly signal: AbortSignal;
  /** The first signal received while guarded, if any. */
  received(): StopSignal | undefined;
  /**
   * Runs `work` with signals caught: the first aborts `signal` and tells the user what happens next; a second ends
   * the process at once (exit 130 or 143) after writing `leftBehind()`, what the stop leaves undone.
   */
  guard<T>(what: { stopping: string; leftBehind: () => string }, work: () => Promise<T>): Promise<T>;
}

/** What `interrupts` needs of the process; tests pass their own to send signals without killing the test runner. */
export interface SignalHost {
  on(signal: StopSignal, listener: (signal: StopSignal) => void): unknown;
  off(signal: StopSignal, listener: (signal: StopSignal) => void): unknown;
  exit(code: number): never;
  stderr: { write(chunk: string): unknown };
}

export function interrupts(host: SignalHost): Interrupts {
  const controller = new AbortController();
  let first: StopSignal | undefined;
  return {
    signal: controller.signal,
    received: () => first,
    async guard(what, work) {
      const onSignal = (signal: StopSignal): void => {
        if (first !== undefined) {
          host.stderr.write(`\nmonsync: ${signal} again: exiting at once. ${what.leftBehind()}\n`);
          host.exit(SIGNAL_EXIT_CODES[signal]);
        }
        first = signal;
        host.stderr.write(`\nmonsync: ${signal} received: ${what.stopping} (${signal} again exits at once).\n`);
        controller.abort(signal);
      };
      for (const signal of STOP_SIGNALS) host.on(signal, onSignal);
      try {
        return await work();
      } finally {
        for (const signal of STOP_SIGNALS) host.off(signal, onSignal);
      }
    },
  };
}

/** The exit code for a command that `interrupts` stopped, or `undefined` when no signal came. */
export function interruptedExitCode(io: { interrupts?: Interrupts }): number | undefined {
  const signal = io.interrupts?.received();
  return signal === undefined ? undefined : SIGNAL_EXIT_CODES[signal];
}
