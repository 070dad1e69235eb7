import type { Core } from '../core.js';
import type { Page, Paged } from '../paging.js';
import { invalid } from '../query.js';
import { publishedReader, toPublished } from '../wire/read.js';
import type {
  VaultAuthorization,
  VaultAuthorizationCreate,
  VaultItem,
  VaultItemCreate,
  VaultItemPatch,
  VaultItemReplace,
  VaultSection,
  VaultSectionCreate,
  VaultSectionReplace,
} from '../types.js';

export interface VaultItemsApi {
  /** Items in every section the caller can see. Sensitive values come back empty. */
  list(): Paged<VaultItem>;
  listPage(): Promise<Page<VaultItem>>;
  get(vaultItemGuid: string): Promise<VaultItem>;
  /** Needs `ChangeVaultSection` on the section. The new item, found by section and Name when the answer does not carry it. */
  create(body: VaultItemCreate): Promise<VaultItem>;
  /** Full update: an omitted ordinary field becomes empty; omitted sensitive values stay unchanged. */
  replace(vaultItemGuid: string, body: VaultItemReplace): Promise<VaultItem | undefined>;
  patch(vaultItemGuid: string, body: VaultItemPatch): Promise<VaultItem | undefined>;
  /** Fails with a ValidationError (400) while a monitor references the item. */
  delete(vaultItemGuid: string): Promise<void>;
}

const sameGuid = (a: unknown, b: unknown): boolean => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

export function vaultItemsApi(core: Core): VaultItemsApi {
  const one = '/VaultItem/{vaultItemGuid}';
  return {
    list: () => core.paged<VaultItem>({ method: 'GET', route: '/VaultItem' }),
    listPage: () => core.page<VaultItem>({ method: 'GET', route: '/VaultItem' }),
    get: (vaultItemGuid) => core.json<VaultItem>({ method: 'GET', route: one, params: { vaultItemGuid } }),
    create: (body) =>
      core.created<VaultItem>(
        { method: 'POST', route: '/VaultItem', body },
        {
          idField: 'VaultItemGuid',
          listKey: 'GET /VaultItem',
          list: () => core.paged<VaultItem>({ method: 'GET', route: '/VaultItem' }).toArray(),
          matches: (i) => i.Name === body.Name && sameGuid(i.VaultSectionGuid, body.VaultSectionGuid),
        },
      ),
    replace: (vaultItemGuid, body) => core.maybe<VaultItem>({ method: 'PUT', route: one, params: { vaultItemGuid }, body }),
    patch: (vaultItemGuid, body) => core.maybe<VaultItem>({ method: 'PATCH', route: one, params: { vaultItemGuid }, body }),
    delete: (vaultItemGuid) => core.none({ method: 'DELETE', route: one, params: { vaultItemGuid } }),
  };
}

export interface VaultSectionsApi {
  /** Sections the caller holds an authorization on. */
  list(): Paged<VaultSection>;
  listPage(): Promise<Page<VaultSection>>;
  get(vaultSectionGuid: string): Promise<VaultSection>;
  /**
   * The creator receives View and Change on the new section, and is first the only one to see it. The new section,
   * found by Name when the answer does not carry it.
   */
  create(body: VaultSectionCreate): Promise<VaultSection>;
  replace(vaultSectionGuid: string, body: VaultSectionReplace): Promise<VaultSection | undefined>;
  /** Fails with a ValidationError (400) while the section holds items. */
  delete(vaultSectionGuid: string): Promise<void>;
  authorizations: {
    list(vaultSectionGuid: string): Paged<VaultAuthorization>;
    /** Published form: `{AuthorizationType, OperatorGuid | OperatorGroupGuid}`; creating Change also adds View for the same operator or group. */
    create(vaultSectionGuid: string, body: VaultAuthorizationCreate): Promise<VaultAuthorization | undefined>;
    delete(vaultSectionGuid: string, authorizationGuid: string): Promise<void>;
  };
}

export function vaultSectionsApi(core: Core): VaultSectionsApi {
  const one = '/VaultSection/{vaultSectionGuid}';
  const auth = `${one}/Authorization`;
  return {
    list: () => core.paged<VaultSection>({ method: 'GET', route: '/VaultSection' }),
    listPage: () => core.page<VaultSection>({ method: 'GET', route: '/VaultSection' }),
    get: (vaultSectionGuid) => core.json<VaultSection>({ method: 'GET', route: one, params: { vaultSectionGuid } }),
    create: (body) =>
      core.created<VaultSection>(
        { method: 'POST', route: '/VaultSection', body },
        {
          idField: 'VaultSectionGuid',
          listKey: 'GET /VaultSection',
          list: () => core.paged<VaultSection>({ method: 'GET', route: '/VaultSection' }).toArray(),
          matches: (s) => s.Name === body.Name,
        },
      ),
    replace: (vaultSectionGuid, body) => core.maybe<VaultSection>({ method: 'PUT', route: one, params: { vaultSectionGuid }, body }),
    delete: (vaultSectionGuid) => core.none({ method: 'DELETE', route: one, params: { vaultSectionGuid } }),
    authorizations: {
      list: (vaultSectionGuid) => core.paged({ method: 'GET', route: auth, params: { vaultSectionGuid } }, { map: publishedReader<VaultAuthorization>('vaultAuthorization') }),
      create: async (vaultSectionGuid, body) => {
        const ctx = core.context('POST', auth, { vaultSectionGuid });
        const hasOperator = typeof body.OperatorGuid === 'string' && body.OperatorGuid !== '';
        const hasGroup = typeof body.OperatorGroupGuid === 'string' && body.OperatorGroupGuid !== '';
        if (hasOperator === hasGroup) {
          throw invalid(ctx, 'exactly one of OperatorGuid and OperatorGroupGuid must be set');
        }
        const created = await core.maybe<VaultAuthorization>({ method: 'POST', route: auth, params: { vaultSectionGuid }, body });
        return created === undefined ? undefined : toPublished('vaultAuthorization', created);
      },
      delete: (vaultSectionGuid, authorizationGuid) =>
        core.none({ method: 'DELETE', route: `${auth}/{authorizationGuid}`, params: { vaultSectionGuid, authorizationGuid } }),
    },
  };
}
