import { readFileSync } from 'node:fs';

/** The example workflows `monsync init` writes, by file name. */
export type WorkflowTemplates = Readonly<Record<'monsync-plan.yml' | 'monsync-apply.yml' | 'monsync-drift.yml', string>>;

/**
 * The repository's `.github/examples/*.yml`, read from the source tree. The bundle (scripts/bundle.mjs) replaces
 * this module by one that holds the texts, so an installed monsync writes exactly the examples it was built with.
 */
export function workflowTemplates(): WorkflowTemplates {
  const read = (name: string) => readFileSync(new URL(`../../../.github/examples/${name}`, import.meta.url), 'utf8');
  return { 'monsync-plan.yml': read('monsync-plan.yml'), 'monsync-apply.yml': read('monsync-apply.yml'), 'monsync-drift.yml': read('monsync-drift.yml') };
}
