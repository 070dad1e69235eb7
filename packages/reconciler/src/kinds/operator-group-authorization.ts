import { OPERATOR_GROUP_AUTHORIZATION_KIND, OPERATOR_GROUP_KIND } from '@monsync/schema';
import type { KindModule } from './contract.js';
import { isEveryoneGroup } from './operator-group.js';
import { idOf } from './shared.js';
import { typeAuthorizationKind } from './type-authorizations.js';

/**
 * An authorization type a group holds, declared by the group's `authorizations`; authoritative for groups that
 * declare the list (`type-authorizations.ts`). The legacy listing (objects with `AuthorizationType`) is read too.
 */
export const operatorGroupAuthorizationKind: KindModule = typeAuthorizationKind({
  entry: OPERATOR_GROUP_AUTHORIZATION_KIND,
  parent: OPERATOR_GROUP_KIND.kind,
  guidField: 'OperatorGroupGuid',
  declared: (state) =>
    (state.operatorGroups ?? []).flatMap(({ value, source }) => (value.authorizations === undefined ? [] : [{ key: value.Description, types: value.authorizations, source }])),
  read: {
    of: (group) => !isEveryoneGroup(group),
    list: (client, groupGuid) => client.operatorGroups.authorizations.list(groupGuid),
    what: (group) => `authorizations of operator group "${idOf(group, 'Description')}" (${idOf(group, 'OperatorGroupGuid')})`,
  },
  add: (client, groupGuid, type) => client.operatorGroups.authorizations.addByType(groupGuid, type),
  remove: (client, groupGuid, type) => client.operatorGroups.authorizations.removeByType(groupGuid, type),
});
