import { describe, expect, it } from 'vitest';
import { MalformedListingError, UnexpectedResponseError } from './errors.js';
import { LISTING_SHAPES } from './listing-shapes.js';
import { mockApi } from './test-utils/mock-api.js';

const GUID = '3f2a1c4e-0000-4000-8000-000000000001';
const OTHER = '3f2a1c4e-0000-4000-8000-000000000002';
const monitor = { MonitorGuid: GUID, Name: 'Shop', MonitorType: 'Https' };

async function refusal(read: () => Promise<unknown>): Promise<MalformedListingError> {
  const error = await read().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof MalformedListingError)) throw new Error(`expected a MalformedListingError, got ${String(error)}`);
  return error;
}

describe('a listing entry that is not of its listing\'s shape', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'null'],
    ['a number', 1, 'an integer'],
    ['a string', 'Shop', 'a string'],
    ['an array', [GUID, 'Shop'], 'an array'],
    ['an object without its GUID', { Name: 'Shop' }, 'an object without MonitorGuid'],
    ['an object without its key', { MonitorGuid: GUID }, 'an object without Name'],
    ['a GUID of the wrong type', { MonitorGuid: 5, Name: 'Shop' }, 'an object whose MonitorGuid is an integer'],
    ['an empty GUID', { MonitorGuid: '', Name: 'Shop' }, 'an object whose MonitorGuid is an empty string'],
    ['a key of the wrong type', { MonitorGuid: GUID, Name: ['Shop'] }, 'an object whose Name is an array'],
  ])('%s is refused with the listing, its position and what was expected', async (_, entry, what) => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, [monitor, entry]);
    const error = await refusal(() => api.client.monitors.list().toArray());
    expect(error.code).toBe('MALFORMED_LISTING');
    expect(error.listing).toBe('GET /Monitor');
    expect([error.batch, error.index]).toEqual([1, 1]);
    expect(error.message).toBe(
      `GET /Monitor answered an entry that is not a monitor (batch 1, index 1): ${what}; expected an object with MonitorGuid (a non-empty string) and Name (a string)`,
    );
    // A 2xx whose body cannot be used: a create that found its object this way would be an unclear outcome.
    expect(error).toBeInstanceOf(UnexpectedResponseError);
  });

  it('names the batch of a cursor chain the entry came in', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [monitor], Cursors: { Next: 'c2', Self: 'c1' } });
    api.reply('GET', '/Monitor', 200, { Data: [{ ...monitor, MonitorGuid: OTHER }], Cursors: { Next: 'c3', Self: 'c2' } });
    api.reply('GET', '/Monitor', 200, { Data: [{ ...monitor, MonitorGuid: OTHER }, null], Cursors: { Self: 'c3' } });
    const error = await refusal(() => api.client.monitors.list().toArray());
    expect([error.batch, error.index]).toEqual([3, 1]);
    expect(error.message).toContain('(batch 3, index 1): null;');
  });

  it('names the batch when the chain is walked batch by batch', async () => {
    const api = mockApi();
    api.reply('GET', '/Monitor', 200, { Data: [monitor], Cursors: { Next: 'c2', Self: 'c1' } });
    api.reply('GET', '/Monitor', 200, { Data: [{}], Cursors: { Self: 'c2' } });
    const walk = async (): Promise<void> => {
      for await (const page of api.client.monitors.list().pages()) void page;
    };
    const error = await refusal(walk);
    expect([error.batch, error.index]).toEqual([2, 0]);
  });

  it('names a per-parent listing by its path', async () => {
    const api = mockApi();
    api.reply('GET', `/MonitorGroup/${GUID}/Member`, 200, [{ MonitorGuid: OTHER }, { MonitorGuid: null }]);
    const error = await refusal(() => api.client.monitorGroups.members(GUID).toArray());
    expect(error.listing).toBe(`GET /MonitorGroup/${GUID}/Member`);
    expect(error.message).toBe(
      `GET /MonitorGroup/${GUID}/Member answered an entry that is not a member of a monitor group (batch 1, index 1): an object whose MonitorGuid is null; ` +
        'expected an object with MonitorGuid (a non-empty string), or the MonitorGuid alone as a non-empty string',
    );
  });

  it('never shows what the entry holds, only what it is', async () => {
    const api = mockApi();
    api.reply('GET', '/VaultItem', 200, [{ VaultItemGuid: GUID, Name: 7, Value: 'CANARY-vault-value' }]);
    const error = await refusal(() => api.client.vaultItems.list().toArray());
    expect(error.message).toContain('an object whose Name is an integer');
    expect(JSON.stringify({ message: error.message, json: error.toJSON() })).not.toContain('CANARY');
  });

  it('checks every listing a read of the account makes', async () => {
    const api = mockApi();
    const reads: [string, () => Promise<unknown>][] = [
      ['/Monitor', () => api.client.monitors.list().toArray()],
      [`/Monitor/MonitorGroup/${GUID}`, () => api.client.monitors.listInGroup(GUID).toArray()],
      ['/MonitorGroup', () => api.client.monitorGroups.list().toArray()],
      [`/MonitorGroup/${GUID}/Member`, () => api.client.monitorGroups.members(GUID).toArray()],
      ['/VaultSection', () => api.client.vaultSections.list().toArray()],
      ['/VaultItem', () => api.client.vaultItems.list().toArray()],
      [`/VaultSection/${GUID}/Authorization`, () => api.client.vaultSections.authorizations.list(GUID).toArray()],
      ['/Sla', () => api.client.slas.list().toArray()],
      [`/Sla/${GUID}/ExclusionPeriod`, () => api.client.slas.exclusionPeriods.list(GUID).toArray()],
      ['/ScheduledReport', () => api.client.scheduledReports.list().toArray()],
      ['/Operator', () => api.client.operators.list().toArray()],
      [`/Operator/${GUID}/DutySchedule`, () => api.client.operators.dutySchedules.list(GUID).toArray()],
      [`/Operator/${GUID}/Authorization`, () => api.client.operators.authorizations.list(GUID).toArray()],
      ['/OperatorGroup', () => api.client.operatorGroups.list().toArray()],
      [`/OperatorGroup/${GUID}/Member`, () => api.client.operatorGroups.members(GUID).toArray()],
      [`/OperatorGroup/${GUID}/Authorization`, () => api.client.operatorGroups.authorizations.list(GUID).toArray()],
      ['/Timezone', () => api.client.timezones.list().toArray()],
      ['/OutgoingPhoneNumber', () => api.client.outgoingPhoneNumbers.list().toArray()],
      ['/Rum/Website', () => api.client.rumWebsites.list().toArray()],
    ];
    for (const [path, read] of reads) {
      api.reply('GET', path, 200, [null]);
      const error = await refusal(read);
      expect(error.listing, path).toBe(`GET ${path}`);
      expect(error.message, path).toContain('(batch 1, index 0): null; expected an object with ');
    }
    // Every shape in the table but the alert definitions' (a listing the reads of alert definitions use) is asked above.
    expect(reads.length).toBe(Object.keys(LISTING_SHAPES).length - 1);
  });

  it('reads every plausible form of a valid entry', async () => {
    const api = mockApi();
    api.reply('GET', `/MonitorGroup/${GUID}/Member`, 200, [OTHER, { MonitorGuid: GUID }]);
    api.reply('GET', `/OperatorGroup/${GUID}/Authorization`, 200, ['AllowInfra', { AuthorizationType: 'FinancialOperator' }]);
    api.reply('GET', `/VaultSection/${GUID}/Authorization`, 200, [
      { AuthorizationType: 'ViewVaultSection', OperatorGuid: null, OperatorGroupGuid: OTHER },
      { AuthorizationType: 'ChangeVaultSection', OperatorGroupId: OTHER },
      { AuthorizationType: 'ChangeVaultSection', OperatorGuid: GUID },
    ]);
    api.reply('GET', `/Sla/${GUID}/ExclusionPeriod`, 200, [{ ExclusionPeriodId: 3, Description: '' }, { ExclusionPeriodId: '4', Description: 'x' }]);
    api.reply('GET', '/Timezone', 200, [{ TimeZoneId: 1, Description: 'UTC' }]);
    expect(await api.client.monitorGroups.members(GUID).toArray()).toEqual([{ MonitorGuid: OTHER }, { MonitorGuid: GUID }]);
    expect(await api.client.operatorGroups.authorizations.list(GUID).toArray()).toEqual([{ AuthorizationType: 'AllowInfra' }, { AuthorizationType: 'FinancialOperator' }]);
    expect(await api.client.vaultSections.authorizations.list(GUID).toArray()).toHaveLength(3);
    expect(await api.client.slas.exclusionPeriods.list(GUID).toArray()).toHaveLength(2);
    expect((await api.client.timezones.list().toArray())[0]?.TimezoneId).toBe(1);
  });

  it('refuses an authorization that names neither an operator nor a group', async () => {
    const api = mockApi();
    api.reply('GET', `/VaultSection/${GUID}/Authorization`, 200, [{ AuthorizationType: 'ViewVaultSection', OperatorGuid: null }]);
    const error = await refusal(() => api.client.vaultSections.authorizations.list(GUID).toArray());
    expect(error.message).toContain('an object with neither OperatorGuid nor OperatorGroupGuid;');
  });
});
