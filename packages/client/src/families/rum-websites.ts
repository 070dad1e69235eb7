import type { Core } from '../core.js';
import type { Page, Paged } from '../paging.js';
import type { RumWebsite, RumWebsiteCreate, RumWebsiteReplace } from '../types.js';

/**
 * RUM websites, `/Rum/Website`: the routes and fields of the vendor's 2026 provider (the 2022 definition lists only
 * the GET of the bare list). The provider shows no status codes, so a create is read as every plausible answer.
 */
export interface RumWebsitesApi {
  /** One bare array of every website. */
  list(): Paged<RumWebsite>;
  listPage(): Promise<Page<RumWebsite>>;
  get(rumWebsiteId: string): Promise<RumWebsite>;
  /**
   * The new website with its `RumWebsiteId` and generated `RumScript`. Answered with the object (201 or 200), the id
   * alone, or no body (204): without an id in the answer it is found by re-listing and matching on `Description`.
   */
  create(body: RumWebsiteCreate): Promise<RumWebsite>;
  /** PUT of the whole website; a field the body leaves out is cleared. */
  replace(rumWebsiteId: string, body: RumWebsiteReplace): Promise<void>;
  delete(rumWebsiteId: string): Promise<void>;
}

export function rumWebsitesApi(core: Core): RumWebsitesApi {
  const all = '/Rum/Website';
  const one = '/Rum/Website/{rumWebsiteId}';
  return {
    list: () => core.paged<RumWebsite>({ method: 'GET', route: all }),
    listPage: () => core.page<RumWebsite>({ method: 'GET', route: all }),
    get: (rumWebsiteId) => core.json<RumWebsite>({ method: 'GET', route: one, params: { rumWebsiteId } }),
    create: (body) =>
      core.created<RumWebsite>(
        { method: 'POST', route: all, body },
        {
          idField: 'RumWebsiteId',
          listKey: 'GET /Rum/Website',
          list: () => core.paged<RumWebsite>({ method: 'GET', route: all }).toArray(),
          matches: (site) => site.Description === body.Description,
        },
      ),
    replace: (rumWebsiteId, body) => core.none({ method: 'PUT', route: one, params: { rumWebsiteId }, body: { ...body, RumWebsiteId: rumWebsiteId } }),
    delete: (rumWebsiteId) => core.none({ method: 'DELETE', route: one, params: { rumWebsiteId } }),
  };
}
