/**
 * Rows for the assignment engine's tests, written straight to the database (set-based, so that a
 * test can build hundreds of agents and leads quickly).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { leads, packages, preferences, subscriptions, users } from '../../src/server/db/schema';
import type { LeadCategory, SubscriptionStatus } from '../../src/shared/domain';

let seq = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++seq}`;

/** Empties what a run reads and writes, so each test starts from a known pool. */
export async function resetAssignmentData(db: Db): Promise<void> {
  await db.execute(
    sql`truncate lead_history, leads, assignment_runs, preferences, subscriptions restart identity cascade`,
  );
}

export async function createPackage(
  db: Db,
  opts: { category?: LeadCategory; leadsPerDay: number; enrollmentOnly?: boolean },
): Promise<number> {
  const slug = `pkg-${unique()}`;
  const [row] = await db
    .insert(packages)
    .values({
      slug,
      name: slug,
      category: opts.category ?? 'MEDICARE',
      priceMonthlyCents: 9900,
      leadsPerDay: opts.leadsPerDay,
      commissionPct: 10,
      enrollmentOnly: opts.enrollmentOnly ?? false,
    })
    .returning({ id: packages.id });
  return row.id;
}

export interface AgentSpec {
  /** A package id, or a package to create for this agent alone. */
  packageId?: number;
  category?: LeadCategory;
  quota?: number;
  enrollmentOnly?: boolean;
  status?: SubscriptionStatus | null;
  states?: string[];
  cities?: string[];
  ageMin?: number | null;
  ageMax?: number | null;
  categories?: LeadCategory[];
  name?: string;
}

export async function createAgent(db: Db, spec: AgentSpec = {}): Promise<number> {
  const [user] = await db
    .insert(users)
    .values({
      name: spec.name ?? `Agent ${unique()}`,
      email: `agent-${unique()}@example.com`,
      passwordHash: 'not-a-login',
      role: 'AGENT',
    })
    .returning({ id: users.id });
  const packageId =
    spec.packageId ??
    (await createPackage(db, {
      category: spec.category,
      leadsPerDay: spec.quota ?? 10,
      enrollmentOnly: spec.enrollmentOnly,
    }));
  if (spec.status !== null) {
    await db
      .insert(subscriptions)
      .values({ userId: user.id, packageId, status: spec.status ?? 'ACTIVE' });
  }
  if (spec.states || spec.cities || spec.ageMin || spec.ageMax || spec.categories) {
    await db.insert(preferences).values({
      userId: user.id,
      states: spec.states ?? [],
      cities: spec.cities ?? [],
      ageMin: spec.ageMin ?? null,
      ageMax: spec.ageMax ?? null,
      categories: spec.categories ?? [],
    });
  }
  return user.id;
}

export interface LeadSpec {
  category?: LeadCategory;
  state?: string;
  city?: string;
  age?: number;
  createdAt?: Date;
  firstName?: string;
}

/** Inserts the leads in order and returns their ids, in the same order. */
export async function createLeads(db: Db, specs: LeadSpec[]): Promise<number[]> {
  if (specs.length === 0) return [];
  const rows = await db
    .insert(leads)
    .values(
      specs.map((s) => ({
        category: s.category ?? ('MEDICARE' as const),
        state: s.state ?? 'TX',
        city: s.city ?? 'Austin',
        age: s.age ?? 65,
        firstName: s.firstName ?? null,
        ...(s.createdAt ? { createdAt: s.createdAt } : {}),
      })),
    )
    .returning({ id: leads.id });
  return rows.map((r) => r.id);
}

export interface LeadState {
  id: number;
  status: string;
  agentId: number | null;
  assignedOn: string | null;
  assignmentRunId: number | null;
  createdAt: Date;
}

export async function leadStates(db: Db): Promise<Map<number, LeadState>> {
  const rows = await db
    .select({
      id: leads.id,
      status: leads.status,
      agentId: leads.agentId,
      assignedOn: leads.assignedOn,
      assignmentRunId: leads.assignmentRunId,
      createdAt: leads.createdAt,
    })
    .from(leads);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Lead ids per agent. */
export function byAgent(states: Map<number, LeadState>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const lead of states.values()) {
    if (lead.agentId === null) continue;
    const list = out.get(lead.agentId) ?? [];
    list.push(lead.id);
    out.set(lead.agentId, list);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}
