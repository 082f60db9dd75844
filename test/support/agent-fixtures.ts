import type { Db } from '../../src/server/db/client';
import { leads, packages } from '../../src/server/db/schema';
import type { LeadCategory, LeadStatus } from '../../src/shared/domain';

let seq = 0;

/** A package inserted straight into the database (the admin API is another module's). */
export async function insertPackage(db: Db, values: Partial<typeof packages.$inferInsert> = {}) {
  const n = ++seq;
  const [row] = await db
    .insert(packages)
    .values({
      slug: `pkg-${process.pid}-${Date.now()}-${n}`,
      name: `Package ${n}`,
      category: 'MEDICARE',
      priceMonthlyCents: 19_900,
      leadsPerDay: 10,
      commissionPct: 20,
      ...values,
    })
    .returning();
  return row;
}

export interface LeadSpec {
  status?: LeadStatus;
  agentId?: number | null;
  /** business date of the assignment (YYYY-MM-DD); defaults to null */
  assignedOn?: string | null;
  firstName?: string;
  lastName?: string;
  phone?: string | null;
  email?: string | null;
  city?: string;
  state?: string;
  age?: number;
  category?: LeadCategory;
  createdAt?: Date;
  /** when the agent received it; defaults to createdAt (or now) for a lead with an agent */
  assignedAt?: Date;
}

/** Leads inserted straight into the database, in the given order. */
export async function insertLeads(db: Db, specs: LeadSpec[]) {
  if (specs.length === 0) return [];
  return db
    .insert(leads)
    .values(
      specs.map((s) => {
        const n = ++seq;
        const agentId = s.agentId ?? null;
        return {
          firstName: s.firstName ?? `First${n}`,
          lastName: s.lastName ?? `Last${n}`,
          phone: s.phone === undefined ? `555-01${String(n % 100).padStart(2, '0')}` : s.phone,
          email: s.email === undefined ? `lead${n}@example.com` : s.email,
          city: s.city ?? 'Dallas',
          state: s.state ?? 'TX',
          age: s.age ?? 67,
          category: s.category ?? 'MEDICARE',
          status: s.status ?? (agentId ? 'ASSIGNED' : 'NEW'),
          agentId,
          assignedOn: s.assignedOn ?? null,
          assignedAt: s.assignedAt ?? (agentId ? (s.createdAt ?? new Date()) : null),
          ...(s.createdAt ? { createdAt: s.createdAt } : {}),
        };
      }),
    )
    .returning();
}

/** The date before a YYYY-MM-DD date. */
export function dayBefore(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
