/**
 * Alert definitions `pull --into` and `import` write whole: an entry of the older form (`{ AlertDefinitionGuid,
 * IsActive }`, no name) rewritten into the named form, or a live definition added to the tree. A plan of the tree
 * reads the definitions and their levels, but not whom the levels reach nor what the definitions cover where nothing
 * declares them: `readAlertDefinitionChildren` reads those listings for the definitions written only, so writing one
 * costs one request for it and two per level (and `GET /Integration` and the listings that name members, when the plan
 * did not read them), never a listing of every definition. The older entries are rewritten here too.
 */
import {
  ALERT_DEFINITION_KIND,
  ALERT_DEFINITION_MEMBER_KIND,
  ESCALATION_LEVEL_INTEGRATION_KIND,
  ESCALATION_LEVEL_KIND,
  ESCALATION_LEVEL_MEMBER_KIND,
} from '@monsync/schema';
import type { DesiredState } from '../desired.js';
import { kindModule } from '../kinds/index.js';
import { idOf } from '../kinds/shared.js';
import { all } from '../live/read-live.js';
import { listed, listedPerParent } from '../live/snapshot.js';
import type { ApiObject, LiveClient, LiveSnapshot } from '../live/types.js';
import type { StepKind } from '../plan/types.js';
import { isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { nodeAt } from './declarations.js';
import type { EditableFile, EditableMap, EditableSeq } from './yaml-edits.js';

/** The kinds whose listings are per definition or per level and that a plan reads only where a tree declares them. */
const CHILDREN: readonly StepKind[] = [ALERT_DEFINITION_MEMBER_KIND.kind, ESCALATION_LEVEL_MEMBER_KIND.kind, ESCALATION_LEVEL_INTEGRATION_KIND.kind];

/** The GUIDs (lower case) of the alert definitions a tree declares in the older form: by GUID, without a name. */
export function olderAlertDefinitions(desired: Pick<DesiredState, 'alertDefinitions'>): Set<string> {
  const out = new Set<string>();
  for (const { value } of desired.alertDefinitions) {
    if (value.AlertName === undefined && typeof value.AlertDefinitionGuid === 'string') out.add(value.AlertDefinitionGuid.toLowerCase());
  }
  return out;
}

/**
 * The snapshot with the members of the given definitions (GUIDs in lower case), and the members and integrations of
 * their levels, read where the plan's read left them out (see the module comment). The kinds it completes are then
 * read for every definition that declares them: a plan reads a kind for all definitions once one declares it.
 */
export async function readAlertDefinitionChildren(client: LiveClient, live: LiveSnapshot, guids: ReadonlySet<string>): Promise<LiveSnapshot> {
  const definitions = listed(live, ALERT_DEFINITION_KIND.kind).filter((d) => guids.has(idOf(d, 'AlertDefinitionGuid').toLowerCase()));
  if (definitions.length === 0) return live;
  const levels = listedPerParent(live, ESCALATION_LEVEL_KIND.kind);
  const parents = (kind: StepKind): { parent: ApiObject; id: string }[] => {
    if (kindModule(kind).read?.perParent?.parent === ALERT_DEFINITION_KIND.kind) return definitions.map((d) => ({ parent: d, id: idOf(d, 'AlertDefinitionGuid') }));
    return definitions.flatMap((d) => (levels[idOf(d, 'AlertDefinitionGuid')] ?? []).map((level) => ({ parent: level, id: `${idOf(d, 'AlertDefinitionGuid')}/${idOf(level, 'Id')}` })));
  };
  const perParent = { ...live.perParent };
  const read = new Set(live.read);
  const reads: Promise<unknown>[] = [];
  for (const kind of CHILDREN) {
    const spec = kindModule(kind).read?.perParent;
    if (spec === undefined) continue;
    const lists: Record<string, ApiObject[]> = { ...(perParent[kind] ?? {}) };
    perParent[kind] = lists;
    read.add(kind);
    for (const { parent, id } of parents(kind)) {
      if (lists[id] !== undefined) continue;
      reads.push(all(spec.what(parent, id), () => spec.list(client, id)).then((children) => (lists[id] = spec.keep === undefined ? children : children.map(spec.keep))));
    }
  }
  let integrations = live.integrations;
  const named = client.integrations;
  if (integrations === undefined && named !== undefined) reads.push(all('integrations', () => named.list()).then((listedIntegrations) => (integrations = listedIntegrations)));
  // The listings that name members (monitors, groups, operators, operator groups): a tree declares members by name,
  // and a plan of the edited tree reads them for every definition that declares members.
  const lists = { ...live.lists };
  for (const kind of new Set(CHILDREN.flatMap((child) => kindModule(child).builtFrom))) {
    const mod = kindModule(kind);
    const list = mod.read?.list;
    if (read.has(kind) || list === undefined) continue;
    read.add(kind);
    const own = mod.read?.own;
    reads.push(all(mod.title.many, () => list(client)).then((items) => (lists[kind] = own === undefined ? items : items.filter((item) => !own(item)))));
  }
  await Promise.all(reads);
  const snapshot: LiveSnapshot = { ...live, lists, perParent, read: [...read] };
  if (integrations !== undefined) snapshot.integrations = integrations;
  return snapshot;
}

/** An older entry of a file: a mapping in the `alertDefinitions` list with a GUID and no name. */
interface OlderEntry {
  file: EditableFile;
  seq: EditableSeq;
  node: EditableMap;
  guidPair: Pair;
  guid: string;
  parents: Node[];
}

function pairNamed(map: EditableMap, key: string): Pair | undefined {
  return map.items.find((item) => isScalar(item.key) && item.key.value === key) as Pair | undefined;
}

function olderEntries(files: readonly EditableFile[]): OlderEntry[] {
  const out: OlderEntry[] = [];
  for (const file of files) {
    for (const document of file.documents) {
      const found = nodeAt(document.contents as Node | null, ALERT_DEFINITION_KIND.path);
      if (found === undefined || !isSeq(found.node)) continue;
      const seq = found.node as EditableSeq;
      for (const item of seq.items) {
        if (!isMap(item) || pairNamed(item as EditableMap, 'AlertName') !== undefined) continue;
        const guidPair = pairNamed(item as EditableMap, 'AlertDefinitionGuid');
        if (guidPair === undefined || !isScalar(guidPair.value) || typeof guidPair.value.value !== 'string') continue;
        out.push({ file, seq, node: item as EditableMap, guidPair, guid: guidPair.value.value, parents: [...found.parents, seq] });
      }
    }
  }
  return out;
}

/**
 * Rewrites each older entry (`{ AlertDefinitionGuid, IsActive }`) into the named form of its live definition: in a
 * block mapping the GUID's line becomes the name's and the definition's members and levels are added below (every
 * other line and comment stays); a flow mapping is written again in block style, its comments around it kept.
 * Returns the GUIDs (lower case) rewritten with the names written: the plan's steps for them are answered by the rewrite.
 */
export function rewriteOlderAlertDefinitions(files: readonly EditableFile[], byGuid: ReadonlyMap<string, Record<string, unknown>>, edits: string[], notes: string[]): Map<string, string> {
  const done = new Map<string, string>();
  for (const entry of olderEntries(files)) {
    const named = byGuid.get(entry.guid.toLowerCase());
    const label = `alert definition ${JSON.stringify(entry.guid)}`;
    if (named === undefined || typeof named['AlertName'] !== 'string') {
      notes.push(`${label} (older form, by GUID) is not one the account lets a tree name (gone, or its name is shared); left as it is`);
      continue;
    }
    const { file, node } = entry;
    if (node.flow === true || entry.seq.flow === true) {
      const kept = Object.fromEntries(Object.entries(node.toJSON() as Record<string, unknown>).filter(([key]) => !(key in named) && key !== 'AlertDefinitionGuid'));
      file.replaceItem(entry.seq, node, { ...named, ...kept }, entry.parents);
    } else {
      file.replacePair(entry.guidPair, 'AlertName', named['AlertName']);
      for (const [key, value] of Object.entries(named)) {
        if (key === 'AlertName') continue;
        const pair = pairNamed(node, key);
        if (pair === undefined) file.appendPair(node, key, value, entry.parents);
        else if (key === 'IsActive' && isScalar(pair.value) && pair.value.value !== value) file.replace(pair.value, value, [...entry.parents, node]);
      }
    }
    edits.push(`~ ${label}: written by name as ${JSON.stringify(named['AlertName'])} with its members and escalation levels (${file.path})`);
    done.set(entry.guid.toLowerCase(), named['AlertName']);
  }
  return done;
}
