/** An input of the step is missing or has a value the action cannot use; the message names the input and the fix. */
export class ActionInputError extends Error {
  readonly code = 'ACTION_INPUT';
  constructor(message: string) {
    super(message);
    this.name = 'ActionInputError';
  }
}

/** The workflow run does not give what a command needs (a repository, an event payload, a commit). */
export class GitHubContextError extends Error {
  readonly code = 'GITHUB_CONTEXT';
  constructor(message: string) {
    super(message);
    this.name = 'GitHubContextError';
  }
}
