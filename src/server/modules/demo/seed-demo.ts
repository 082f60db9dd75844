import { sql } from 'drizzle-orm';
import { LEAD_CATEGORIES, type LeadCategory } from '../../../shared/domain';
import { toE164 } from '../../../shared/phone';
import type { Db } from '../../db/client';
import { leads } from '../../db/schema';
import type { LeadEvents } from '../../events/lead-events';
import { businessDate } from '../../lib/business-time';
import { leadTimeZone } from '../../lib/lead-time-zone';
import { type EngineConfig, runAssignment } from '../assignment/run-assignment.service';
import { hashPassword, insertUser } from '../auth/auth.service';
import { insertLeads } from '../leads/lead-life.service';
import { updateOwnLeadStatus } from '../leads/leads.service';
import { seedPackage } from '../packages/packages.service';
import { updatePreferences } from '../preferences/preferences.service';
import { writeSubscription } from '../subscriptions/subscriptions.service';

export const DEMO_AGENT_PASSWORD = 'demo1234';

/** Days of demo history, and leads arriving each day (before that day's run). */
const DEMO_DAYS = 14;
const LEADS_PER_DAY = 30;

const FIRST = [
  'Mary',
  'James',
  'Linda',
  'Robert',
  'Patricia',
  'John',
  'Barbara',
  'Michael',
  'Susan',
  'William',
  'Karen',
  'David',
  'Nancy',
  'Richard',
  'Betty',
  'Joseph',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Wilson',
  'Anderson',
  'Taylor',
  'Thomas',
  'Moore',
  'Jackson',
];
const PLACES: [string, string][] = [
  ['Miami', 'FL'],
  ['Tampa', 'FL'],
  ['Orlando', 'FL'],
  ['Houston', 'TX'],
  ['Dallas', 'TX'],
  ['Austin', 'TX'],
  ['Phoenix', 'AZ'],
  ['Tucson', 'AZ'],
  ['Atlanta', 'GA'],
  ['Savannah', 'GA'],
  ['Charlotte', 'NC'],
  ['Raleigh', 'NC'],
  ['Columbus', 'OH'],
  ['Cleveland', 'OH'],
  ['Nashville', 'TN'],
  ['Memphis', 'TN'],
];

/** Each demo city's area code: demo phones are valid numbers there, stored in E.164. */
const AREA_CODES: Record<string, string> = {
  Miami: '305',
  Tampa: '813',
  Orlando: '407',
  Houston: '713',
  Dallas: '214',
  Austin: '512',
  Phoenix: '602',
  Tucson: '520',
  Atlanta: '404',
  Savannah: '912',
  Charlotte: '704',
  Raleigh: '919',
  Columbus: '614',
  Cleveland: '216',
  Nashville: '615',
  Memphis: '901',
};

/** A valid number in the city's area code, E.164 (docs/domain.md, Lead quality), from the seeded random source. */
function demoPhone(city: string, rand: () => number): string {
  const npa = AREA_CODES[city] ?? '212';
  for (let i = 0; i < 5; i++) {
    const phone = toE164(
      `${npa}${200 + Math.floor(rand() * 800)}${String(Math.floor(rand() * 10_000)).padStart(4, '0')}`,
    );
    if (phone) return phone;
  }
  return `+1${npa}5550${100 + Math.floor(rand() * 100)}`;
}

const DEMO_PACKAGES = [
  {
    slug: 'medicare-starter',
    name: 'Medicare Starter',
    category: 'MEDICARE',
    priceMonthlyCents: 19900,
    leadsPerDay: 5,
    commissionPct: 20,
    enrollmentOnly: false,
    crm: true,
    rec: true,
    fu: false,
  },
  {
    slug: 'medicare-aep-pro',
    name: 'Medicare AEP Pro',
    category: 'MEDICARE',
    priceMonthlyCents: 49900,
    leadsPerDay: 15,
    commissionPct: 25,
    enrollmentOnly: true,
    crm: true,
    rec: true,
    fu: true,
  },
  {
    slug: 'aca-open-enrollment',
    name: 'ACA Open Enrollment',
    category: 'ACA',
    priceMonthlyCents: 29900,
    leadsPerDay: 10,
    commissionPct: 15,
    enrollmentOnly: true,
    crm: true,
    rec: false,
    fu: true,
  },
  {
    slug: 'final-expense-plus',
    name: 'Final Expense Plus',
    category: 'FINAL_EXPENSE',
    priceMonthlyCents: 24900,
    leadsPerDay: 8,
    commissionPct: 30,
    enrollmentOnly: false,
    crm: true,
    rec: true,
    fu: true,
  },
  {
    slug: 'legacy-medicare',
    name: 'Legacy Medicare (retired)',
    category: 'MEDICARE',
    priceMonthlyCents: 9900,
    leadsPerDay: 3,
    commissionPct: 10,
    enrollmentOnly: false,
    crm: false,
    rec: false,
    fu: false,
    active: false,
  },
] as const;

/** A tiny seeded PRNG so the demo is the same every time. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Demo data for a newcomer: packages of every category, agents with subscriptions and
 * preferences, and two weeks of leads handed out by the real engine, some already worked.
 * Skipped when leads exist.
 */
export async function seedDemo(
  db: Db,
  config: EngineConfig,
  events: LeadEvents,
  log: (line: string) => void,
): Promise<boolean> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(leads);
  if (n > 0) {
    log('Demo data skipped: the database already has leads.');
    return false;
  }
  const rand = prng(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];

  const pkgRows: { id: number; slug: string }[] = [];
  for (const p of DEMO_PACKAGES) {
    const pkg = await seedPackage(db, {
      slug: p.slug,
      name: p.name,
      category: p.category as LeadCategory,
      priceMonthlyCents: p.priceMonthlyCents,
      leadsPerDay: p.leadsPerDay,
      commissionPct: p.commissionPct,
      enrollmentOnly: p.enrollmentOnly,
      services: { crm: p.crm, callRecording: p.rec, followUpMessage: p.fu },
      pricing: 'SUBSCRIPTION',
      perLeadCents: null,
      active: 'active' in p ? p.active : true,
    });
    if (pkg) pkgRows.push(pkg);
  }

  const passwordHash = await hashPassword(DEMO_AGENT_PASSWORD);
  const agentSpecs = [
    { name: 'Alice Carter', pkg: 'medicare-starter', states: ['FL', 'TX'], status: 'ACTIVE' },
    { name: 'Ben Ortiz', pkg: 'final-expense-plus', states: [], status: 'ACTIVE' },
    { name: 'Chloe Nguyen', pkg: 'aca-open-enrollment', states: ['GA', 'NC'], status: 'ACTIVE' },
    { name: 'Dan Fischer', pkg: 'medicare-aep-pro', states: ['AZ', 'OH', 'TN'], status: 'ACTIVE' },
    { name: 'Eva Brooks', pkg: 'medicare-starter', states: ['FL'], status: 'PAST_DUE' },
    { name: 'Frank Hill', pkg: null, states: [], status: null },
  ] as const;
  const agents: { id: number; name: string }[] = [];
  for (const [i, spec] of agentSpecs.entries()) {
    const email = `agent${i + 1}@demo.leadflow.local`;
    const user = await insertUser(db, { name: spec.name, email, passwordHash, role: 'AGENT' });
    if (!user) continue;
    agents.push({ id: user.id, name: spec.name });
    const pkg = pkgRows.find((p) => p.slug === spec.pkg);
    if (pkg && spec.status) {
      // only an admin sets a subscription past due
      await writeSubscription(
        db,
        user.id,
        pkg.id,
        spec.status,
        spec.status === 'ACTIVE' ? 'AGENT' : 'ADMIN',
      );
    }
    await updatePreferences(db, user.id, {
      states: [...spec.states],
      cities: [],
      ageMin: i % 2 ? 50 : null,
      ageMax: null,
      categories: [],
    });
  }

  // Two weeks of leads, each day's arriving in the hours before that day's run of the real
  // engine (as the daily schedule would have run it): every demo lead an agent holds fits that
  // agent's package, preferences and quota, and the run history shows the days.
  const now = Date.now();
  let stored = 0;
  let assigned = 0;
  for (let day = DEMO_DAYS - 1; day >= 0; day--) {
    const runAt = new Date(now - day * 86_400_000);
    const rows = Array.from({ length: LEADS_PER_DAY }, () => {
      const [city, state] = pick(PLACES);
      const category = pick(LEAD_CATEGORIES);
      const first = pick(FIRST);
      const last = pick(LAST);
      stored++;
      return {
        externalId: `DEMO-${String(stored).padStart(4, '0')}`,
        firstName: first,
        lastName: last,
        phone: demoPhone(city, rand),
        email: `${first}.${last}${stored}@example.com`.toLowerCase(),
        city,
        state,
        age: category === 'ACA' ? 26 + Math.floor(rand() * 38) : 60 + Math.floor(rand() * 30),
        category,
        timeZone: leadTimeZone(null, state),
        createdAt: new Date(runAt.getTime() - Math.floor(rand() * 8 * 3_600_000)),
      };
    });
    await insertLeads(db, rows);
    // past days as the schedule ran them; today's run as an admin's, so the real schedule
    // still runs today at its hour
    const run = await runAssignment(db, config, {
      trigger: day === 0 ? 'MANUAL' : 'SCHEDULE',
      now: runAt,
      events,
    });
    if (run?.error) throw new Error(`demo assignment run failed: ${run.error}`);
    assigned += run?.assigned ?? 0;
  }

  // Agents have worked most of what they received before today, as agents do.
  const held = await db
    .select({ id: leads.id, agentId: leads.agentId })
    .from(leads)
    .where(
      sql`${leads.agentId} is not null and ${leads.assignedOn} < ${businessDate(config.BUSINESS_TZ)}`,
    )
    .orderBy(leads.id);
  const outcomes = ['CONTACTED', 'IN_PROGRESS', 'CONVERTED', 'INVALID'] as const;
  for (const lead of held) {
    if (rand() < 0.25) continue; // not called yet
    await updateOwnLeadStatus(db, lead.agentId as number, lead.id, pick(outcomes));
  }
  log(
    `Demo data: ${pkgRows.length} packages, ${agents.length} agents, ${stored} leads over ${DEMO_DAYS} days, ${assigned} assigned by the engine.`,
  );
  log(
    `Demo agents sign in as agent1@demo.leadflow.local ... agent${agents.length}@demo.leadflow.local, password ${DEMO_AGENT_PASSWORD}`,
  );
  return true;
}
