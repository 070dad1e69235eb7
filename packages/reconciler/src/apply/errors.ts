/** Reasons apply refuses to start. Each is raised before the first write, so a refused apply changes nothing. */

/** The plan is not one apply can execute (wrong format version, unknown dependency, a cycle). */
export class InvalidPlanError extends Error {
  readonly code = 'INVALID_PLAN';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPlanError';
  }
}

export interface SecretMismatch {
  stepId: string;
  pointer: string;
  /** Where the value comes from, e.g. `env SHOP_PASSWORD`; never the value. */
  source: string;
}

/**
 * A secret's current value does not have the fingerprint the plan was made with: the plan a reviewer approved
 * would write a different secret than it showed. Names the steps and the secrets' sources, never a value.
 */
export class SecretChangedError extends Error {
  readonly code = 'SECRET_CHANGED';
  readonly mismatches: SecretMismatch[];
  constructor(mismatches: SecretMismatch[]) {
    const lines = mismatches.map((m) => `  ${m.stepId} ${m.pointer} (${m.source})`);
    super(
      `${mismatches.length === 1 ? 'a secret has' : `${mismatches.length} secrets have`} changed since the plan was made, so nothing was applied:\n${lines.join('\n')}\n` +
        'make a new plan (monsync plan --out FILE) and review it, or run apply --replan',
    );
    this.name = 'SecretChangedError';
    this.mismatches = mismatches;
  }
}

/** The plan writes secrets, but apply was given no way to read them, or the config no longer declares one. */
export class SecretSourceError extends Error {
  readonly code = 'SECRET_SOURCE_MISSING';
  constructor(message: string) {
    super(message);
    this.name = 'SecretSourceError';
  }
}

/** The plan deletes a protected object or breaks a policy rule of severity error: no option lets it through. */
export class PlanRefusedError extends Error {
  readonly code = 'PLAN_REFUSED';
  readonly reasons: string[];
  constructor(reasons: string[]) {
    super(`apply refused, nothing was changed: ${reasons.join('\n')}`);
    this.name = 'PlanRefusedError';
    this.reasons = reasons;
  }
}
