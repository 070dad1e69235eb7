import { OPERATOR_AUTHORIZATION_KIND, OPERATOR_KIND } from '@monsync/schema';
import { OPERATOR_WRITE_ONLY_FIELDS } from '@monsync/client/wire';
import { listed } from '../live/snapshot.js';
import { desiredEntry, liveEntry, str, type KindModule } from './contract.js';
import { apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

/** E-mails name one operator whatever their case (the service refuses a second operator differing only in case). */
const sameEmail = (key: string): string => key.toLowerCase();

/**
 * Operators, keyed by Email. `Password` and the fields the service does not return on GET
 * (`OPERATOR_WRITE_ONLY_FIELDS` of `@monsync/client/wire`) are written once: sent on create, never compared
 * afterwards, and sent again only when the plan is made with `--rotate operator:<Email>`. The client adds the
 * `...Specified` companions the service needs to apply them.
 */
export const operatorKind: KindModule = {
  ...OPERATOR_KIND,
  serverDefaults: {},
  identity: sameEmail,
  updateReplaces: true,
  writeOnce: ['Password', ...OPERATOR_WRITE_ONLY_FIELDS],
  builtFrom: ['operator'],
  read: { list: (client) => client.operators.list(), operators: true },

  desired(state) {
    return (state.operators ?? []).map(({ value, source }) =>
      desiredEntry('operator', value.Email, apiFields(value), source, [], {
        pinnedGuid: pinned(value, 'OperatorGuid'),
        // Only a declared list is managed: an operator without `authorizations:` keeps whatever it holds.
        manages: Array.isArray(value.authorizations) ? [OPERATOR_AUTHORIZATION_KIND.kind] : undefined,
      }),
    );
  },

  live(snapshot) {
    return listed(snapshot, 'operator').map((fields) => liveEntry('operator', str(fields, 'Email') ?? '', idOf(fields, 'OperatorGuid'), fields, []));
  },

  requests: {
    async create(client, _step, body) {
      return idOf(await client.operators.create(body), 'OperatorGuid');
    },
    /** PUT: the body holds the declared fields and the live ones the config leaves out (`updateReplaces`). */
    async update(client, step, body) {
      const guid = requireGuid(step.guid, step.id);
      await client.operators.replace(guid, { ...body, OperatorGuid: guid });
    },
    async delete(client, step) {
      await client.operators.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.operators.list(), (o) => typeof o.Email === 'string' && sameEmail(o.Email) === sameEmail(step.key), 'OperatorGuid');
    },
  },
};
