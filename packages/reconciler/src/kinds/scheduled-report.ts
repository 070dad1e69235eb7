import { splitMarker } from '../plan/markers.js';
import { desiredEntry, liveEntry, type KindModule } from './contract.js';
import { answeredId, apiFields, findOne, idOf, pinned, requireGuid } from './shared.js';

/** Key of a live report: its `monsync:key=` marker, or a stand-in naming its GUID when it has none. */
export function reportKey(fields: Record<string, unknown>): string {
  const { marker } = splitMarker(fields.InternalNotes, 'key');
  return marker !== undefined && marker !== '' ? marker : `(no key) ${idOf(fields, 'ScheduledReportGuid')}`;
}

/**
 * Scheduled reports have no name in the API: the config `key` is kept as a `monsync:key=<key>` line at the end
 * of `InternalNotes` and matched on.
 */
export const scheduledReportKind: KindModule = {
  kind: 'scheduledReport',
  title: 'scheduled reports',
  manage: 'scheduledReports',
  guidField: 'ScheduledReportGuid',
  readOnlyFields: ['ScheduledReportGuid', 'Hash'],
  writeOnlyFields: [],
  setFields: [
    { path: ['Recipients', 'Operators'] },
    { path: ['Recipients', 'OperatorGroups'] },
    { path: ['Recipients', 'ExtraEmailAddresses'] },
  ],
  serverDefaults: {},
  marker: { field: 'InternalNotes', name: 'key' },
  reads: ['scheduledReport'],

  desired(state) {
    return state.scheduledReports.map(({ value, source }) => {
      const guid = pinned(value, 'ScheduledReportGuid');
      return desiredEntry('scheduledReport', value.key, apiFields(value), source, [], { pinnedGuid: guid });
    });
  },

  live(snapshot) {
    return snapshot.scheduledReports.map((fields) => liveEntry('scheduledReport', reportKey(fields), idOf(fields, 'ScheduledReportGuid'), fields, []));
  },

  requests: {
    /** POST answers 201 with the object; should a service answer without it, the key marker finds it. */
    async create(client, step, body) {
      const guid = answeredId(await client.scheduledReports.create(body), 'ScheduledReportGuid');
      if (guid !== undefined) return guid;
      const found = await findOne(client.scheduledReports.list(), (r) => reportKey(r) === step.key, 'ScheduledReportGuid');
      if (found === undefined) throw new Error(`${step.id}: the service accepted the report but it is not in the listing`);
      return found;
    },
    async update(client, step, body) {
      await client.scheduledReports.patch(requireGuid(step.guid, step.id), body);
    },
    async delete(client, step) {
      await client.scheduledReports.delete(requireGuid(step.guid, step.id));
    },
    find(client, step) {
      return findOne(client.scheduledReports.list(), (r) => reportKey(r) === step.key, 'ScheduledReportGuid');
    },
  },
};
