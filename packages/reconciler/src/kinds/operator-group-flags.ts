import type { ApiObject } from '../live/types.js';

/** The spec also spells the Administrators flag `IsAdministratorGroup`. */
export function isAdministratorsGroup(group: ApiObject): boolean {
  return group.IsAdministratorsGroup === true || group.IsAdministratorGroup === true;
}

export function isEveryoneGroup(group: ApiObject): boolean {
  return group.IsEveryone === true;
}

