import { RUM_WEBSITE_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { answeredId, apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

/**
 * RUM websites (`/Rum/Website`), keyed by Description; a pinned `RumWebsiteId` adopts or renames one. The service
 * generates `RumScript` (read-only in the registry), so it is never compared, sent or pulled.
 */
export const rumWebsiteKind: KindModule = {
  ...RUM_WEBSITE_KIND,
  // The vendor's provider leaves both out unless set, and reads them back false.
  serverDefaults: { IsSpa: false, IncludeUrlFragment: false },
  // PUT takes the whole website (the vendor's provider sends every writable field): the body keeps the live fields the tree leaves out.
  updateReplaces: true,
  builtFrom: ['rumWebsite'],
  read: { list: (client) => client.rumWebsites.list() },

  desired(state) {
    return (state.rumWebsites ?? []).map(({ value, source }) =>
      desiredEntry('rumWebsite', value.Description, apiFields(value), source, [], { pinnedGuid: pinned(value, 'RumWebsiteId') }),
    );
  },

  live(snapshot) {
    return listed(snapshot, 'rumWebsite').map((fields) => liveEntry('rumWebsite', str(fields, 'Description') ?? '', idOf(fields, 'RumWebsiteId'), fields, []));
  },

  requests: {
    /** The client learns the id from the answer, or by listing when the service answers with no body. */
    async create(client, step, body) {
      const id = answeredId(await client.rumWebsites.create(body), 'RumWebsiteId') ?? (await findOne(client.rumWebsites.list(), (w) => w.Description === body.Description, 'RumWebsiteId'));
      if (id === undefined) throw new Error(`${step.id}: the service accepted the RUM website but it is not in the listing`);
      return id;
    },
    async update(client, step, body) {
      await client.rumWebsites.replace(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      await client.rumWebsites.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.rumWebsites.list(), (w) => w.Description === step.key, 'RumWebsiteId');
    },
  },
};
