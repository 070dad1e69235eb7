import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Plan, PlanChange, PlanStep } from '../plan/types.js';
import { pullInto, type TreeFile } from './pull-into.js';

function step(action: PlanStep['action'], kind: PlanStep['kind'], key: string, changes: PlanChange[] = []): PlanStep {
  return { id: `${kind}:${key}`, action, kind, key, changes, dependsOn: [] };
}

function plan(steps: PlanStep[], unmanaged: Plan['unmanaged'] = []): Plan {
  const summary = { create: 0, update: 0, delete: 0, ensure: 0, unchanged: 0, unmanaged: unmanaged.length };
  for (const s of steps) summary[s.action] += 1;
  return { formatVersion: 1, configDigest: '0'.repeat(64), liveDigest: '0'.repeat(64), summary, safe: true, violations: [], steps, unmanaged, warnings: [] };
}

function pulled(files: TreeFile[], steps: PlanStep[], live: unknown, newObjectsFile = 'new-objects.yaml') {
  return pullInto({ files, plan: plan(steps), pulled: live, newObjectsFile });
}

function text(result: ReturnType<typeof pullInto>, path: string): string | undefined {
  return result.files.find((file) => file.path === path)?.text;
}

const monitors = `monitors:
  # Shop front page.
  - Name: Shop homepage
    Url: 'https://shop.example.com/'   # single-quoted
    CheckInterval: &every 5            # minutes between checks
    Port: 443
    ErrorConditions:
      - { ErrorConditionType: HttpStatus, Value: "200" }
      - { ErrorConditionType: LoadTimeLimit1, Value: "3", Effect: Error }

  # Mail.
  - Name: Mail relay
    Url: smtp.example.com
`;
const liveHomepage = {
  Name: 'Shop homepage',
  Url: 'https://shop.example.com/home',
  CheckInterval: 10,
  ErrorConditions: [
    { ErrorConditionType: HttpStatus(), Value: '201' },
    { ErrorConditionType: 'TotalMinBytes', Value: '2' },
  ],
};
function HttpStatus(): string {
  return 'HttpStatus';
}

describe('pullInto', () => {
  it('edits only the changed fields: quoting, anchors and the column of a trailing comment stay', () => {
    const result = pulled(
      [{ path: 'monitors.yaml', text: monitors }],
      [step('update', 'monitor', 'Shop homepage', [
        { op: 'replace', path: '/Url', before: 'https://shop.example.com/home', after: 'https://shop.example.com/' },
        { op: 'replace', path: '/CheckInterval', before: 10, after: 5 },
      ])],
      { monitors: [liveHomepage] },
    );
    expect(text(result, 'monitors.yaml')).toBe(
      monitors
        .replace("Url: 'https://shop.example.com/'   #", "Url: 'https://shop.example.com/home' #")
        .replace('CheckInterval: &every 5            #', 'CheckInterval: &every 10           #'),
    );
  });

  it('in a keyed set of flow maps, changes a value, adds the live entry the tree lacks and removes the one the account lacks', () => {
    const result = pulled(
      [{ path: 'monitors.yaml', text: monitors }],
      [step('update', 'monitor', 'Shop homepage', [
        { op: 'replace', path: '/ErrorConditions/HttpStatus/Value', before: '201', after: '200' },
        { op: 'add', path: '/ErrorConditions/LoadTimeLimit1', after: { ErrorConditionType: 'LoadTimeLimit1', Value: '3', Effect: 'Error' } },
        { op: 'remove', path: '/ErrorConditions/TotalMinBytes', before: { ErrorConditionType: 'TotalMinBytes', Value: '2' } },
        { op: 'add', path: '/Port', after: 443 },
      ])],
      { monitors: [liveHomepage] },
    );
    expect(text(result, 'monitors.yaml')).toBe(
      monitors
        .replace('Value: "200" }', 'Value: "201" }')
        .replace('    Port: 443\n', '')
        .replace('      - { ErrorConditionType: LoadTimeLimit1, Value: "3", Effect: Error }\n', '      - { ErrorConditionType: TotalMinBytes, Value: "2" }\n'),
    );
  });

  it('removes a declaration gone from the account with the comment lines above it, and its memberships', () => {
    const groups = 'monitorGroups:\n  - Description: Platform\n    members: [Shop homepage, Mail relay]\n  - Description: Mail\n    members:\n      - Mail relay\n';
    const result = pulled(
      [{ path: 'monitors.yaml', text: monitors }, { path: 'groups.yaml', text: groups }],
      [step('create', 'monitor', 'Mail relay'), step('create', 'groupMembership', 'Platform/Mail relay'), step('create', 'groupMembership', 'Mail/Mail relay')],
      { monitors: [liveHomepage] },
    );
    expect(text(result, 'monitors.yaml')).toBe(monitors.slice(0, monitors.indexOf('\n  # Mail.')) + '\n');
    expect(text(result, 'groups.yaml')).toBe('monitorGroups:\n  - Description: Platform\n    members: [Shop homepage]\n  - Description: Mail\n    members: []\n');
    expect(result.edits).toEqual(['- monitor "Mail relay" (monitors.yaml)', '- group membership "Platform/Mail relay" (groups.yaml)', '- group membership "Mail/Mail relay" (groups.yaml)']);
  });

  it('adds child objects to their parent declaration: a vault item to its section, an exclusion period to its SLA, a member to its group', () => {
    const vault = 'vault:\n  sections:\n    - Name: Web\n      items:\n        - Name: shop-login\n          VaultItemType: CredentialSet\n          Password: { fromEnv: SHOP_PASSWORD }\n';
    const slas = 'slas:\n  - Description: Gold\n    UptimeErrorThreshold: 99.5\n';
    const groups = 'monitorGroups:\n  - { Description: Shop, members: [Shop homepage] }\n';
    const live = {
      monitorGroups: [{ Description: 'Shop', members: ['Shop homepage', 'Shop search'] }],
      vault: { sections: [{ Name: 'Web', items: [{ Name: 'api-token', VaultItemType: 'OneTimePassword', Value: { fromEnv: 'MONSYNC_SECRET_WEB_API_TOKEN_VALUE' } }] }] },
      slas: [{ Description: 'Gold', exclusionPeriods: [{ Description: 'Freeze', From: '2026-12-20T00:00:00', Until: '2027-01-02T00:00:00' }] }],
    };
    const result = pulled(
      [{ path: 'vault.yaml', text: vault }, { path: 'slas.yaml', text: slas }, { path: 'groups.yaml', text: groups }],
      [step('delete', 'vaultItem', 'Web/api-token'), step('delete', 'slaExclusionPeriod', 'Gold/Freeze'), step('delete', 'groupMembership', 'Shop/Shop search')],
      live,
    );
    expect(text(result, 'vault.yaml')).toBe(`${vault}        - Name: api-token\n          VaultItemType: OneTimePassword\n          Value: { fromEnv: MONSYNC_SECRET_WEB_API_TOKEN_VALUE }\n`);
    expect(text(result, 'slas.yaml')).toBe(`${slas}    exclusionPeriods:\n      - { Description: Freeze, From: "2027-01-02T00:00:00", Until: "2027-01-02T00:00:00" }\n`.replace('From: "2027-01-02', 'From: "2026-12-20'));
    expect(text(result, 'groups.yaml')).toBe('monitorGroups:\n  - { Description: Shop, members: [Shop homepage, Shop search] }\n');
    expect(result.files.map((file) => file.path)).not.toContain('new-objects.yaml');
  });

  it('writes a new top-level object once, with its children, to the new-objects file (appended when it exists)', () => {
    const live = { slas: [{ Description: 'Bronze', UptimeErrorThreshold: 95, exclusionPeriods: [{ Description: 'Move', From: '2026-01-01T00:00:00', Until: '2026-01-02T00:00:00' }] }], monitors: [{ Name: 'New one', Url: 'https://x.example.com/' }] };
    const steps = [step('delete', 'sla', 'Bronze'), step('delete', 'slaExclusionPeriod', 'Bronze/Move'), step('delete', 'monitor', 'New one')];
    const fresh = pulled([{ path: 'slas.yaml', text: 'slas: []\n' }], steps, live, 'web/new.yaml');
    const created = fresh.files.find((file) => file.path === 'web/new.yaml');
    expect(created?.created).toBe(true);
    expect(parseAllDocuments(created?.text ?? '')[0]?.toJS()).toEqual({ monitors: live.monitors, slas: live.slas });
    const existing = pulled([{ path: 'web/new.yaml', text: '# Mine.\nmonitors:\n  - Name: Older\n' }], steps, live, 'web/new.yaml');
    expect(text(existing, 'web/new.yaml')).toBe(
      '# Mine.\nmonitors:\n  - Name: Older\n  - { Name: New one, Url: "https://x.example.com/" }\nslas:\n  - Description: Bronze\n    UptimeErrorThreshold: 95\n    exclusionPeriods:\n      - { Description: Move, From: "2026-01-01T00:00:00", Until: "2026-01-02T00:00:00" }\n',
    );
  });

  it('never writes a secret: a sensitive change and a secret reference are left as they are, with a note', () => {
    const vault = 'vault:\n  sections:\n    - Name: Web\n      items:\n        - Name: shop-login\n          Password: { fromEnv: SHOP_PASSWORD }\n';
    const result = pulled(
      [{ path: 'vault.yaml', text: vault }],
      [step('update', 'vaultItem', 'Web/shop-login', [{ op: 'replace', path: '/Password', before: '(sensitive)', after: '(sensitive)', sensitive: true }])],
      { vault: { sections: [{ Name: 'Web', items: [{ Name: 'shop-login', Password: { fromEnv: 'MONSYNC_SECRET_X' } }] }] } },
    );
    expect(result.files).toEqual([]);
    expect(result.notes[0]).toMatch(/vaultItem "Web\/shop-login" \/Password: a secret, which monsync never writes into a tree; left as it is/);
  });

  it('leaves a value written as an alias alone (it is shared with its anchor) and says so', () => {
    const shared = 'monitors:\n  - Name: A\n    Schedule: &s { Every: 5 }\n  - Name: B\n    Schedule: *s\n';
    const result = pulled([{ path: 'm.yaml', text: shared }], [step('update', 'monitor', 'B', [{ op: 'replace', path: '/Schedule/Every', before: 10, after: 5 }])], { monitors: [{ Name: 'B', Schedule: { Every: 10 } }] });
    expect(result.files).toEqual([]);
    expect(result.notes).toEqual(['monitor "B" /Schedule/Every: written as the alias *s in m.yaml, a value shared with its anchor; left as it is (edit it by hand)']);
  });

  it('edits the document that declares the object in a multi-document file, and no other', () => {
    const docs = 'monitors:\n  - Name: A\n    CheckInterval: 5\n---\nmonitors:\n  - Name: B\n    CheckInterval: 5\n';
    const result = pulled([{ path: 'm.yaml', text: docs }], [step('update', 'monitor', 'B', [{ op: 'replace', path: '/CheckInterval', before: 15, after: 5 }])], { monitors: [{ Name: 'B', CheckInterval: 15 }] });
    expect(text(result, 'm.yaml')).toBe(docs.replace('Name: B\n    CheckInterval: 5', 'Name: B\n    CheckInterval: 15'));
  });

  it('keeps CRLF line endings, in edited, removed and added lines', () => {
    const crlf = monitors.replaceAll('\n', '\r\n');
    const result = pulled(
      [{ path: 'monitors.yaml', text: crlf }],
      [
        step('update', 'monitor', 'Shop homepage', [{ op: 'remove', path: '/ErrorConditions/TotalMinBytes', before: {} }, { op: 'add', path: '/Port', after: 443 }]),
        step('create', 'monitor', 'Mail relay'),
      ],
      { monitors: [liveHomepage] },
    );
    const out = text(result, 'monitors.yaml') ?? '';
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
    expect(out).toBe(
      monitors
        .replace('    Port: 443\n', '')
        .replace('Effect: Error }\n', 'Effect: Error }\n      - { ErrorConditionType: TotalMinBytes, Value: "2" }\n')
        .slice(0, monitors.indexOf('\n  # Mail.') - 'Port: 443\n    '.length + '      - { ErrorConditionType: TotalMinBytes, Value: "2" }\n'.length)
        .concat('\n')
        .replaceAll('\n', '\r\n'),
    );
  });

  it('lists unmanaged live objects (prune: false) in a note and does not write them', () => {
    const result = pullInto({ files: [{ path: 'monsync.yaml', text: 'apiVersion: monsync/v1\n' }], plan: plan([], [{ kind: 'scheduledReport', key: 'monthly-ops', guid: 'g' }]), pulled: {}, newObjectsFile: 'new-objects.yaml' });
    expect(result.files).toEqual([]);
    expect(result.notes).toEqual(['scheduled report "monthly-ops" is only in the live account and unmanaged (prune: false); left out']);
  });

  it('finds entries named by their content: a duty schedule and a vault access, removed or added where they are declared', () => {
    const people = `operators:
  - Email: sam@example.com
    dutySchedules:
      - { ScheduleMode: Daily, StartTime: "23:00", EndTime: "07:00" }
      - { ScheduleMode: Monthly, MonthDay: 31, StartTime: "09:00", EndTime: "17:00" }
`;
    const vault = `vault:
  sections:
    - Name: Shop
      access:
        - { operator: sam@example.com, level: view }
`;
    const result = pulled(
      [{ path: 'people.yaml', text: people }, { path: 'vault.yaml', text: vault }],
      [
        step('create', 'dutySchedule', 'sam@example.com/Monthly day 31 09:00-17:00'),
        step('delete', 'vaultAccess', 'Shop/group:Night shift'),
      ],
      {
        operators: [{ Email: 'sam@example.com', dutySchedules: [{ ScheduleMode: 'Daily', StartTime: '23:00', EndTime: '07:00' }] }],
        vault: { sections: [{ Name: 'Shop', access: [{ operator: 'sam@example.com', level: 'view' }, { group: 'Night shift', level: 'change' }] }] },
      },
    );
    expect(result.notes).toEqual([]);
    expect(text(result, 'people.yaml')).toBe(people.replace(/ {6}- \{ ScheduleMode: Monthly.*\n/, ''));
    expect(text(result, 'vault.yaml')).toBe(`${vault}        - { group: Night shift, level: change }\n`);
  });

  it('adds members made in the web app to the list of their kind, several in one edit, and writes a missing list once', () => {
    const alerts = `alertDefinitions:
  - AlertName: Shop on-call
    members: { monitorGroups: [Shop] }   # what pages the shop team
    escalationLevels:
      - Id: 1
        members:
          operators: [sam@example.com]
`;
    const result = pulled(
      [{ path: 'alerts.yaml', text: alerts }],
      [
        step('delete', 'alertDefinitionMember', 'Shop on-call/monitor:Status page'),
        step('delete', 'alertDefinitionMember', 'Shop on-call/monitor:Checkout'),
        step('delete', 'escalationLevelMember', 'Shop on-call/1/operator:nina@example.com'),
        step('delete', 'escalationLevelMember', 'Shop on-call/1/operatorGroup:Night shift'),
      ],
      {
        alertDefinitions: [
          {
            AlertName: 'Shop on-call',
            members: { monitorGroups: ['Shop'], monitors: ['Checkout', 'Status page'] },
            escalationLevels: [{ Id: 1, members: { operators: ['nina@example.com', 'sam@example.com'], operatorGroups: ['Night shift'] } }],
          },
        ],
      },
    );
    expect(text(result, 'alerts.yaml')).toBe(`alertDefinitions:
  - AlertName: Shop on-call
    members: { monitorGroups: [Shop], monitors: [Status page, Checkout] }   # what pages the shop team
    escalationLevels:
      - Id: 1
        members:
          operators: [sam@example.com, nina@example.com]
          operatorGroups: [Night shift]
`);
    expect(result.edits).toEqual([
      '+ alert definition member "Shop on-call/monitor:Status page" (alerts.yaml)',
      '+ alert definition member "Shop on-call/monitor:Checkout" (alerts.yaml)',
      '+ escalation level member "Shop on-call/1/operator:nina@example.com" (alerts.yaml)',
      '+ escalation level member "Shop on-call/1/operatorGroup:Night shift" (alerts.yaml)',
    ]);
  });

  it('removes a member gone from the account from the list of its kind', () => {
    const alerts = 'alertDefinitions:\n  - AlertName: Shop on-call\n    members:\n      monitors:\n        - Status page   # the public one\n        - Checkout\n';
    const result = pulled([{ path: 'alerts.yaml', text: alerts }], [step('create', 'alertDefinitionMember', 'Shop on-call/monitor:Status page')], { alertDefinitions: [{ AlertName: 'Shop on-call', members: { monitors: ['Checkout'] } }] });
    expect(text(result, 'alerts.yaml')).toBe('alertDefinitions:\n  - AlertName: Shop on-call\n    members:\n      monitors:\n        - Checkout\n');
  });

  it('rewrites an older alert definition by GUID into the named form, in a flow sequence too, and answers its steps', () => {
    const named = { AlertName: 'Pager', IsActive: false, members: { monitors: ['Blog'] }, escalationLevels: [{ Id: 1, IsActive: true, members: {}, integrations: [] }] };
    const alerts = 'alertDefinitions: [{ AlertDefinitionGuid: D-1, IsActive: true, protect: true }]   # by GUID\n';
    const result = pullInto({
      files: [{ path: 'alerts.yaml', text: alerts }],
      plan: plan([step('update', 'alertDefinition', 'D-1', [{ op: 'replace', path: '/IsActive', before: false, after: true }])]),
      pulled: {},
      newObjectsFile: 'new-objects.yaml',
      alertDefinitionsByGuid: new Map([['d-1', named]]),
    });
    const written = text(result, 'alerts.yaml') ?? '';
    expect(written).toMatch(/^alertDefinitions: \[\{ AlertName: Pager, IsActive: false, members: .*, protect: true \}\] {3}# by GUID\n$/);
    expect(parseAllDocuments(written)[0]?.toJSON()).toEqual({ alertDefinitions: [{ ...named, protect: true }] });
    expect(result.edits).toEqual(['~ alert definition "D-1": written by name as "Pager" with its members and escalation levels (alerts.yaml)']);
    expect(result.written).toEqual([{ kind: 'alertDefinition', key: 'Pager' }]);
  });

  it('leaves an older alert definition the account cannot name as it is, and says so', () => {
    const alerts = 'alertDefinitions:\n  - AlertDefinitionGuid: D-9\n    IsActive: true\n';
    const result = pullInto({ files: [{ path: 'alerts.yaml', text: alerts }], plan: plan([]), pulled: {}, newObjectsFile: 'new-objects.yaml', alertDefinitionsByGuid: new Map() });
    expect(result.files).toEqual([]);
    expect(result.notes).toEqual(['alert definition "D-9" (older form, by GUID) is not one the account lets a tree name (gone, or its name is shared); left as it is']);
  });
  it("writes an operator's authorizations as the account holds them: a type it lacks out of the list, a type it holds in", () => {
    const people = 'operators:\n  - Email: sam@example.com\n    authorizations: [AccountAccess, AllowInfra]   # reviewed\n  - Email: kim@example.com\n';
    const result = pulled(
      [{ path: 'people.yaml', text: people }],
      [step('create', 'operatorAuthorization', 'sam@example.com/AllowInfra'), step('delete', 'operatorAuthorization', 'sam@example.com/FinancialOperator')],
      { operators: [{ Email: 'sam@example.com', authorizations: ['AccountAccess', 'FinancialOperator'] }, { Email: 'kim@example.com', authorizations: ['TechnicalContact'] }] },
    );
    expect(text(result, 'people.yaml')).toBe('operators:\n  - Email: sam@example.com\n    authorizations: [AccountAccess, FinancialOperator]   # reviewed\n  - Email: kim@example.com\n');
  });

  it('drops a new operator whole, with the AccountAccess removal its plan held, when the account lacks it', () => {
    const people = 'operators:\n  - Email: sam@example.com\n  - Email: new@example.com\n    authorizations: [TechnicalContact]\n';
    const result = pulled(
      [{ path: 'people.yaml', text: people }],
      [step('create', 'operator', 'new@example.com'), step('create', 'operatorAuthorization', 'new@example.com/TechnicalContact'), step('delete', 'operatorAuthorization', 'new@example.com/AccountAccess')],
      { operators: [{ Email: 'sam@example.com' }] },
    );
    expect(text(result, 'people.yaml')).toBe('operators:\n  - Email: sam@example.com\n');
  });
});

describe('pullInto and the published definition (allowUnknown)', () => {
  const settings = '# Team settings.\napiVersion: monsync/v1\nmanage:\n  monitors: { prune: true }   # the tree is the truth\n';
  const newer = { Name: 'Status page', Url: 'https://status.example.com/', MonitorType: 'Https', MonitorMode: 'Canary', Tags: ['public'] };

  it('adds what a written object holds beyond the definition to monsync.yaml, below a comment, every other line kept', () => {
    const result = pulled([{ path: 'monsync.yaml', text: settings }, { path: 'monitors.yaml', text: monitors }], [step('delete', 'monitor', 'Status page')], { monitors: [newer] });
    expect(text(result, 'monsync.yaml')).toBe(
      settings +
        '# What the live account holds beyond the published definition of this release of monsync (written by\n' +
        '# monsync pull --into or import): the service added it since. Remove an entry once monsync publishes it.\n' +
        'allowUnknown:\n  fields:\n    monitor: [Tags]\n  values:\n    MonitorMode: [Canary]\n',
    );
    expect(result.edits).toEqual(['+ monitor "Status page" (new-objects.yaml)', '~ monsync.yaml allowUnknown.fields.monitor: Tags', '~ monsync.yaml allowUnknown.values.MonitorMode: Canary']);
  });

  it('adds to an allowUnknown the file has, in its style, and leaves out what it lets through already', () => {
    const flow = `${settings}allowUnknown: { fields: { monitor: [Labels] }, values: { MonitorType: [Quantum] } }   # reviewed\n`;
    const result = pulled([{ path: 'monsync.yaml', text: flow }], [step('delete', 'monitor', 'Status page')], { monitors: [{ ...newer, MonitorType: 'Quantum', Labels: ['x'] }] });
    expect(text(result, 'monsync.yaml')).toBe(`${settings}allowUnknown: { fields: { monitor: [Labels, Tags] }, values: { MonitorType: [Quantum], MonitorMode: [Canary] } }   # reviewed\n`);
  });

  it("never lets through what the tree held before: a team's typo stays an error for validate", () => {
    const typo = 'monitors:\n  - Name: Blog\n    MonitorMode: Prodution\n';
    const result = pulled([{ path: 'monsync.yaml', text: settings }, { path: 'monitors.yaml', text: typo }], [step('update', 'monitor', 'Blog', [{ op: 'replace', path: '/Url', before: 'b', after: 'a' }])], {
      monitors: [{ Name: 'Blog', MonitorMode: 'Prodution', Url: 'https://blog.example.com/' }],
    });
    expect(text(result, 'monitors.yaml')).toContain('Url: "https://blog.example.com/"');
    expect(text(result, 'monsync.yaml')).toBeUndefined();
  });

  it('changes nothing in monsync.yaml when the objects written are all published', () => {
    const result = pulled([{ path: 'monsync.yaml', text: settings }], [step('delete', 'monitor', 'Status page')], { monitors: [{ Name: 'Status page', MonitorType: 'Https', MonitorMode: 'Production' }] });
    expect(text(result, 'monsync.yaml')).toBeUndefined();
  });
});
