/**
 * The agents-and-leads pool of the assignment and intake benches: deterministic (seeded PRNG),
 * uneven state populations shared by leads and agents (contention where people live), agents
 * with random preferences and quotas, leads arriving over two weeks; loaded by COPY.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { LEAD_CATEGORIES, type LeadCategory, STATE_CODES } from '../../src/shared/domain';
import { mulberry32 } from './leads-data';

export const POOL_SEED = 20260615;

// ---------------------------------------------------------------------------------------------
// Deterministic data
// ---------------------------------------------------------------------------------------------

export interface Agent {
  id: number;
  category: LeadCategory;
  quota: number;
  states: string[];
  cities: string[]; // as typed
  ageMin: number | null;
  ageMax: number | null;
  categories: LeadCategory[];
}

export interface Pool {
  agents: Agent[];
  /** leads, column-wise; lead i has id i + 1 */
  category: Uint8Array;
  state: Uint8Array;
  city: Uint8Array; // index into the state's cities
  cityVariant: Uint8Array; // 0 as is, 1 upper case, 2 padded with spaces
  age: Uint8Array;
  createdUs: Float64Array; // epoch microseconds
}

export const CITIES_PER_STATE = 20;
/** Share of agents with no state preference (licensed nationwide, or preferences never set). */
export const NATIONWIDE = Number(process.env.BENCH_NATIONWIDE ?? 0.03);
export const cityName = (state: number, k: number) => `${STATE_CODES[state]} City ${k + 1}`;
export const normalize = (city: string) => city.trim().replace(/\s+/g, ' ').toLowerCase();

export function generate(leadCount: number, agentCount: number): Pool {
  const rand = mulberry32(POOL_SEED ^ leadCount ^ agentCount);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  // Uneven state populations, the same for leads and agents: contention where people live.
  const weights = STATE_CODES.map(() => 0.2 + rand() ** 3 * 5);
  const cumulative: number[] = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
  const total = cumulative[cumulative.length - 1];
  const pickState = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const pickCategory = (): number => {
    const x = rand();
    return x < 0.45 ? 0 : x < 0.8 ? 1 : 2;
  };

  const agents: Agent[] = [];
  for (let i = 0; i < agentCount; i++) {
    const category = LEAD_CATEGORIES[pickCategory()];
    const states = new Set<number>();
    if (rand() >= NATIONWIDE) for (let k = int(1, 3); k > 0; k--) states.add(pickState());
    const stateList = [...states];
    const cities: string[] = [];
    if (stateList.length > 0 && rand() < 0.2) {
      for (let k = int(1, 3); k > 0; k--) {
        const name = cityName(stateList[0], int(0, CITIES_PER_STATE - 1));
        cities.push(rand() < 0.5 ? name.toUpperCase() : `  ${name.replace(' ', '   ')} `);
      }
    }
    const ageMin = rand() < 0.3 ? 18 + 5 * int(0, 10) : null;
    let ageMax = rand() < 0.3 ? 45 + 5 * int(0, 10) : null;
    if (ageMin !== null && ageMax !== null && ageMax < ageMin) ageMax = ageMin + 10;
    const x = rand();
    const categories: LeadCategory[] =
      x < 0.04
        ? [category, LEAD_CATEGORIES[(LEAD_CATEGORIES.indexOf(category) + 1) % 3]]
        : x < 0.05
          ? [LEAD_CATEGORIES[(LEAD_CATEGORIES.indexOf(category) + 1) % 3]]
          : [];
    agents.push({
      id: i + 1,
      category,
      quota: int(5, 50),
      states: stateList.map((s) => STATE_CODES[s]),
      cities,
      ageMin,
      ageMax,
      categories,
    });
  }

  const pool: Pool = {
    agents,
    category: new Uint8Array(leadCount),
    state: new Uint8Array(leadCount),
    city: new Uint8Array(leadCount),
    cityVariant: new Uint8Array(leadCount),
    age: new Uint8Array(leadCount),
    createdUs: new Float64Array(leadCount),
  };
  const span = 14 * 86_400_000_000; // microseconds
  const start = Date.UTC(2026, 5, 15, 12) * 1000 - span;
  const step = span / leadCount;
  for (let i = 0; i < leadCount; i++) {
    const c = pickCategory();
    pool.category[i] = c;
    pool.state[i] = pickState();
    pool.city[i] = Math.floor(rand() ** 2 * CITIES_PER_STATE); // a few big cities per state
    pool.cityVariant[i] = rand() < 0.9 ? 0 : int(1, 2);
    pool.age[i] =
      c === 0 ? (rand() < 0.9 ? int(65, 95) : int(18, 64)) : c === 1 ? int(18, 64) : int(50, 85);
    // arrival order: ids and timestamps grow together, as imports over two weeks make them
    pool.createdUs[i] = start + Math.floor((i + rand()) * step);
  }
  return pool;
}

export function leadCity(pool: Pool, i: number): string {
  const name = cityName(pool.state[i], pool.city[i]);
  const v = pool.cityVariant[i];
  return v === 0 ? name : v === 1 ? name.toLowerCase() : `  ${name.replace(' ', '  ')} `;
}

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

export async function copyRows(client: pg.PoolClient, statement: string, lines: Iterable<string>) {
  async function* chunks() {
    let buf: string[] = [];
    for (const line of lines) {
      buf.push(line);
      if (buf.length === 10_000) {
        yield `${buf.join('\n')}\n`;
        buf = [];
      }
    }
    if (buf.length > 0) yield `${buf.join('\n')}\n`;
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(statement)));
}

const arrayLiteral = (items: string[]) =>
  `{${items.map((s) => `"${s.replace(/["\\]/g, '')}"`).join(',')}}`;

/** The statuses an assigned lead of the history has moved on to, in turn. */
const WORKED = ['ASSIGNED', 'CONTACTED', 'IN_PROGRESS', 'CONVERTED', 'CONTACTED'] as const;

/**
 * Empties the bench database and loads the pool: packages, agents, subscriptions, preferences,
 * leads. `history`: the share of the leads (the oldest) given out before, as a running portal's
 * stored leads mostly are: each to an agent in turn half an hour after it came, its status moved
 * on; the rest are NEW. The daily run's pool has none (it assigns every stored lead).
 */
export async function load(pool: Pool, databaseUrl: string, history = 0): Promise<void> {
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const client = await db.connect();
  try {
    await client.query(
      'truncate lead_history, leads, assignment_runs, preferences, subscriptions, packages, sessions, users, deliveries, notifications, agencies restart identity cascade',
    );
    // one package per (category, quota)
    const packageId = new Map<string, number>();
    const pkgRows: string[] = [];
    for (const category of LEAD_CATEGORIES) {
      for (let q = 5; q <= 50; q++) {
        packageId.set(`${category}:${q}`, pkgRows.length + 1);
        pkgRows.push(
          `${category.toLowerCase()}-${q}\t${category} ${q}\t${category}\t9900\t${q}\t10`,
        );
      }
    }
    await copyRows(
      client,
      'copy packages (slug, name, category, price_monthly_cents, leads_per_day, commission_pct) from stdin',
      pkgRows,
    );
    await copyRows(
      client,
      'copy users (name, email, password_hash, role) from stdin',
      pool.agents.map((a) => `Agent ${a.id}\tagent${a.id}@bench.test\tx\tAGENT`),
    );
    await copyRows(
      client,
      'copy subscriptions (user_id, package_id) from stdin',
      pool.agents.map((a) => `${a.id}\t${packageId.get(`${a.category}:${a.quota}`)}`),
    );
    await copyRows(
      client,
      'copy preferences (user_id, states, cities, age_min, age_max, categories) from stdin',
      pool.agents.map(
        (a) =>
          `${a.id}\t{${a.states.join(',')}}\t${arrayLiteral(a.cities)}\t${a.ageMin ?? '\\N'}\t${a.ageMax ?? '\\N'}\t{${a.categories.join(',')}}`,
      ),
    );
    // the leads' secondary indexes are built once after the load rather than row by row
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes
        where tablename = 'leads' and indexname <> 'leads_pkey'`,
    );
    for (const index of indexes) await client.query(`drop index ${index.name}`);
    const given = Math.floor(pool.age.length * history);
    const instant = (us: number) =>
      `${new Date(us / 1000).toISOString().replace('Z', '')}${String(us % 1000).padStart(3, '0')}+00`;
    function* leadLines() {
      for (let i = 0; i < pool.age.length; i++) {
        const lead = `${leadCity(pool, i)}\t${STATE_CODES[pool.state[i]]}\t${pool.age[i]}\t${LEAD_CATEGORIES[pool.category[i]]}\t${instant(pool.createdUs[i])}`;
        if (i >= given) {
          yield `${lead}\tNEW\t\\N\t\\N\t\\N`;
          continue;
        }
        const assignedUs = pool.createdUs[i] + 1_800_000_000;
        const day = new Date(assignedUs / 1000).toISOString().slice(0, 10);
        yield `${lead}\t${WORKED[i % WORKED.length]}\t${pool.agents[i % pool.agents.length].id}\t${instant(assignedUs)}\t${day}`;
      }
    }
    await copyRows(
      client,
      'copy leads (city, state, age, category, created_at, status, agent_id, assigned_at, assigned_on) from stdin',
      leadLines(),
    );
    for (const index of indexes) await client.query(index.def);
    await client.query('vacuum analyze leads');
    await client.query('analyze');
  } finally {
    client.release();
    await db.end();
  }
}

/**
 * Indexes the pool's leads for the admin's search, as a running portal's background indexer has
 * long done for its stored leads: a COPY queues them all (lead_search_queue), and a server started
 * on a freshly loaded pool would otherwise spend its first half minute indexing a million leads
 * beside whatever the bench measures. Answers the milliseconds it took.
 */
export async function indexForSearch(databaseUrl: string): Promise<number> {
  const t = performance.now();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    for (;;) {
      const { rows } = await db.query<{ done: number }>(
        'select lead_search_catch_up(20000)::float8 as done',
      );
      if (rows[0].done === 0) break;
    }
    await db.query('vacuum analyze lead_search');
  } finally {
    await db.end();
  }
  return Math.round(performance.now() - t);
}
