/**
 * The solver's input and its graph: agents with room and lead classes, as compressed sparse rows
 * of the bipartite graph between classes and the agents they fit (docs/decisions/008).
 */

export interface SolverAgent {
  /** Agent user id. */
  id: number;
  /** q: the package's leadsPerDay (> 0). */
  quota: number;
  /** a: leads the agent already has today from any trigger (may be >= quota). */
  assignedToday: number;
  /** the agent's agency (docs/domain.md, Agencies); null or absent: none */
  agencyId?: number | null;
  /**
   * leads the agency may still take today under its daily cap (the same for every member);
   * null or absent: no cap
   */
  agencyRoom?: number | null;
  /**
   * leads the agent may still take under its own weekly and monthly caps (docs/domain.md,
   * Schedule and caps): bounds its room below quota - assignedToday; null or absent: no such cap
   */
  periodRoom?: number | null;
}

export interface SolverLead {
  id: number;
  /** Creation time (epoch ms); ties are broken by id, the higher id counting as newer. */
  createdAt: number;
}

/**
 * Leads start..end-1 of two shared columns: a million-lead pool as a few typed arrays rather than
 * a million objects (whose allocation and garbage collection cost more than the solving).
 */
export interface LeadSpan {
  id: Float64Array;
  createdAt: Float64Array;
  start: number;
  end: number;
}

export function leadCount(leads: SolverLead[] | LeadSpan): number {
  return Array.isArray(leads) ? leads.length : leads.end - leads.start;
}

/** The leads as objects (tests and small inputs). */
export function leadList(leads: SolverLead[] | LeadSpan): SolverLead[] {
  if (Array.isArray(leads)) return leads;
  const out: SolverLead[] = [];
  for (let p = leads.start; p < leads.end; p++) {
    out.push({ id: leads.id[p], createdAt: leads.createdAt[p] });
  }
  return out;
}

export interface LeadClass {
  /** Leads no preference can tell apart, newest first (createdAt desc, then id desc). */
  leads: SolverLead[] | LeadSpan;
  /** Ids of the agents this class fits. */
  fits: number[];
}

/** True when lead a is newer than lead b: later createdAt, or the same and a higher id. */
export function isNewer(a: SolverLead, b: SolverLead): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/**
 * The bipartite graph between classes and agents with room, in compressed sparse rows.
 * Only agents under quota and classes with leads and at least one such agent take part.
 */
export interface Graph {
  n: number; // agents
  k: number; // classes
  m: number; // edges
  agentId: number[];
  quota: number[];
  base: number[]; // assignedToday
  room: Int32Array; // min(quota - assignedToday, periodRoom) (> 0)
  /** Edge e joins class eClass[e] and agent eAgent[e]; class c owns edges cStart[c]..cStart[c+1]. */
  cStart: Int32Array;
  eAgent: Int32Array;
  eClass: Int32Array;
  /** Agent a's edges are aEdge[aStart[a]..aStart[a+1]] (edge ids, by class). */
  aStart: Int32Array;
  aEdge: Int32Array;
  /** aClass[i] = eClass[aEdge[i]]: the classes of agent a's edges, in the same order. */
  aClass: Int32Array;
  /** identity[e] = e: class c's edge ids, in the same shape as aEdge. */
  identity: Int32Array;
  /** Class c's leads, newest first, are positions lStart[c]..lStart[c+1] of leadAt / leadId. */
  lStart: Int32Array;
  leadAt: Float64Array;
  leadId: Float64Array;
  /** agents' capped agencies: agency[a] a dense index (-1: none or no cap), room[j] left today */
  caps: { agency: Int32Array; room: Int32Array };
}

export function buildGraph(agents: SolverAgent[], classes: LeadClass[]): Graph {
  const lookup = new AgentLookup(agents);
  const agentId: number[] = [];
  const quota: number[] = [];
  const base: number[] = [];
  const roomList: number[] = [];
  for (const agent of agents) {
    if (lookup.get(agent.id) !== -1) throw new RangeError(`duplicate agent id ${agent.id}`);
    const room = Math.min(
      agent.quota - Math.max(0, agent.assignedToday),
      agent.periodRoom ?? Number.POSITIVE_INFINITY,
    );
    if (!(agent.quota > 0 && room > 0)) {
      lookup.set(agent.id, -2); // at or above quota (or no quota): takes and holds nothing
      continue;
    }
    lookup.set(agent.id, agentId.length);
    agentId.push(agent.id);
    quota.push(agent.quota);
    base.push(Math.max(0, agent.assignedToday));
    roomList.push(room);
  }
  const n = agentId.length;
  const agencyIndex = new Map<number, number>();
  const capRoom: number[] = [];
  const agency = new Int32Array(n).fill(-1);
  for (const agent of agents) {
    const a = lookup.get(agent.id);
    if (a < 0 || agent.agencyId == null || agent.agencyRoom == null) continue;
    let j = agencyIndex.get(agent.agencyId);
    if (j === undefined) {
      j = capRoom.length;
      agencyIndex.set(agent.agencyId, j);
      capRoom.push(Math.max(0, agent.agencyRoom));
    }
    agency[a] = j;
  }

  let maxEdges = 0;
  let maxLeads = 0;
  for (const cls of classes) {
    const count = leadCount(cls.leads);
    if (count === 0) continue;
    maxEdges += cls.fits.length;
    maxLeads += count;
  }
  const eAgent = new Int32Array(maxEdges);
  const leadAt = new Float64Array(maxLeads);
  const leadId = new Float64Array(maxLeads);
  const cStartList: number[] = [0];
  const lStartList: number[] = [0];
  const stampA = new Int32Array(n).fill(-1);
  let m = 0;
  let l = 0;
  for (let i = 0; i < classes.length; i++) {
    const { leads, fits } = classes[i];
    if (leadCount(leads) === 0) continue;
    const first = m;
    for (let j = 0; j < fits.length; j++) {
      const a = lookup.get(fits[j]);
      if (a < 0 || stampA[a] === i) continue;
      stampA[a] = i;
      eAgent[m++] = a;
    }
    if (m === first) continue;
    const from = l;
    if (Array.isArray(leads)) {
      for (const lead of leads) {
        leadAt[l] = lead.createdAt;
        leadId[l++] = lead.id;
      }
    } else {
      leadAt.set(leads.createdAt.subarray(leads.start, leads.end), l);
      leadId.set(leads.id.subarray(leads.start, leads.end), l);
      l += leads.end - leads.start;
    }
    sortNewestFirst(leadAt, leadId, from, l);
    cStartList.push(m);
    lStartList.push(l);
  }
  const k = cStartList.length - 1;
  const cStart = Int32Array.from(cStartList);
  const eClass = new Int32Array(m);
  for (let c = 0; c < k; c++) eClass.fill(c, cStart[c], cStart[c + 1]);
  const aStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) aStart[eAgent[e] + 1]++;
  for (let a = 0; a < n; a++) aStart[a + 1] += aStart[a];
  // The transpose: class-major order is kept, so each agent's edges come out sorted by class.
  const aEdge = new Int32Array(m);
  const aClass = new Int32Array(m);
  const fill = aStart.slice(0, n);
  for (let c = 0; c < k; c++) {
    for (let e = cStart[c]; e < cStart[c + 1]; e++) {
      const i = fill[eAgent[e]]++;
      aEdge[i] = e;
      aClass[i] = c;
    }
  }
  const identity = new Int32Array(m);
  for (let e = 0; e < m; e++) identity[e] = e;

  return {
    n,
    k,
    m,
    agentId,
    quota,
    base,
    room: Int32Array.from(roomList),
    cStart,
    eAgent: eAgent.subarray(0, m),
    eClass,
    aStart,
    aEdge,
    aClass,
    identity,
    lStart: Int32Array.from(lStartList),
    leadAt: leadAt.subarray(0, l),
    leadId: leadId.subarray(0, l),
    caps: { agency, room: Int32Array.from(capRoom) },
  };
}

/**
 * Sorts leads from..to-1 of the columns newest first (createdAt desc, then id desc), in place.
 * Leads that come as runs already in order (the database's groups) are merged, not re-sorted:
 * the index sort is a TimSort.
 */
export function sortNewestFirst(at: Float64Array, id: Float64Array, from: number, to: number) {
  let sorted = true;
  for (let p = from + 1; p < to && sorted; p++) {
    sorted = at[p - 1] > at[p] || (at[p - 1] === at[p] && id[p - 1] > id[p]);
  }
  if (sorted) return;
  const order: number[] = [];
  for (let p = from; p < to; p++) order.push(p);
  order.sort((x, y) => at[y] - at[x] || id[y] - id[x]);
  const at2 = at.slice(from, to);
  const id2 = id.slice(from, to);
  for (let j = 0; j < order.length; j++) {
    at[from + j] = at2[order[j] - from];
    id[from + j] = id2[order[j] - from];
  }
}

/**
 * Agent id -> dense index (-1 unknown, -2 known but at quota). A flat array when the ids are
 * small non-negative integers (user ids from a sequence), which is much faster than a Map for
 * the millions of look-ups over `fits`; a Map otherwise.
 */
class AgentLookup {
  private readonly flat: Int32Array | null;
  private readonly map = new Map<number, number>();
  constructor(agents: SolverAgent[]) {
    let max = -1;
    let small = true;
    for (const { id } of agents) {
      if (!Number.isInteger(id) || id < 0) small = false;
      else if (id > max) max = id;
    }
    const flatOk = small && max < 4 * agents.length + 1_000_000;
    this.flat = flatOk ? new Int32Array(max + 1).fill(-1) : null;
  }
  get(id: number): number {
    if (this.flat === null) return this.map.get(id) ?? -1;
    const index = this.flat[id]; // undefined for anything but an integer in range
    return index === undefined ? -1 : index;
  }
  set(id: number, index: number): void {
    if (this.flat === null) this.map.set(id, index);
    else this.flat[id] = index;
  }
}
