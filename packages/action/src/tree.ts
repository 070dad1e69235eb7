import * as core from '@actions/core';
import type { RetryEvent } from '@monsync/client';
import { openSession, plainText, type PlanSession } from '@monsync/reconciler';
import { deriveFingerprintKey, hasErrors, isPolicyFinding, loadConfig, type DesiredState, type Diagnostic } from '@monsync/schema';
import { annotate } from './annotations.js';
import type { ConfigFolder } from './config-folder.js';
import type { ActionInputs } from './inputs.js';
import { maskTreeSecrets, type Masker } from './masking.js';
import { ACTION_USER_AGENT } from './version.js';

export interface LoadedTree {
  desired: DesiredState;
  diagnostics: Diagnostic[];
  errors: number;
  /** Of `errors`, the findings of policy rules: plan shows them with the plan rather than stopping. */
  policyErrors: number;
}

/**
 * Loads and validates the tree with its secrets read (plan and apply need them). Every readable secret value is
 * masked before the first annotation is written; then each diagnostic becomes an annotation on its file and line.
 */
export async function loadTree(folder: ConfigFolder, inputs: ActionInputs, masker: Masker, workspace: string): Promise<LoadedTree> {
  const { desired, diagnostics } = await loadConfig(folder.dir, { resolveSecrets: true, env: process.env });
  maskTreeSecrets(masker, desired);
  // The key the session will derive from the credentials keys every fingerprint: masked with the rest, before any output.
  if (inputs.apiUsername !== '' && inputs.apiPassword !== '') {
    masker.add(deriveFingerprintKey({ fingerprintKey: inputs.fingerprintKey, apiUser: inputs.apiUsername, apiPassword: inputs.apiPassword }));
  }
  annotate(diagnostics, folder.dir, workspace);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const policyErrors = diagnostics.filter((d) => d.severity === 'error' && isPolicyFinding(d)).length;
  if (!hasErrors(diagnostics)) core.info(`${folder.label}: the configuration is valid${diagnostics.length > 0 ? ` (${diagnostics.length} warning${diagnostics.length === 1 ? '' : 's'})` : ''}`);
  return { desired, diagnostics, errors, policyErrors };
}

/** The reconciler's session on the step's credentials (its fingerprint key was masked by `loadTree`). */
export function actionSession(desired: DesiredState, inputs: ActionInputs, masker: Masker, parallelism?: number): PlanSession {
  const session = openSession(desired, {
    client: {
      baseUrl: inputs.apiUrl,
      username: inputs.apiUsername,
      password: inputs.apiPassword,
      userAgent: ACTION_USER_AGENT,
      ...(parallelism === undefined ? {} : { parallelism }),
      onRetry: (event: RetryEvent) => core.info(`  retrying ${event.method} ${event.route} in ${(event.delayMs / 1000).toFixed(1)}s (${event.reason})`),
    },
    fingerprintKey: inputs.fingerprintKey,
    // The input and the variable together: the plan and the apply workflows use two API accounts.
    operator: [inputs.operators, process.env['MONSYNC_OPERATOR'] ?? ''],
    operatorSource: inputs.operators !== '' ? 'input operators' : 'MONSYNC_OPERATOR',
    onWarning: (message) => core.warning(plainText(message)),
  });
  masker.add(session.key);
  return session;
}
