/**
 * Each process's copy of the agents' fit columns (decision 043), for the intake's pick: the agents
 * with an ACTIVE subscription as the fit rule reads them, grouped by their package's category,
 * with the version of that data they were read at. The agent and lead conditions are asked here,
 * in memory, with the fit rule's own TypeScript definition (fit-rule.service.ts), and only the
 * fitting agents go to the database, with the copy's version: the pick's statement counts their
 * capacity only when the version it sees (ROSTER_VERSION_SQL) is the copy's. When the version
 * moved (an agent paused, a preference saved, a subscription started...) the statement says so,
 * the caller asks the database for the whole rule this time, and the copy is read again in the
 * background: a change is never missed, even by the next request of the one who made it.
 */
import type { Db } from '../../db/client';
import { foldRosterChanges, readActiveAgents, readRosterVersion } from './fit-roster.repository';

export { ROSTER_VERSION_SQL } from './fit-roster.repository';

import {
  type FitAgent,
  type FitContext,
  type FitLead,
  firstAgentMisfit,
  firstLeadMisfit,
  type LeadReadyAgent,
  leadReady,
} from './fit-rule.service';

export { readActiveAgents } from './fit-roster.repository';

/** An agent the lead fits (every agent and lead condition), as capacity is counted for it. */
export interface RosterCandidate {
  id: number;
  quota: number;
  /** the agent has a weekly or monthly cap, or pays per lead: its capacity is counted further */
  capped: boolean;
  agencyId: number | null;
  agencyCap: number | null;
}

/** The copy's answer for one lead, and the version of the data it was read from. */
export interface RosterAnswer {
  version: number;
  candidates: RosterCandidate[];
}

export interface FitRoster {
  /**
   * The agents the lead fits at `ctx.now`, capacity aside, out of `exclude`, as the copy holds
   * them; null before the copy was first read (the caller asks the database instead). The
   * caller's statement compares `version` with ROSTER_VERSION_SQL and calls stale() when they
   * differ.
   */
  candidates(lead: FitLead, ctx: FitContext, exclude: readonly number[]): RosterAnswer | null;
  /** A statement saw another version than the copy's: the copy is read again in the background. */
  stale(): void;
  /** Reads the copy now (a test, or a process that wants it before its first lead). */
  refresh(): Promise<void>;
}

/** Change rows kept before they are folded into one. */
const FOLD_ABOVE = 100;

/** An agent of the copy: ready for the lead conditions, with whether its capacity is counted. */
interface RosterAgent extends LeadReadyAgent {
  capped: boolean;
}

/** A category's agents: those open to every state, and the others under each state they take. */
interface CategoryAgents {
  anyState: RosterAgent[];
  byState: Map<string, RosterAgent[]>;
}

/**
 * A copy of data the fit rule reads of the agents, with the version (decision 043) it was read
 * at. Either the caller's own statement compares the version (`held`, then `stale` when it
 * differed), or `current` reads the version `db` sees (one small statement) and answers the copy
 * only when it is that data. A stale copy is read again in the background (one read at a time).
 */
export interface VersionedCopy<T> {
  /** The copy and its version as held now; null before the first read (which starts). */
  held(): { version: number; data: T } | null;
  /** The copy when it is the data `db` sees, else null. */
  current(db: Db): Promise<T | null>;
  /** The copy when it is the data at `version` (ROSTER_VERSION_SQL, read by the caller), else null. */
  at(version: number): T | null;
  /** A statement saw another version than the copy's. */
  stale(): void;
  /** Reads the copy now (a test, or a process that wants it before its first use). */
  refresh(): Promise<void>;
}

export function versionedCopy<T>(
  db: Db,
  read: (tx: Db) => Promise<T>,
  opts: {
    /** fold the change rows (a write): false over a read-only replica */
    fold: boolean;
    onError: (err: unknown) => void;
  },
): VersionedCopy<T> {
  let copy: { version: number; data: T } | null = null;
  let loading: Promise<void> | null = null;

  const load = async () => {
    if (opts.fold) await foldRosterChanges(db, FOLD_ABOVE);
    // the data and the version from one snapshot
    copy = await db.transaction(
      async (tx) => {
        const version = await readRosterVersion(tx);
        return { version, data: await read(tx) };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  };

  const reload = () => {
    if (!loading) {
      loading = load()
        .catch(opts.onError)
        .finally(() => {
          loading = null;
        });
    }
    return loading;
  };

  const at = (version: number): T | null => {
    const seen = copy;
    if (seen === null || seen.version !== version) {
      void reload();
      return null;
    }
    return seen.data;
  };

  return {
    held() {
      if (copy === null) void reload();
      return copy;
    },
    async current(tx) {
      return at(await readRosterVersion(tx));
    },
    at,
    stale() {
      void reload();
    },
    // a load already under way may have read before the caller's change: one more after it
    async refresh() {
      await loading;
      await reload();
    },
  };
}

export function createFitRoster(
  db: Db,
  onError: (err: unknown) => void = () => undefined,
): FitRoster {
  const copy = versionedCopy(db, async (tx) => byCategory(await readActiveAgents(tx)), {
    fold: true,
    onError,
  });

  return {
    candidates(lead, ctx, exclude) {
      const held = copy.held();
      if (held === null) return null;
      const out: RosterCandidate[] = [];
      const answer = { version: held.version, candidates: out };
      const agents = held.data.get(lead.category);
      if (!agents) return answer;
      // only agents whose state preference can take the lead's state are asked; the whole rule
      // is asked of each of them
      for (const list of [agents.anyState, agents.byState.get(lead.state) ?? []]) {
        for (const agent of list) {
          if (agent.quota <= 0 || firstLeadMisfit(agent, lead) !== null) continue;
          if (firstAgentMisfit(agent, ctx) !== null || exclude.includes(agent.id)) continue;
          out.push({
            id: agent.id,
            quota: agent.quota,
            capped: agent.capped,
            agencyId: agent.agencyId,
            agencyCap: agent.agencyCap,
          });
        }
      }
      return answer;
    },
    stale: copy.stale,
    refresh: copy.refresh,
  };
}

/**
 * The agents by their package's category, and within it by the states their preferences take
 * (an empty list takes every state: the fit rule's STATE condition), each made ready for many
 * leads once (cities normalized). Capacity is not read here, and the time-bound agent conditions
 * (a pause, a schedule, an enrollment window) are asked at each lead's own moment.
 */
function byCategory(agents: FitAgent[]): Map<string, CategoryAgents> {
  const out = new Map<string, CategoryAgents>();
  for (const agent of agents) {
    if (agent.category === null) continue;
    let category = out.get(agent.category);
    if (!category) {
      category = { anyState: [], byState: new Map() };
      out.set(agent.category, category);
    }
    const profile: RosterAgent = {
      ...leadReady(agent),
      capped: agent.weeklyCap !== null || agent.monthlyCap !== null || agent.perLead !== null,
    };
    if (agent.states.length === 0) category.anyState.push(profile);
    for (const state of new Set(agent.states)) {
      const list = category.byState.get(state) ?? [];
      list.push(profile);
      category.byState.set(state, list);
    }
  }
  return out;
}
