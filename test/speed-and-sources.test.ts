/**
 * Speed to lead, the sources' figures and the preferences preview (docs/domain.md, Analytics that explain), each checked
 * against the same figures computed here in JS from the rows the test wrote.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../bench/lib/leads-data';
import { queryRows } from '../src/server/db/client';
import { leadRefusals, leads, leadViews, sources, users } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { insertUser } from '../src/server/modules/auth/users.repository';
import { LEAD_CATEGORIES, type LeadCategory, STATE_CODES } from '../src/shared/domain';
import { createPackage, daysBefore, subscribe } from './support/admin-fixtures';
import { loginAdmin, registerAgent, setupTestApp, uniqueEmail } from './support/test-app';

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const pos = p * (v.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}
const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
const noon = (date: string) => new Date(`${date}T17:00:00Z`); // midday in every US zone

describe('analytics that explain', () => {
  const ctx = setupTestApp();

  async function plainAgent(name: string): Promise<number> {
    const row = await insertUser(ctx.database.db, {
      name,
      email: uniqueEmail('a'),
      passwordHash: 'x',
      role: 'AGENT',
    });
    if (!row) throw new Error('no user');
    return row.id;
  }

  it('speed to lead: median and p90 overall, per day and per agent; never-contacted counted', async () => {
    const admin = await loginAdmin(ctx);
    const tz = ctx.app.config.BUSINESS_TZ;
    const today = businessDate(tz);
    const from = daysBefore(today, 9);
    const agentIds = [await plainAgent('Zed'), await plainAgent('Amy'), await plainAgent('Bea')];
    const rand = mulberry32(18);
    const rows: (typeof leads.$inferInsert)[] = [];
    for (let i = 0; i < 120; i++) {
      const ago = Math.floor(rand() * 14); // some before the period
      const day = daysBefore(today, ago);
      const assignedAt = new Date(noon(day).getTime() - Math.floor(rand() * 3600) * 1000);
      const contacted = rand() < 0.75;
      rows.push({
        city: 'Austin',
        state: 'TX',
        age: 70,
        category: 'MEDICARE',
        status: contacted ? 'CONTACTED' : 'ASSIGNED',
        agentId: agentIds[Math.floor(rand() * 3)],
        assignedAt,
        assignedOn: day,
        firstContactAt: contacted
          ? new Date(assignedAt.getTime() + Math.floor(rand() * 6 * 3600) * 1000)
          : null,
      });
    }
    const inserted = await ctx.database.db.insert(leads).values(rows).returning({ id: leads.id });
    // speed to open: most leads opened by their agent some minutes after the assignment; some
    // opened only under an earlier assignment (a day before), which must not count for this one
    const openedAt = new Map<(typeof rows)[number], Date>();
    const views: (typeof leadViews.$inferInsert)[] = [];
    rows.forEach((r, i) => {
      const assignedAt = r.assignedAt as Date;
      const pick = rand();
      if (pick < 0.6) {
        const at = new Date(assignedAt.getTime() + Math.floor(rand() * 2 * 3600) * 1000);
        openedAt.set(r, at);
        views.push({ leadId: inserted[i]!.id, agentId: r.agentId!, assignedAt, viewedAt: at });
      } else if (pick < 0.75) {
        views.push({
          leadId: inserted[i]!.id,
          agentId: r.agentId!,
          assignedAt: new Date(assignedAt.getTime() - 86_400_000),
          viewedAt: new Date(assignedAt.getTime() - 86_000_000),
        });
      }
    });
    await ctx.database.db.insert(leadViews).values(views);

    const res = await admin.client.get(
      `/api/admin/analytics/speed-to-lead?from=${from}&to=${today}`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();

    const inPeriod = rows.filter((r) => (r.assignedOn as string) >= from);
    const expectFigures = (subset: typeof rows) => {
      const minutes = subset
        .filter((r) => r.firstContactAt)
        .map(
          (r) => ((r.firstContactAt as Date).getTime() - (r.assignedAt as Date).getTime()) / 60_000,
        );
      const opens = subset
        .filter((r) => openedAt.has(r))
        .map((r) => (openedAt.get(r)!.getTime() - (r.assignedAt as Date).getTime()) / 60_000);
      return {
        assigned: subset.length,
        contacted: minutes.length,
        notContacted: subset.length - minutes.length,
        medianMinutes: round1(percentile(minutes, 0.5)),
        p90Minutes: round1(percentile(minutes, 0.9)),
        open: {
          opened: opens.length,
          notOpened: subset.length - opens.length,
          medianMinutes: round1(percentile(opens, 0.5)),
          p90Minutes: round1(percentile(opens, 0.9)),
        },
      };
    };
    expect(body.bucket).toBe('day');
    expect(body.overall).toEqual(expectFigures(inPeriod));
    expect(body.overall.notContacted).toBeGreaterThan(0);
    expect(body.overall.open.opened).toBeGreaterThan(0);
    expect(body.overall.open.notOpened).toBeGreaterThan(0);
    expect(body.trend).toHaveLength(10);
    for (const point of body.trend) {
      expect(point).toEqual({
        date: point.date,
        ...expectFigures(inPeriod.filter((r) => r.assignedOn === point.date)),
      });
    }
    expect(body.agents.map((a: { name: string }) => a.name)).toEqual(['Amy', 'Bea', 'Zed']);
    for (const a of body.agents) {
      expect(a).toEqual({
        agentId: a.agentId,
        name: a.name,
        ...expectFigures(inPeriod.filter((r) => r.agentId === a.agentId)),
      });
    }

    // a long period is drawn per week, every lead still counted once
    const long = (
      await admin.client.get(`/api/admin/analytics/speed-to-lead?from=${daysBefore(today, 99)}`)
    ).json();
    expect(long.bucket).toBe('week');
    expect(long.trend.reduce((s: number, p: { assigned: number }) => s + p.assigned, 0)).toBe(
      long.overall.assigned,
    );
    expect(long.overall).toEqual(expectFigures(rows));

    const bad = await admin.client.get(
      `/api/admin/analytics/speed-to-lead?from=${today}&to=${from}`,
    );
    expect(bad.statusCode).toBe(400);
  });

  it('sources: received, refused by reason, assigned, returned, converted, cost, cost per conversion', async () => {
    const admin = await loginAdmin(ctx);
    const tz = ctx.app.config.BUSINESS_TZ;
    const today = businessDate(tz);
    const from = daysBefore(today, 6);
    const agent = await plainAgent('Src Agent');
    // the leads of no source are this test's only
    await ctx.database.db.execute(sql`delete from leads`);
    const made = await ctx.database.db
      .insert(sources)
      .values([
        { name: 'Vendor A', costPerLeadCents: 250 },
        { name: 'Vendor B', costPerLeadCents: 1000 },
        { name: 'Quiet C', costPerLeadCents: 500 },
      ])
      .returning();
    const ids = made.map((s) => s.id);
    const rand = mulberry32(7);
    const rows: (typeof leads.$inferInsert)[] = [];
    const statuses = ['NEW', 'ASSIGNED', 'CONTACTED', 'CONVERTED', 'INVALID'] as const;
    for (let i = 0; i < 90; i++) {
      const status = statuses[Math.floor(rand() * statuses.length)];
      const given = status !== 'NEW';
      rows.push({
        city: 'Miami',
        state: 'FL',
        age: 70,
        category: 'MEDICARE',
        sourceId: [ids[0], ids[1], null][Math.floor(rand() * 3)],
        externalId: `src-${i}`,
        createdAt: noon(daysBefore(today, Math.floor(rand() * 10))),
        status,
        agentId: given ? agent : null,
        assignedAt: given ? new Date() : null,
        returnedAt: status === 'INVALID' && rand() < 0.6 ? new Date() : null,
      });
    }
    await ctx.database.db.insert(leads).values(rows);
    const refusals = [
      { sourceId: ids[0], reason: 'INVALID' as const, n: 3, createdAt: noon(today) },
      { sourceId: ids[0], reason: 'DNC' as const, n: 2, createdAt: noon(daysBefore(today, 1)) },
      { sourceId: ids[0], reason: 'DNC' as const, n: 9, createdAt: noon(daysBefore(today, 8)) },
      { sourceId: ids[1], reason: 'DUPLICATE' as const, n: 4, createdAt: noon(today) },
      { sourceId: ids[2], reason: 'INVALID' as const, n: 1, createdAt: noon(today) },
    ];
    await ctx.database.db.insert(leadRefusals).values(refusals);

    const res = await admin.client.get(`/api/admin/analytics/sources?from=${from}&to=${today}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const inPeriod = rows.filter((r) => businessDate(tz, r.createdAt as Date) >= from);
    for (const [index, sourceId] of [...ids, null].entries()) {
      const mine = inPeriod.filter((r) => (r.sourceId ?? null) === sourceId);
      const refused = (reason: string) =>
        refusals
          .filter(
            (f) =>
              f.sourceId === sourceId &&
              f.reason === reason &&
              businessDate(tz, f.createdAt) >= from,
          )
          .reduce((s, f) => s + f.n, 0);
      const cost = [250, 1000, 500, 0][index];
      const converted = mine.filter((r) => r.status === 'CONVERTED').length;
      const expected = {
        sourceId,
        name: ['Vendor A', 'Vendor B', 'Quiet C', 'No source'][index],
        costPerLeadCents: cost,
        received: mine.length,
        refused: {
          INVALID: refused('INVALID'),
          DUPLICATE: refused('DUPLICATE'),
          DNC: refused('DNC'),
          SUPPRESSED: refused('SUPPRESSED'),
          CONSENT: refused('CONSENT'),
        },
        assigned: mine.filter((r) => r.agentId !== null).length,
        returned: mine.filter((r) => r.returnedAt).length,
        converted,
        costCents: cost * mine.length,
        costPerConversionCents: converted > 0 ? Math.round((cost * mine.length) / converted) : null,
      };
      const got = body.sources.find((s: { sourceId: number | null }) => s.sourceId === sourceId);
      expect(got).toEqual(expected);
    }
    // the refusal 8 days ago lies outside the period
    expect(body.sources.find((s: { sourceId: number }) => s.sourceId === ids[0]).refused.DNC).toBe(
      2,
    );
  });

  it('sources: thousands of refusals give the same figures, summed from their counts per slot, not from the refusal rows', async () => {
    const admin = await loginAdmin(ctx);
    const tz = ctx.app.config.BUSINESS_TZ;
    const today = businessDate(tz);
    const from = daysBefore(today, 2);
    const source = (
      await admin.client.post('/api/admin/sources', {
        name: 'Refused Often',
        costPerLeadCents: 100,
      })
    ).json() as { id: number };
    const { key } = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json();
    // invalid leads through the intake: one refusal row per request
    for (let i = 0; i < 12; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/leads',
        headers: { authorization: `Bearer ${key}` },
        payload: { firstName: 'No phone' },
      });
      expect(res.json().reason).toBe('invalid');
    }
    // 20,000 more refusal rows as the intake writes them (n = 1 each), over four days at noon
    // and the 40 minutes before, the oldest day outside the period
    const ROWS = 20_000;
    const reasons = ['INVALID', 'DUPLICATE', 'DNC'] as const;
    await ctx.database.db.execute(sql`
      insert into lead_refusals (source_id, reason, n, created_at)
      select ${source.id}, (array['INVALID', 'DUPLICATE', 'DNC'])[1 + g % 3]::refusal_reason, 1,
             ${noon(today).toISOString()}::timestamptz - (g % 4) * interval '1 day'
               - (g % 40) * interval '1 minute'
        from generate_series(1, ${ROWS}) g`);
    const expected = { INVALID: 12, DUPLICATE: 0, DNC: 0, SUPPRESSED: 0, CONSENT: 0 };
    for (let g = 1; g <= ROWS; g++) if (g % 4 <= 2) expected[reasons[g % 3]] += 1;

    const refusedOf = async () => {
      const res = await admin.client.get(`/api/admin/analytics/sources?from=${from}&to=${today}`);
      expect(res.statusCode).toBe(200);
      return res.json().sources.find((s: { sourceId: number }) => s.sourceId === source.id).refused;
    };
    expect(await refusedOf()).toEqual(expected);

    // a few rows per source, reason and 15-minute slot, however many requests were refused
    const [kept] = await queryRows<{ rows: number }>(
      ctx.database.db,
      sql`select count(*)::int as rows from refusal_counts where source_id = ${source.id}`,
    );
    expect(kept.rows).toBeLessThanOrEqual(4 * 4 * reasons.length + reasons.length);
    // the figures are the counts': without the refusal rows they stay the same
    await ctx.database.db.execute(sql`delete from lead_refusals where source_id = ${source.id}`);
    expect(await refusedOf()).toEqual(expected);
  });

  it('preview: leads the edited preferences would have matched, per day, against the package', async () => {
    const tz = ctx.app.config.BUSINESS_TZ;
    const today = businessDate(tz);
    const agent = await registerAgent(ctx.app, 'Preview Agent');
    const pkg = await createPackage(ctx, { category: 'ACA', leadsPerDay: 10 });
    await subscribe(ctx, agent.id, pkg.id);
    await ctx.database.db
      .update(users)
      .set({ licensedStates: ['TX', 'FL', 'GA'] })
      .where(sql`${users.id} = ${agent.id}`);
    // the period's leads only: start from a clean slate of recent ACA leads
    await ctx.database.db.execute(sql`delete from leads where category = 'ACA'`);
    const rand = mulberry32(99);
    const cities = ['Dallas', 'Miami', 'Atlanta', 'Winston  Salem'];
    const rows: (typeof leads.$inferInsert)[] = [];
    for (let i = 0; i < 400; i++) {
      rows.push({
        city: cities[Math.floor(rand() * cities.length)],
        state: ['TX', 'FL', 'GA', 'CA'][Math.floor(rand() * 4)],
        age: 18 + Math.floor(rand() * 50),
        category: LEAD_CATEGORIES[Math.floor(rand() * 3)] as LeadCategory,
        externalId: `pv-${i}`,
        createdAt: noon(daysBefore(today, Math.floor(rand() * 34))),
      });
    }
    await ctx.database.db.insert(leads).values(rows);
    const firstDay = daysBefore(today, 29);
    const expectFor = (p: {
      states: string[];
      cities: string[];
      ageMin?: number;
      ageMax?: number;
    }) => {
      const norm = (c: string) => c.trim().replace(/\s+/g, ' ').toLowerCase();
      const hit = rows.filter((r) => {
        const day = businessDate(tz, r.createdAt as Date);
        return (
          day >= firstDay &&
          day <= today &&
          r.category === 'ACA' &&
          ['TX', 'FL', 'GA'].includes(r.state as string) &&
          (p.states.length === 0 || p.states.includes(r.state as string)) &&
          (p.cities.length === 0 || p.cities.map(norm).includes(norm(r.city as string))) &&
          (p.ageMin === undefined || (r.age as number) >= p.ageMin) &&
          (p.ageMax === undefined || (r.age as number) <= p.ageMax)
        );
      });
      const perDate = new Map<string, number>();
      for (const r of hit) {
        const d = businessDate(tz, r.createdAt as Date);
        perDate.set(d, (perDate.get(d) ?? 0) + 1);
      }
      return { matched: hit.length, perDate };
    };

    const all = (await agent.client.get('/api/agent/preferences/preview')).json();
    const e1 = expectFor({ states: [], cities: [] });
    expect(all.matched).toBe(e1.matched);
    expect(all.packageLeadsPerDay).toBe(10);
    expect(all.category).toBe('ACA');
    expect(all.daily).toHaveLength(30);
    expect(all.daily[0].date).toBe(firstDay);
    expect(all.daily[29].date).toBe(today);
    for (const d of all.daily) expect(d.count).toBe(e1.perDate.get(d.date) ?? 0);
    expect(all.perDay).toBe(Math.round((e1.matched / 30) * 10) / 10);

    // narrower preferences: fewer leads; CA is outside the licence whatever is chosen
    const res = await agent.client.get(
      '/api/agent/preferences/preview?states=TX,CA&cities=winston%20salem,Dallas&ageMin=30&ageMax=50',
    );
    expect(res.statusCode).toBe(200);
    const narrow = res.json();
    const e2 = expectFor({
      states: ['TX', 'CA'],
      cities: ['winston salem', 'Dallas'],
      ageMin: 30,
      ageMax: 50,
    });
    expect(narrow.matched).toBe(e2.matched);
    expect(narrow.matched).toBeLessThan(all.matched);
    expect(narrow.matched).toBeGreaterThan(0);
    for (const d of narrow.daily) expect(d.count).toBe(e2.perDate.get(d.date) ?? 0);

    // the package's category left out of the chosen ones: nothing would match
    const none = (
      await agent.client.get('/api/agent/preferences/preview?categories=MEDICARE')
    ).json();
    expect(none.matched).toBe(0);

    const bad = await agent.client.get('/api/agent/preferences/preview?states=ZZ');
    expect(bad.statusCode).toBe(400);
    expect(STATE_CODES).toContain('TX');
  });

  it("preview: inside the schedule and caps, each day's matches within the hours, the quota and the periods", async () => {
    const tz = ctx.app.config.BUSINESS_TZ;
    const today = businessDate(tz);
    const agent = await registerAgent(ctx.app, 'Limited Agent');
    const pkg = await createPackage(ctx, { category: 'FINAL_EXPENSE', leadsPerDay: 10 });
    await subscribe(ctx, agent.id, pkg.id);
    await ctx.database.db.execute(sql`delete from leads where category = 'FINAL_EXPENSE'`);
    // each day four leads at 10:00 UTC and two at 20:00 UTC (the same business day in US zones)
    const rows: (typeof leads.$inferInsert)[] = [];
    for (let back = 0; back < 30; back++) {
      const day = daysBefore(today, back);
      for (const [hour, n] of [
        ['10', 4],
        ['20', 2],
      ] as const) {
        for (let k = 0; k < n; k++) {
          rows.push({
            city: 'Tampa',
            state: 'FL',
            age: 70,
            category: 'FINAL_EXPENSE',
            externalId: `lim-${day}-${hour}-${k}`,
            createdAt: new Date(`${day}T${hour}:00:00Z`),
          });
        }
      }
    }
    await ctx.database.db.insert(leads).values(rows);
    // before any limit: no figure inside them
    const free = (await agent.client.get('/api/agent/preferences/preview')).json();
    expect(free.withinLimits).toBeNull();
    const hours = { start: '09:00', end: '17:00' };
    const schedule = await agent.client.put('/api/agent/schedule', {
      timeZone: 'UTC',
      days: { mon: hours, tue: hours, wed: hours, thu: hours, fri: hours, sat: null, sun: null },
    });
    expect(schedule.statusCode, schedule.body).toBe(200);
    const caps = await agent.client.put('/api/agent/caps', {
      daily: 3,
      weekly: 10,
      monthly: null,
      monthlyBudgetCents: null,
    });
    expect(caps.statusCode, caps.body).toBe(200);

    const preview = (await agent.client.get('/api/agent/preferences/preview')).json();
    expect(preview.daily.every((d: { count: number }) => d.count === 6)).toBe(true);
    // on a weekday 4 of the 6 came within the hours, 3 of them within the daily cap; none at the
    // weekend; at most 10 a week (from Monday)
    const weekly = new Map<string, number>();
    const expected = preview.daily.map((d: { date: string }) => {
      const weekday = new Date(`${d.date}T12:00:00Z`).getUTCDay();
      const inHours = weekday === 0 || weekday === 6 ? 0 : 4;
      const monday = daysBefore(d.date, (weekday + 6) % 7);
      const left = 10 - (weekly.get(monday) ?? 0);
      const count = Math.min(inHours, 3, left);
      weekly.set(monday, (weekly.get(monday) ?? 0) + count);
      return { date: d.date, count };
    });
    expect(preview.withinLimits.daily).toEqual(expected);
    const total = expected.reduce((sum: number, d: { count: number }) => sum + d.count, 0);
    expect(preview.withinLimits.perDay).toBe(Math.round((total / 30) * 10) / 10);
    expect(preview.withinLimits.bounds).toEqual(['SCHEDULE', 'DAILY_CAP', 'WEEKLY_CAP']);
    expect(preview.withinLimits.perDay).toBeLessThan(preview.perDay);
  });
});
