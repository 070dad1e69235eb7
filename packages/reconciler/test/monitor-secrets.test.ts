import { describe, expect, it } from 'vitest';
import { parseSecretRefs, splitMarker, type Plan } from '../src/index.js';
import { aLiveMonitor, aMonitor, CANARY, desiredState, liveSnapshot, planFor, secret } from '../src/test-utils/index.js';

const manage = { monitors: { prune: false } };

function declared(token: string, variable: string) {
  return desiredState({
    manage,
    monitors: [
      aMonitor({
        Name: 'API',
        Notes: 'checkout API',
        BearerToken: secret(token, 'API_TOKEN'),
        PredefinedVariables: [
          { Key: 'baseUrl', Value: 'https://api.example.com' },
          { Key: 'apiKey', Value: secret(variable, 'SHOP_API_KEY') },
        ],
      }),
    ],
  });
}

/** The live monitor as an apply of `desired` leaves it: the body of its create, secrets as the service keeps them. */
function appliedFrom(plan: Plan, variable: string) {
  const body = plan.steps[0]?.desired ?? {};
  // The service returns a bearer token empty and a variable's value in clear.
  return aLiveMonitor({ ...body, Name: 'API', BearerToken: '', PredefinedVariables: [{ Key: 'baseUrl', Value: 'https://api.example.com' }, { Key: 'apiKey', Value: variable }] });
}

describe('monitor secrets', () => {
  it('plans nothing while the secrets are the ones applied, and an update when a bearer token or a variable rotates', () => {
    const created = planFor(declared(`${CANARY}-token`, `${CANARY}-key`), liveSnapshot());
    const live = liveSnapshot({ monitors: [appliedFrom(created, `${CANARY}-key`)] });
    expect(planFor(declared(`${CANARY}-token`, `${CANARY}-key`), live).steps).toEqual([]);

    for (const rotated of [declared(`${CANARY}-token-2`, `${CANARY}-key`), declared(`${CANARY}-token`, `${CANARY}-key-2`)]) {
      const [step, ...rest] = planFor(rotated, live).steps;
      expect(rest).toEqual([]);
      expect(step).toMatchObject({ action: 'update', reason: 'secret changed' });
      expect(step?.changes.every((change) => change.sensitive === true)).toBe(true);
      expect(JSON.stringify(step)).not.toContain(CANARY);
    }
  });

  it('records where each secret comes from after the fingerprint, and no value', () => {
    const created = planFor(declared(`${CANARY}-token`, `${CANARY}-key`), liveSnapshot());
    const notes = created.steps[0]?.desired?.Notes;
    expect(typeof notes).toBe('string');
    expect(String(notes)).not.toContain(CANARY);
    const { text, marker } = splitMarker(notes, 'fp');
    expect(text).toBe('checkout API');
    const refs = parseSecretRefs(marker);
    expect(Object.fromEntries(refs.variables)).toEqual({ apiKey: { fromEnv: 'SHOP_API_KEY' } });
    expect(Object.fromEntries(refs.fields)).toEqual({ '/BearerToken': { fromEnv: 'API_TOKEN' } });
  });

  it('refuses to create a monitor with no MonitorType, at its position', () => {
    const desired = desiredState({ manage, monitors: [aMonitor({ Name: 'Typeless', MonitorType: undefined }, { file: 'monitors.yaml', line: 7, column: 5 })] });
    expect(() => planFor(desired, liveSnapshot())).toThrow(/monitors\.yaml:7:5: .*declares no MonitorType/);
    // An existing monitor may leave it out: it has one.
    expect(planFor(desired, liveSnapshot({ monitors: [aLiveMonitor({ Name: 'Typeless' })] })).steps).toEqual([]);
  });
});
