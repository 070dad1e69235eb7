import { describe, expect, it } from 'vitest';
import { useEmulator } from './harness.js';

const api = useEmulator('empty', { operatorGroupAuthorizationForm: 'announced' });

describe('operator group authorizations when the service answers in the announced form', () => {
  it('reads bare type names as authorization objects', async () => {
    const g = await api.client.operatorGroups.create({ Description: 'Finance' });
    await api.client.operatorGroups.authorizations.addByType(g.OperatorGroupGuid, 'FinancialOperator');
    await api.client.operatorGroups.authorizations.addByType(g.OperatorGroupGuid, 'AllowInfra');
    const list = await api.client.operatorGroups.authorizations.list(g.OperatorGroupGuid).toArray();
    expect(list.map((a) => a.AuthorizationType).sort()).toEqual(['AllowInfra', 'FinancialOperator']);
    expect(list.every((a) => a.AuthorizationId === undefined)).toBe(true);
  });
});
