import { splitMarker } from '../plan/markers.js';
import { SCHEDULED_REPORT_KIND } from '@monsync/schema';
import { listed } from '../live/snapshot.js';
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
  ...SCHEDULED_REPORT_KIND,
  serverDefaults: {},
  marker: { field: 'InternalNotes', name: 'key' },
  builtFrom: ['scheduledReport'],
  read: { list: (client) => client.scheduledReports.list() },
  // Reports are matched by the key marker in InternalNotes, which only account administrators see: without it every
  // declared report would be created again next to the one that exists.
  unmatchable(reports) {
    if (reports.some((r) => 'InternalNotes' in r)) return undefined;
    return (
      `the API account reads ${reports.length} scheduled report${reports.length === 1 ? '' : 's'} without InternalNotes, which only account administrators see; ` +
      'monsync finds its reports by the monsync:key= marker there, so a plan would create every declared report again. Use the API account of an account administrator'
    );
  },

  desired(state) {
    return state.scheduledReports.map(({ value, source }) => {
      const guid = pinned(value, 'ScheduledReportGuid');
      return desiredEntry('scheduledReport', value.key, apiFields(value), source, [], { pinnedGuid: guid });
    });
  },

  live(snapshot) {
    return listed(snapshot, 'scheduledReport').map((fields) => liveEntry('scheduledReport', reportKey(fields), idOf(fields, 'ScheduledReportGuid'), fields, []));
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
