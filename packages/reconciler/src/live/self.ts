/**
 * Which operator the API account acts for. The API has no "who am I", but the service records the caller in one
 * place a client can read back: a vault section's creator is given View and Change on it, as an operator
 * authorization, and is first the only one who sees it (published definition §5). So apply, once it has done its
 * work, creates an empty section named `SELF_SECTION_NAME` when none is visible, and every later plan and apply
 * reads the operator from its authorizations: two GETs, no write. Nobody can forge that record; an operator another
 * person adds to the section makes it ambiguous, and then monsync says it does not know (`readSelf`).
 *
 * The section is the API account's own: hidden from plans, pulls and safety counts like the apply lock, never
 * declared, never pruned.
 */
import { isUnclearOutcome } from '@monsync/client';
import { OPERATOR_GROUP_MEMBER_KIND, OPERATOR_KIND, VAULT_ACCESS_KIND } from '@monsync/schema';
import { idOf } from '../kinds/shared.js';
import { principalOf } from '../kinds/vault-principal.js';
import type { ApiObject, Listing, LiveScope } from './types.js';

/** The name says what the section is to whoever meets it in the web app's vault. */
export const SELF_SECTION_NAME = 'monsync API account (do not edit)';

export function isSelfSection(section: ApiObject): boolean {
  return section['Name'] === SELF_SECTION_NAME;
}

/** What the account says of the API account's operator. */
export interface SelfRecord {
  /** GUIDs of the sections named `SELF_SECTION_NAME` the API account sees (none: apply may create one). */
  sections: string[];
  /** The operators holding an authorization on them: one is the API account's; more, nobody can tell which. */
  operators: string[];
}

/**
 * Whether a plan of this scope uses the API account's operator: drift attribution (a kind that records who changed
 * an object), vault access (its own is kept), operators and Administrators (the lock-out guard).
 */
export function selfMatters(scope: LiveScope): boolean {
  return scope.operators || scope.kinds.some((kind) => kind === VAULT_ACCESS_KIND.kind || kind === OPERATOR_KIND.kind || kind === OPERATOR_GROUP_MEMBER_KIND.kind);
}

/** The vault routes the record needs; `MonitoringClient` satisfies them. */
export interface SelfClient {
  vaultSections: {
    list(): Listing<ApiObject>;
    create(body: ApiObject): Promise<ApiObject>;
    authorizations: { list(vaultSectionGuid: string): Listing<ApiObject> };
  };
}

/** The record, from the sections listed (the vault-section listing of the read, unfiltered). */
export async function readSelf(client: Pick<SelfClient['vaultSections'], 'authorizations'>, sections: readonly ApiObject[]): Promise<SelfRecord> {
  const guids = sections.filter(isSelfSection).map((section) => idOf(section, 'VaultSectionGuid'));
  const operators = new Set<string>();
  for (const guid of guids) {
    for (const authorization of await client.authorizations.list(guid).toArray()) {
      const principal = principalOf(authorization);
      if (principal?.who === OPERATOR_KIND.kind) operators.add(principal.guid.toLowerCase());
    }
  }
  return { sections: guids, operators: [...operators].sort() };
}

/** The API account's operator by the record, when it names exactly one. */
export function selfOf(record: SelfRecord | undefined): string | undefined {
  return record?.operators.length === 1 ? record.operators[0] : undefined;
}

/**
 * Makes the record when the API account sees none: creates the section and reads its creator back. Resolves to the
 * operator, or to why not (the account may not create sections, say); never throws, since an apply that did its work
 * must not fail for this.
 */
export async function recordSelf(client: SelfClient): Promise<{ operator: string; created: boolean } | { failed: string }> {
  try {
    const sections = await client.vaultSections.list().toArray();
    let record = await readSelf(client.vaultSections, sections);
    const created = record.sections.length === 0;
    if (created) {
      try {
        await client.vaultSections.create({ Name: SELF_SECTION_NAME });
      } catch (error) {
        // A create whose answer was lost may have been carried out: the listing below tells.
        if (!isUnclearOutcome(error)) throw error;
      }
      record = await readSelf(client.vaultSections, await client.vaultSections.list().toArray());
    }
    const operator = selfOf(record);
    if (operator !== undefined) return { operator, created };
    return { failed: record.sections.length === 0 ? 'the section could not be found after creating it' : `the section "${SELF_SECTION_NAME}" names ${record.operators.length} operators` };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}
