import { type APIRequestContext, expect } from '@playwright/test';
import { E2E_ADMIN } from './support';

let seq = 0;
/** A tag unique to this run, put in names so searches find only this test's data. */
export function uniqueTag(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${++seq}`;
}

/** Logs the given request context in as the e2e admin (its cookie jar is not the page's). */
export async function loginAdminApi(request: APIRequestContext) {
  const res = await request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(res.status()).toBe(200);
}

export async function createPackageApi(
  request: APIRequestContext,
  values: {
    name: string;
    leadsPerDay: number;
    priceMonthlyCents: number;
    category?: string;
    pricing?: 'SUBSCRIPTION' | 'PER_LEAD';
    perLeadCents?: number;
  },
) {
  const res = await request.post('/api/admin/packages', {
    data: {
      slug: values.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      commissionPct: 15,
      category: 'FINAL_EXPENSE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: false, followUpMessage: true },
      active: true,
      ...values,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; name: string };
}

export interface SeedLead {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  city: string;
  state: string;
  age: number;
}

/**
 * Gives the agent these leads through the admin API: a CSV import, then a manual assignment
 * of each (the engine may run after the import, so leads it already gave this agent count too).
 * Answers the lead ids by email.
 */
export async function seedLeadsForAgent(
  request: APIRequestContext,
  agentId: number,
  tag: string,
  leads: SeedLead[],
): Promise<Map<string, number>> {
  const header = 'firstName,lastName,phone,email,city,state,age,category,externalId';
  const rows = leads.map(
    (l, i) =>
      `${l.firstName},${l.lastName},${l.phone},${l.email},${l.city},${l.state},${l.age},MEDICARE,${tag}-${i}`,
  );
  const imported = await request.post('/api/admin/leads/import', {
    multipart: {
      file: {
        name: `${tag}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(`${[header, ...rows].join('\n')}\n`),
      },
    },
  });
  expect(imported.status(), await imported.text()).toBe(200);
  expect((await imported.json()).imported).toBe(leads.length);

  const listed = await request.get(`/api/admin/leads?q=${encodeURIComponent(tag)}&limit=100`);
  expect(listed.status()).toBe(200);
  const found = (await listed.json()) as {
    id: number;
    email: string;
    status: string;
    agentId: number | null;
  }[];
  expect(found).toHaveLength(leads.length);
  const ids = new Map<string, number>();
  for (const lead of found) {
    if (lead.status === 'NEW') {
      const res = await request.post('/api/admin/leads/assign', {
        data: { leadId: lead.id, userId: agentId },
      });
      expect(res.status(), await res.text()).toBe(200);
    } else {
      expect(lead.agentId, `lead ${lead.email} went to another agent`).toBe(agentId);
    }
    ids.set(lead.email, lead.id);
  }
  return ids;
}
