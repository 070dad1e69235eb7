/**
 * A declaration that matched no live object, beside a live object it matched no declaration to, whose keys read the
 * same (`"Site"` and `"Si\u200bte"`, `"Site\u00a0"`, the NFD spelling): the service keeps them apart, so the plan
 * creates a second object instead of adopting the first. Said as a warning naming both, so the reader sees why.
 * Declared keys that look alike among themselves are the loader's error (LOOKALIKE_KEY).
 */
import { lookAlikeDifference, lookAlikeForm } from '@monsync/schema';
import type { DesiredEntry, KindModule, LiveEntry } from '../../kinds/contract.js';
import { at } from '../errors.js';
import type { PlanWarning } from '../types.js';

export function lookAlikeWarnings(mod: KindModule, identity: (key: string) => string, creates: readonly DesiredEntry[], orphans: readonly LiveEntry[], prune: boolean): PlanWarning[] {
  // Named kinds only: a key made of an entry's content (a duty schedule) is no name anybody reads.
  if (creates.length === 0 || orphans.length === 0 || mod.keyField === undefined) return [];
  const declared = new Map<string, DesiredEntry>();
  for (const entry of creates) declared.set(identity(lookAlikeForm(entry.key)), entry);
  const warnings: PlanWarning[] = [];
  for (const live of orphans) {
    const entry = declared.get(identity(lookAlikeForm(live.key)));
    if (entry === undefined) continue;
    declared.delete(identity(lookAlikeForm(entry.key)));
    const [mine, theirs] = [JSON.stringify(entry.key), JSON.stringify(live.key)];
    const fate = prune ? ', and deletes the live one (prune)' : '';
    const pin = mod.guidField === '' ? '' : ` (or pin ${mod.guidField}: ${live.guid})`;
    warnings.push({
      code: 'LOOKALIKE_LIVE_KEY',
      message:
        `${at(entry.source)}${mod.kind} ${mine} matches no live ${mod.kind} exactly, but the live ${mod.kind} ${theirs} [${live.guid}] reads the same ` +
        `(${lookAlikeDifference(entry.key, live.key)}): the plan creates a new ${mod.kind} instead of adopting it${fate}. To adopt it, write ${mod.keyField} as the service has it${pin}`,
      kind: mod.kind,
      key: entry.key,
    });
  }
  return warnings;
}
