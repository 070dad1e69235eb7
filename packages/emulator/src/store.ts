import { randomBytes, randomUUID } from 'node:crypto';
import { Collection } from './collection.js';
import { EmulatorConfigError } from './errors.js';
import { clone, isObj, type Obj } from './validate.js';

export const STATE_FORMAT = 'monsync-emulator-state';

export interface ApiAccount {
  UserName: string;
  Password: string;
  OperatorGuid: string;
  Description: string;
  CreatedDate: string;
}

export interface MonitorRec {
  seq: number;
  /**
   * Every stored field, including the write-only `BearerToken` (removed when rendering). Replaced as a whole
   * through the store, never changed in place: the saved JSON of each monitor is cached by this object's identity.
   */
  fields: Obj;
}

export interface MonitorGroupRec {
  fields: Obj;
  members: Set<string>;
}

export interface OperatorGroupRec {
  fields: Obj;
  members: Set<string>;
  authorizations: Map<string, { AuthorizationId: string; AuthorizationType: string }>;
}

export interface DutyScheduleRec {
  ownerKind: 'operator' | 'operatorGroup';
  ownerGuid: string;
  fields: Obj;
}

export interface SlaRec {
  fields: Obj;
  periods: Map<number, Obj>;
}

/** An integration attached to a level: every setting as sent, the write-only ones included (never returned). */
export type LevelIntegrationRec = Obj & { IntegrationGuid: string };

export interface EscalationLevelRec {
  Id: number;
  /** The level's fields besides `Id`; a state written before levels had fields gets the defaults. */
  fields?: Obj;
  /** `{OperatorGuid}` or `{OperatorGroupGuid}` entries, in the order added. */
  members?: Obj[];
  integrations: LevelIntegrationRec[];
}

export interface AlertDefinitionRec {
  fields: Obj;
  escalationLevels: EscalationLevelRec[];
  /** `{MonitorGuid}` or `{MonitorGroupGuid}` entries, in the order added. */
  members?: Obj[];
  /** `{AuthorizationId, AuthorizationType, OperatorGuid | OperatorGroupGuid}`. */
  authorizations?: Obj[];
}

export interface Counters {
  monitorSeq: number;
  dutyScheduleId: number;
  exclusionPeriodId: number;
}

/** The JSON form of the whole account: what `--state` files, `dump()` and `load()` exchange. */
export interface EmulatorState {
  format: typeof STATE_FORMAT;
  version: 1;
  accountId: string;
  cursorSecret: string;
  /** Escalation levels of every alert definition: 3 on most accounts, 4 on some (an account setting). Default 3. */
  escalationLevelCount?: 3 | 4;
  counters: Counters;
  operators: Obj[];
  apiAccounts: ApiAccount[];
  operatorGroups: Array<{ fields: Obj; members: string[]; authorizations: Array<{ AuthorizationId: string; AuthorizationType: string }> }>;
  dutySchedules: DutyScheduleRec[];
  monitors: MonitorRec[];
  monitorViewPermissions: Record<string, string[]>;
  /** operator GUID -> its authorization type names (absent: the `AccountAccess` every operator is given). */
  operatorAuthorizations?: Record<string, string[]>;
  maintenancePeriods: Array<{ MonitorGuid: string; period: Obj }>;
  monitorGroups: Array<{ fields: Obj; members: string[] }>;
  vaultSections: Obj[];
  vaultAuthorizations: Obj[];
  vaultItems: Obj[];
  slas: Array<{ fields: Obj; exclusionPeriods: Obj[] }>;
  scheduledReports: Obj[];
  alertDefinitions: AlertDefinitionRec[];
  integrations: Obj[];
  /** Websites of real user monitoring (absent from state files written before they were emulated). */
  rumWebsites?: Obj[];
  timezones: Obj[];
  checkpoints: Obj[];
}

export type MonitorCategory = 'basic' | 'browser' | 'transaction' | 'api';

const BROWSER = new Set(['fullpagecheck', 'realbrowsercheck', 'browser']);
const TRANSACTION = new Set(['transaction', 'realbrowsertransaction']);
const API = new Set(['multistepapi', 'postmanapi']);

/** Quota category of a monitor type; types the emulator does not know count as uptime (basic) monitors. */
export function monitorCategory(type: unknown): MonitorCategory {
  const t = typeof type === 'string' ? type.toLowerCase() : '';
  if (BROWSER.has(t)) return 'browser';
  if (TRANSACTION.has(t)) return 'transaction';
  if (API.has(t)) return 'api';
  return 'basic';
}

const OPEN_BRACKET = Buffer.from('[');
const CLOSE_BRACKET = Buffer.from(']');
const CLOSE_BRACE = Buffer.from('}');
const COMMA = Buffer.from(',');

const VAULT_REF = /\{\{vault:([0-9a-fA-F-]{36})\}\}/g;

/** Vault item GUIDs (lower case) referenced by a monitor's variable values. */
export function vaultReferences(fields: Obj): Set<string> {
  const found = new Set<string>();
  const vars = fields['PredefinedVariables'];
  if (!Array.isArray(vars)) return found;
  for (const v of vars) {
    if (!isObj(v) || typeof v['Value'] !== 'string') continue;
    for (const m of v['Value'].matchAll(VAULT_REF)) if (m[1]) found.add(m[1].toLowerCase());
  }
  return found;
}

/** In-memory account. Collections keyed by lower-case GUID keep lookups O(1) and listing in insertion order. */
export class Store {
  #accountId = '';
  #escalationLevelCount: 3 | 4 = 3;
  #cursorSecret = '';
  #counters: Counters = { monitorSeq: 0, dutyScheduleId: 0, exclusionPeriodId: 0 };
  #dirty = false;
  readonly #changed = (): void => {
    this.#dirty = true;
  };

  readonly operators = new Collection<string, Obj>(this.#changed);
  readonly apiAccounts = new Collection<string, ApiAccount>(this.#changed);
  readonly operatorGroups = new Collection<string, OperatorGroupRec>(this.#changed);
  readonly dutySchedules = new Collection<number, DutyScheduleRec>(this.#changed);
  readonly #monitors = new Map<string, MonitorRec>();
  /** Monitors sorted by `seq`, for cursor paging by binary search. */
  readonly #monitorOrder: MonitorRec[] = [];
  /** Monitors per quota category, so the All Monitors group's quota needs no scan of every monitor. */
  readonly #categoryCounts: Record<MonitorCategory, number> = { basic: 0, browser: 0, transaction: 0, api: 0 };
  /** operator GUID -> monitors it has view-data permission on. */
  readonly monitorViewPermissions = new Collection<string, Set<string>>(this.#changed);
  /** operator GUID -> the authorization types assigned to it (`/Operator/{g}/Authorization`). */
  readonly operatorAuthorizations = new Collection<string, Set<string>>(this.#changed);
  /** Maintenance periods by monitor GUID, so deleting a monitor does not scan every period of the account. */
  readonly #maintenancePeriods = new Map<string, Obj[]>();
  readonly monitorGroups = new Collection<string, MonitorGroupRec>(this.#changed);
  readonly vaultSections = new Collection<string, Obj>(this.#changed);
  readonly vaultAuthorizations = new Collection<string, Obj>(this.#changed);
  readonly vaultItems = new Collection<string, Obj>(this.#changed);
  /** vault item GUID -> monitors referencing it. */
  readonly #vaultRefs = new Map<string, Set<string>>();
  readonly slas = new Collection<string, SlaRec>(this.#changed);
  readonly scheduledReports = new Collection<string, Obj>(this.#changed);
  readonly alertDefinitions = new Collection<string, AlertDefinitionRec>(this.#changed);
  readonly integrations = new Collection<string, Obj>(this.#changed);
  readonly rumWebsites = new Collection<string, Obj>(this.#changed);
  #timezones: Obj[] = [];
  #checkpoints: Obj[] = [];

  get accountId(): string {
    return this.#accountId;
  }

  /** How many escalation levels each alert definition has (the account's setting). */
  get escalationLevelCount(): 3 | 4 {
    return this.#escalationLevelCount;
  }

  get cursorSecret(): string {
    return this.#cursorSecret;
  }

  get monitors(): ReadonlyMap<string, MonitorRec> {
    return this.#monitors;
  }

  get monitorOrder(): readonly MonitorRec[] {
    return this.#monitorOrder;
  }

  get monitorCategoryCounts(): Readonly<Record<MonitorCategory, number>> {
    return this.#categoryCounts;
  }

  get vaultRefs(): ReadonlyMap<string, ReadonlySet<string>> {
    return this.#vaultRefs;
  }

  get timezones(): readonly Obj[] {
    return this.#timezones;
  }

  get checkpoints(): readonly Obj[] {
    return this.#checkpoints;
  }

  /** Whether anything changed since the last call (the server saves the state file when it did). */
  takeChanges(): boolean {
    const dirty = this.#dirty;
    this.#dirty = false;
    return dirty;
  }

  /** The id the next duty schedule will get (validation names it before anything is stored). */
  peekDutyScheduleId(): number {
    return this.#counters.dutyScheduleId + 1;
  }

  nextDutyScheduleId(): number {
    this.#changed();
    return (this.#counters.dutyScheduleId += 1);
  }

  nextExclusionPeriodId(): number {
    this.#changed();
    return (this.#counters.exclusionPeriodId += 1);
  }

  static newGuid(): string {
    return randomUUID();
  }

  static newCursorSecret(): string {
    return randomBytes(32).toString('base64url');
  }

  // ---- operators and groups -------------------------------------------------------------

  private adminGroupHint: OperatorGroupRec | undefined;

  /** Looked up on every request (is the caller an administrator?), so the last answer is reused while it holds. */
  administratorsGroup(): OperatorGroupRec | undefined {
    const hint = this.adminGroupHint;
    if (hint && hint.fields['IsAdministratorsGroup'] === true && this.operatorGroups.get(String(hint.fields['OperatorGroupGuid']).toLowerCase()) === hint) return hint;
    for (const g of this.operatorGroups.values()) {
      if (g.fields['IsAdministratorsGroup'] === true) return (this.adminGroupHint = g);
    }
    return undefined;
  }

  everyoneGroup(): OperatorGroupRec | undefined {
    for (const g of this.operatorGroups.values()) if (g.fields['IsEveryone'] === true) return g;
    return undefined;
  }

  isAdmin(operatorGuid: string): boolean {
    return this.administratorsGroup()?.members.has(operatorGuid) ?? false;
  }

  /** Groups an operator belongs to; Everyone implicitly holds every operator. */
  groupsOf(operatorGuid: string): OperatorGroupRec[] {
    const out: OperatorGroupRec[] = [];
    for (const g of this.operatorGroups.values()) {
      if (g.fields['IsEveryone'] === true || g.members.has(operatorGuid)) out.push(g);
    }
    return out;
  }

  findOperator(ref: string): Obj | undefined {
    const lower = ref.toLowerCase();
    const byGuid = this.operators.get(lower);
    if (byGuid) return byGuid;
    for (const op of this.operators.values()) {
      if (typeof op['Email'] === 'string' && op['Email'].toLowerCase() === lower) return op;
    }
    return undefined;
  }

  /** Grants (or revokes) an operator view-data permission on monitors. */
  setMonitorView(operatorGuid: string, monitorGuids: readonly string[], grant: boolean): void {
    const set = this.monitorViewPermissions.get(operatorGuid) ?? new Set<string>();
    for (const g of monitorGuids) {
      if (grant) set.add(g.toLowerCase());
      else set.delete(g.toLowerCase());
    }
    this.monitorViewPermissions.put(operatorGuid, set);
  }

  // ---- monitors -------------------------------------------------------------------------

  allMonitorsGroup(): MonitorGroupRec | undefined {
    for (const g of this.monitorGroups.values()) if (g.fields['IsAll'] === true) return g;
    return undefined;
  }

  insertMonitor(fields: Obj): MonitorRec {
    this.#counters.monitorSeq += 1;
    const rec: MonitorRec = { seq: this.#counters.monitorSeq, fields };
    this.#addMonitor(rec);
    this.#changed();
    return rec;
  }

  #addMonitor(rec: MonitorRec): void {
    const guid = String(rec.fields['MonitorGuid']).toLowerCase();
    this.#monitors.set(guid, rec);
    this.#monitorOrder.push(rec);
    this.#indexVaultRefs(guid, new Set(), vaultReferences(rec.fields));
    this.#categoryCounts[monitorCategory(rec.fields['MonitorType'])] += 1;
  }

  replaceMonitorFields(rec: MonitorRec, fields: Obj): void {
    const guid = String(rec.fields['MonitorGuid']).toLowerCase();
    this.#indexVaultRefs(guid, vaultReferences(rec.fields), vaultReferences(fields));
    this.#categoryCounts[monitorCategory(rec.fields['MonitorType'])] -= 1;
    this.#categoryCounts[monitorCategory(fields['MonitorType'])] += 1;
    rec.fields = fields;
    this.#changed();
  }

  removeMonitor(guid: string): void {
    const key = guid.toLowerCase();
    const rec = this.#monitors.get(key);
    if (!rec) return;
    this.#monitors.delete(key);
    const idx = this.orderIndexAfter(rec.seq - 1);
    if (this.#monitorOrder[idx] === rec) this.#monitorOrder.splice(idx, 1);
    this.#indexVaultRefs(key, vaultReferences(rec.fields), new Set());
    this.#categoryCounts[monitorCategory(rec.fields['MonitorType'])] -= 1;
    this.monitorGroups.updateEach((g) => g.members.delete(key));
    this.monitorViewPermissions.updateEach((set) => set.delete(key));
    this.#maintenancePeriods.delete(key);
    this.#changed();
  }

  addMaintenancePeriod(monitorGuid: string, period: Obj): void {
    const key = monitorGuid.toLowerCase();
    const list = this.#maintenancePeriods.get(key);
    if (list) list.push(period);
    else this.#maintenancePeriods.set(key, [period]);
    this.#changed();
  }

  /** Index of the first monitor in `monitorOrder` whose seq is greater than `seq`. */
  orderIndexAfter(seq: number): number {
    let lo = 0;
    let hi = this.#monitorOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#monitorOrder[mid]?.seq ?? 0) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #indexVaultRefs(monitorGuid: string, before: Set<string>, after: Set<string>): void {
    for (const item of before) {
      if (after.has(item)) continue;
      const set = this.#vaultRefs.get(item);
      set?.delete(monitorGuid);
      if (set && set.size === 0) this.#vaultRefs.delete(item);
    }
    for (const item of after) {
      let set = this.#vaultRefs.get(item);
      if (!set) this.#vaultRefs.set(item, (set = new Set()));
      set.add(monitorGuid);
    }
  }

  isMonitorMember(group: MonitorGroupRec, monitorGuid: string): boolean {
    return group.fields['IsAll'] === true ? this.#monitors.has(monitorGuid) : group.members.has(monitorGuid);
  }

  /**
   * Members of a group in listing order (the All Monitors group: every monitor). Work is proportional to the
   * group's size, not the account's: a read of every group's members must not cost groups x monitors.
   */
  groupMonitors(group: MonitorGroupRec): readonly MonitorRec[] {
    if (group.fields['IsAll'] === true) return this.#monitorOrder;
    const out: MonitorRec[] = [];
    let sorted = true;
    for (const guid of group.members) {
      // A loaded state may name monitors that do not exist; they are not members of anything.
      const rec = this.#monitors.get(guid);
      if (!rec) continue;
      const last = out[out.length - 1];
      if (last && last.seq > rec.seq) sorted = false;
      out.push(rec);
    }
    // Set order is the order members were added; listings are in creation order, as for the All Monitors group.
    if (!sorted) out.sort((a, b) => a.seq - b.seq);
    return out;
  }

  // ---- serialisation --------------------------------------------------------------------

  /** UTF-8 JSON of each monitor record as last saved, valid while `fields` is the same object. */
  private readonly monitorJson = new WeakMap<MonitorRec, { fields: Obj; bytes: Buffer }>();

  /**
   * The account as UTF-8 JSON, the same text as `JSON.stringify(this.snapshot())`. A save after every write
   * would otherwise re-serialise (and re-encode) every monitor each time; unchanged monitors reuse their bytes
   * from the last save, and the file is assembled with one copy.
   */
  serialize(): Buffer {
    const chunks: Buffer[] = [];
    let first = true;
    for (const [name, value] of Object.entries(this.snapshot())) {
      if (value === undefined) continue;
      chunks.push(Buffer.from(`${first ? '{' : ','}${JSON.stringify(name)}:`));
      first = false;
      if (name !== 'monitors') {
        chunks.push(Buffer.from(JSON.stringify(value)));
        continue;
      }
      chunks.push(OPEN_BRACKET);
      this.#monitorOrder.forEach((rec, i) => {
        let cached = this.monitorJson.get(rec);
        if (cached?.fields !== rec.fields) this.monitorJson.set(rec, (cached = { fields: rec.fields, bytes: Buffer.from(JSON.stringify(rec)) }));
        if (i > 0) chunks.push(COMMA);
        chunks.push(cached.bytes);
      });
      chunks.push(CLOSE_BRACKET);
    }
    chunks.push(CLOSE_BRACE);
    return Buffer.concat(chunks);
  }

  /** A deep copy of the account (safe to hand out). */
  toJSON(): EmulatorState {
    return clone(this.snapshot());
  }

  /** The account as a JSON-ready object sharing the live records: serialise it at once, never keep it. */
  snapshot(): EmulatorState {
    return {
      format: STATE_FORMAT,
      version: 1,
      accountId: this.#accountId,
      escalationLevelCount: this.#escalationLevelCount,
      cursorSecret: this.#cursorSecret,
      counters: this.#counters,
      operators: [...this.operators.values()],
      apiAccounts: [...this.apiAccounts.values()],
      operatorGroups: [...this.operatorGroups.values()].map((g) => ({
        fields: g.fields,
        members: [...g.members],
        authorizations: [...g.authorizations.values()],
      })),
      dutySchedules: [...this.dutySchedules.values()],
      monitors: this.#monitorOrder,
      monitorViewPermissions: Object.fromEntries([...this.monitorViewPermissions].map(([k, v]) => [k, [...v]])),
      operatorAuthorizations: Object.fromEntries([...this.operatorAuthorizations].map(([k, v]) => [k, [...v]])),
      maintenancePeriods: [...this.#maintenancePeriods].flatMap(([MonitorGuid, periods]) => periods.map((period) => ({ MonitorGuid, period }))),
      monitorGroups: [...this.monitorGroups.values()].map((g) => ({ fields: g.fields, members: [...g.members] })),
      vaultSections: [...this.vaultSections.values()],
      vaultAuthorizations: [...this.vaultAuthorizations.values()],
      vaultItems: [...this.vaultItems.values()],
      slas: [...this.slas.values()].map((s) => ({ fields: s.fields, exclusionPeriods: [...s.periods.values()] })),
      scheduledReports: [...this.scheduledReports.values()],
      alertDefinitions: [...this.alertDefinitions.values()],
      integrations: [...this.integrations.values()],
      rumWebsites: [...this.rumWebsites.values()],
      timezones: this.#timezones,
      checkpoints: this.#checkpoints,
    };
  }

  /** `owned`: the input was parsed for this call alone, so the store may keep its objects without a copy. */
  static fromJSON(input: unknown, origin = 'state', owned = false): Store {
    if (!isObj(input) || input['format'] !== STATE_FORMAT || input['version'] !== 1) {
      throw new EmulatorConfigError(
        `${origin}: not a monsync emulator state (expected "format": "${STATE_FORMAT}" and "version": 1); dump one with GET /__emulator/state.`,
      );
    }
    const s = (owned ? input : clone(input)) as unknown as EmulatorState;
    const arrays = ['operators', 'apiAccounts', 'operatorGroups', 'dutySchedules', 'monitors', 'maintenancePeriods', 'monitorGroups', 'vaultSections', 'vaultAuthorizations', 'vaultItems', 'slas', 'scheduledReports', 'alertDefinitions', 'integrations', 'timezones', 'checkpoints'] as const;
    for (const key of arrays) {
      if (!Array.isArray(s[key])) throw new EmulatorConfigError(`${origin}: "${key}" must be an array.`);
    }
    const store = new Store();
    store.#load(s);
    store.#dirty = false;
    return store;
  }

  #load(s: EmulatorState): void {
    const key = (v: unknown): string => String(v).toLowerCase();
    this.#accountId = String(s.accountId);
    this.#escalationLevelCount = s.escalationLevelCount === 4 ? 4 : 3;
    this.#cursorSecret = typeof s.cursorSecret === 'string' && s.cursorSecret ? s.cursorSecret : Store.newCursorSecret();
    this.#counters = Object.assign({ monitorSeq: 0, dutyScheduleId: 0, exclusionPeriodId: 0 }, s.counters);
    for (const op of s.operators) this.operators.put(key(op['OperatorGuid']), op);
    for (const a of s.apiAccounts) this.apiAccounts.put(a.UserName, a);
    for (const g of s.operatorGroups) {
      this.operatorGroups.put(key(g.fields['OperatorGroupGuid']), {
        fields: g.fields,
        members: new Set(g.members.map(key)),
        authorizations: new Map(g.authorizations.map((a) => [key(a.AuthorizationId), a])),
      });
    }
    for (const d of s.dutySchedules) this.dutySchedules.put(Number(d.fields['Id']), d);
    for (const m of [...s.monitors].sort((a, b) => a.seq - b.seq)) {
      this.#addMonitor(m);
      this.#counters.monitorSeq = Math.max(this.#counters.monitorSeq, m.seq);
    }
    for (const [op, list] of Object.entries(s.monitorViewPermissions ?? {})) {
      this.monitorViewPermissions.put(key(op), new Set(list.map(key)));
    }
    for (const [op, list] of Object.entries(s.operatorAuthorizations ?? {})) this.operatorAuthorizations.put(key(op), new Set(list));
    for (const p of s.maintenancePeriods) this.addMaintenancePeriod(String(p.MonitorGuid), p.period);
    for (const g of s.monitorGroups) {
      this.monitorGroups.put(key(g.fields['MonitorGroupGuid']), { fields: g.fields, members: new Set(g.members.map(key)) });
    }
    for (const v of s.vaultSections) this.vaultSections.put(key(v['VaultSectionGuid']), v);
    for (const v of s.vaultAuthorizations) this.vaultAuthorizations.put(key(v['AuthorizationId']), v);
    for (const v of s.vaultItems) this.vaultItems.put(key(v['VaultItemGuid']), v);
    for (const sla of s.slas) {
      this.slas.put(key(sla.fields['SlaGuid']), {
        fields: sla.fields,
        periods: new Map(sla.exclusionPeriods.map((p) => [Number(p['ExclusionPeriodId']), p])),
      });
    }
    for (const r of s.scheduledReports) this.scheduledReports.put(key(r['ScheduledReportGuid']), r);
    for (const a of s.alertDefinitions) this.alertDefinitions.put(key(a.fields['AlertDefinitionGuid']), a);
    for (const i of s.integrations) this.integrations.put(key(i['IntegrationGuid']), i);
    for (const w of s.rumWebsites ?? []) this.rumWebsites.put(key(w['RumWebsiteId']), w);
    this.#timezones = s.timezones;
    this.#checkpoints = s.checkpoints;
  }
}
