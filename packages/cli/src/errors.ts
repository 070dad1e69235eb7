/** A mistake in how the command was called; printed with a pointer to `--help`, exit 1. */
export class UsageError extends Error {
  readonly code: 'CLI_USAGE';
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.code = 'CLI_USAGE';
    this.command = command;
  }
}

/** A failure the command explains itself (missing config folder, unreadable file); exit 1. */
export class CliError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.code = code;
  }
}
