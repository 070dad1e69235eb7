/**
 * Operators, operator groups and vault access in a config tree: what validate refuses, with its position and why.
 */
import { describe, expect, it } from 'vitest';
import { loadConfigTexts } from '../src/index.js';

const SETTINGS = 'apiVersion: monsync/v1\nmanage:\n  operators: {}\n  operatorGroups: {}\n  vault: {}\n';

function load(people: string) {
  const { desired, diagnostics } = loadConfigTexts('/cfg', [
    { file: 'monsync.yaml', text: SETTINGS },
    { file: 'people.yaml', text: people },
  ]);
  return { desired, found: diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`) };
}

describe('people in a config tree', () => {
  it('loads operators with a password by reference, groups with members and authorizations, and vault access', () => {
    const { desired, found } = load(
      [
        'operators:',
        '  - Email: sam@example.com',
        '    FullName: Sam',
        '    Password: { fromEnv: SAM_PASSWORD }',
        'operatorGroups:',
        '  - Description: On call',
        '    members: [SAM@example.com]',
        '    authorizations: [AllowInfra, SomeNewerType]',
        'vault:',
        '  sections:',
        '    - Name: Web',
        '      access:',
        '        - { operator: sam@example.com, level: view }',
        '        - { group: On call, level: change }',
        '',
      ].join('\n'),
    );
    expect(found.filter((f) => !f.includes('ENV_VAR_UNSET'))).toEqual([]);
    expect(desired.operators?.map((o) => o.value.Email)).toEqual(['sam@example.com']);
    expect(desired.operatorGroups?.[0]?.value).toMatchObject({ members: ['SAM@example.com'], authorizations: ['AllowInfra', 'SomeNewerType'] });
  });

  it('refuses IsAccountAdministrator, UserName and IsOnDuty on an operator, saying why, at the key', () => {
    const { found } = load(['operators:', '  - Email: sam@example.com', '    IsAccountAdministrator: true', '    UserName: sam', '    IsOnDuty: false', ''].join('\n'));
    expect(found).toEqual([
      'people.yaml:3:5 OPERATOR_FIELD_REFUSED `IsAccountAdministrator` is read-only: the service sets it for the account administrator; remove it',
      'people.yaml:4:5 OPERATOR_FIELD_REFUSED `UserName` is read-only: the service sets it from Email; remove it',
      'people.yaml:5:5 OPERATOR_FIELD_REFUSED `IsOnDuty` is operational state that people switch during an incident, not configuration, so monsync never plans it; remove it (on-call hours are duty schedules)',
    ]);
  });

  // Published definition, operator rows: no `PhoneProvider`; `OutgoingPhoneNumberId` (an id) instead of the spec's
  // `OutgoingPhoneNumber` string. The service would drop both, so a plan would never converge.
  it('refuses the spec-only PhoneProvider and OutgoingPhoneNumber, naming what to write instead', () => {
    const { found } = load(['operators:', '  - Email: sam@example.com', '    PhoneProvider: UseAccountSetting', '    OutgoingPhoneNumber: "+31 20 123 4567"', ''].join('\n'));
    expect(found).toEqual([
      'people.yaml:3:5 OPERATOR_FIELD_REFUSED `PhoneProvider` is not a field of the service (it drops it, so every plan would show it again); remove it: the account setting applies',
      'people.yaml:4:5 OPERATOR_FIELD_REFUSED `OutgoingPhoneNumber` is not a field of the service, which takes the number\'s id; name the number with `outgoingPhoneNumber` (monsync looks up its id) or give `OutgoingPhoneNumberId`',
    ]);
  });

  it('refuses a literal password', () => {
    const { found } = load(['operators:', '  - Email: sam@example.com', '    Password: hunter2', ''].join('\n'));
    expect(found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual(['people.yaml:3:15 LITERAL_SECRET']);
  });

  it('names unknown members and access principals with their position and the likely one meant', () => {
    const { found } = load(
      [
        'operators:',
        '  - Email: sam@example.com',
        'operatorGroups:',
        '  - Description: On call',
        '    members: [sma@example.com]',
        'vault:',
        '  sections:',
        '    - Name: Web',
        '      access:',
        '        - { operator: robin.jones@corp.test, level: view }',
        '        - { group: On cal, level: change }',
        '',
      ].join('\n'),
    );
    expect(found).toEqual([
      'people.yaml:5:15 UNKNOWN_REFERENCE member of operator group `On call` `sma@example.com` names no declared operator; did you mean `sam@example.com`?',
      'people.yaml:10:23 UNKNOWN_REFERENCE access to vault section `Web` of operator `robin.jones@corp.test` names no declared operator',
      'people.yaml:11:20 UNKNOWN_REFERENCE access to vault section `Web` of group `On cal` names no declared operator group; did you mean `On call`?',
    ]);
  });

  it('keeps where an outgoing phone number is named, and refuses naming it and giving its id at once', () => {
    const named = load(['operators:', '  - Email: sam@example.com', '    outgoingPhoneNumber: "+31 20 123 4567"', ''].join('\n'));
    expect(named.found).toEqual([]);
    expect(named.desired.operators?.[0]).toMatchObject({ value: { outgoingPhoneNumber: '+31 20 123 4567' }, fieldSources: { outgoingPhoneNumber: { file: 'people.yaml', line: 3, column: 26 } } });
    const both = load(['operators:', '  - Email: sam@example.com', '    OutgoingPhoneNumberId: 1', '    outgoingPhoneNumber: Amsterdam', ''].join('\n'));
    expect(both.found).toEqual(['people.yaml:4:5 CONFLICTING_FIELDS `outgoingPhoneNumber` and `OutgoingPhoneNumberId` both set the number alerts are sent from']);
  });

  it("loads an operator's own authorizations, and refuses a type outside the published list naming the closest one", () => {
    const ok = load(['operators:', '  - Email: sam@example.com', '    authorizations: [AccountAccess, FinancialOperator, ManageMonitorTemplates]', ''].join('\n'));
    expect(ok.found).toEqual([]);
    expect(ok.desired.operators?.[0]?.value.authorizations).toEqual(['AccountAccess', 'FinancialOperator', 'ManageMonitorTemplates']);
    const typo = load(['operators:', '  - Email: sam@example.com', '    authorizations: [AccountAccess, FinancialOperater]', ''].join('\n'));
    expect(typo.found).toHaveLength(1);
    expect(typo.found[0]).toMatch(/^people\.yaml:3:37 INVALID_ENUM .*did you mean `FinancialOperator`\?$/);
    // A group-only type is no operator type: closed, so it is an error too.
    expect(load(['operators:', '  - Email: sam@example.com', '    authorizations: [BasicOperator]', ''].join('\n')).found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual([
      'people.yaml:3:22 INVALID_ENUM',
    ]);
  });

  it("lets a newer operator authorization type through allowUnknown, and refuses the same one twice", () => {
    const { desired, diagnostics } = loadConfigTexts('/cfg', [
      { file: 'monsync.yaml', text: `${SETTINGS}allowUnknown:\n  values:\n    authorizations: [ManageRumWebsites]\n` },
      { file: 'people.yaml', text: ['operators:', '  - Email: sam@example.com', '    authorizations: [AccountAccess, ManageRumWebsites]', ''].join('\n') },
    ]);
    expect(diagnostics).toEqual([]);
    expect(desired.operators?.[0]?.value.authorizations).toEqual(['AccountAccess', 'ManageRumWebsites']);
    const twice = load(['operators:', '  - Email: sam@example.com', '    authorizations: [AllowInfra, AllowInfra]', ''].join('\n'));
    expect(twice.found.map((f) => f.split(' ').slice(1, 2).join(' '))).toEqual(['DUPLICATE_ITEM']);
  });

  it('refuses AccountAdministrator on an operator once, saying why it cannot be assigned and what to do instead', () => {
    const { found } = load(['operators:', '  - Email: sam@example.com', '    authorizations: [AccountAccess, AccountAdministrator]', ''].join('\n'));
    expect(found).toEqual([
      'people.yaml:3:37 AUTHORIZATION_NOT_ASSIGNABLE the authorization `AccountAdministrator` cannot be assigned: the service gives it only to the Administrators group and the account administrator',
    ]);
  });

  it('refuses the Administrator authorization and the Everyone group', () => {
    const { found } = load(['operatorGroups:', '  - Description: Everyone', '  - Description: Ops', '    authorizations: [AllowInfra, Administrator]', ''].join('\n'));
    expect(found.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual(['people.yaml:2:18 EVERYONE_GROUP', 'people.yaml:4:34 AUTHORIZATION_NOT_ASSIGNABLE']);
  });
});
