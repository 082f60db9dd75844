/**
 * The wallet's statements (docs/domain.md, The wallet). Every entry is written in the same
 * statement as the balance it changes, and the balance's CHECK (never below zero) is the last
 * guard: a charge the balance does not cover fails its whole statement, and with it the
 * assignment's transaction.
 */
import { sql } from 'drizzle-orm';
import type { WalletEntryKind } from '../../../shared/domain';
import { type Db, leadsNamed, queryRows, queryRowsForIds } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';
import { leadPriceSql } from '../fit/per-lead-price.service';

export interface EntryRow {
  id: number;
  kind: WalletEntryKind;
  amountCents: number;
  balanceAfterCents: number;
  leadId: number | null;
  leadName: string | null;
  note: string | null;
  createdAt: string;
}

export interface WalletRow {
  balanceCents: number;
  autoRechargeEnabled: boolean;
  autoRechargeBelowCents: number | null;
  autoRechargeAmountCents: number | null;
  spentMonth: string | null;
  spentCents: number;
  rechargePendingSince: Date | null;
  cardPaymentMethod: string | null;
}

export async function findWallet(db: Db, userId: number): Promise<WalletRow | null> {
  const [row] = await queryRows<WalletRow>(
    db,
    sql`select balance_cents as "balanceCents", auto_recharge_enabled as "autoRechargeEnabled",
               auto_recharge_below_cents as "autoRechargeBelowCents",
               auto_recharge_amount_cents as "autoRechargeAmountCents",
               spent_month::text as "spentMonth", spent_cents as "spentCents",
               recharge_pending_since as "rechargePendingSince",
               card_payment_method as "cardPaymentMethod"
          from wallets where user_id = ${userId}`,
  );
  return row ?? null;
}

/** The wallet's row, made when missing, locked until the caller's transaction ends. */
export async function lockWallet(tx: Db, userId: number): Promise<WalletRow> {
  await tx.execute(sql`insert into wallets (user_id) values (${userId}) on conflict do nothing`);
  await tx.execute(sql`select 1 from wallets where user_id = ${userId} for update`);
  return (await findWallet(tx, userId)) as WalletRow;
}

/**
 * Writes one entry and moves the balance by its amount, in one statement. With a reference
 * already written (a Stripe payment applied before) nothing changes and null is answered.
 */
export async function writeEntry(
  tx: Db,
  entry: {
    userId: number;
    kind: WalletEntryKind;
    amountCents: number;
    reference?: string | null;
    note?: string | null;
    actorId?: number | null;
    leadId?: number | null;
  },
): Promise<{ id: number; balanceAfterCents: number } | null> {
  const reference = entry.reference ?? null;
  const [row] = await queryRows<{ id: number; balanceAfterCents: number }>(
    tx,
    sql`with w as (${
      entry.amountCents > 0
        ? sql`insert into wallets (user_id, balance_cents)
              select ${entry.userId}, ${entry.amountCents}::int
               where not exists (select 1 from wallet_entries where reference = ${reference}::text)
              on conflict (user_id) do update
                set balance_cents = wallets.balance_cents + excluded.balance_cents,
                    updated_at = now()
              returning balance_cents`
        : // money out: the wallet exists (the caller locked it), and its CHECK refuses below zero
          sql`update wallets set balance_cents = balance_cents + ${entry.amountCents}::int,
                                 updated_at = now()
               where user_id = ${entry.userId}
                 and not exists (select 1 from wallet_entries where reference = ${reference}::text)
              returning balance_cents`
    })
        insert into wallet_entries (user_id, kind, amount_cents, balance_after_cents, lead_id,
                                    reference, note, actor_id)
        select ${entry.userId}, ${entry.kind}::wallet_entry_kind, ${entry.amountCents}::int,
               w.balance_cents, ${entry.leadId ?? null}::bigint, ${reference}::text,
               ${entry.note ?? null}::text, ${entry.actorId ?? null}::int
          from w
        returning id::int as id, balance_after_cents as "balanceAfterCents"`,
  );
  return row ?? null;
}

/**
 * Charges each of these leads, just given to an agent on a PER_LEAD package, its price (the
 * package's price list: per-lead-price.service), as LEAD entries; the month's spend grows by the
 * same. Leads of subscription agents are not charged. Answers how many leads were priced and how
 * many charged: fewer charged means an agent had no wallet at all.
 */
export async function chargeLeads(
  tx: Db,
  leadIds: number[],
  monthStart: string,
): Promise<{ priced: number; charged: number }> {
  if (leadIds.length === 0) return { priced: 0, charged: 0 };
  const [row] = await queryRowsForIds<{ priced: number; charged: number }>(
    tx,
    leadIds,
    'bigint',
    (ids) => sql`with priced as (
          select l.id as lead_id, l.agent_id, ${leadPriceSql(sql`l`, sql`p`)} as cents
            from ${leadsNamed(ids)} l
            join subscriptions s on s.user_id = l.agent_id and s.status = 'ACTIVE'
            join packages p on p.id = s.package_id and p.pricing = 'PER_LEAD'),
        totals as (select agent_id, sum(cents)::int as total from priced group by agent_id),
        debited as (
          update wallets w
             set balance_cents = w.balance_cents - t.total,
                 spent_cents = case when w.spent_month = ${monthStart}::date
                                    then w.spent_cents else 0 end + t.total,
                 spent_month = ${monthStart}::date, updated_at = now()
            from totals t
           where w.user_id = t.agent_id
          returning w.user_id, w.balance_cents + t.total as before),
        written as (
          insert into wallet_entries (user_id, kind, amount_cents, balance_after_cents, lead_id,
                                      charged_month)
          select p.agent_id, 'LEAD', -p.cents,
                 d.before - sum(p.cents) over (partition by p.agent_id order by p.lead_id),
                 p.lead_id, ${monthStart}::date
            from priced p join debited d on d.user_id = p.agent_id
          returning 1)
        select (select count(*) from priced)::int as priced,
               (select count(*) from written)::int as charged`,
  );
  return row;
}

/**
 * Gives back to `agentId` what it was last charged for the lead and not yet given back (one
 * credit per charge, by the reference `credit:<charge>`), and lowers the spend of the month it
 * was charged in by it, when that month's spend is still the one kept.
 * Answers the cents credited; 0 when there was no charge (a subscription agent's lead).
 */
export async function creditLeadCharge(
  tx: Db,
  input: { leadId: number; agentId: number; kind: WalletEntryKind },
): Promise<number> {
  const rows = await queryRows<{ cents: number }>(
    tx,
    sql`with charge as (
          select e.id, -e.amount_cents as cents, e.charged_month
            from wallet_entries e
           where e.lead_id = ${input.leadId} and e.user_id = ${input.agentId} and e.kind = 'LEAD'
             and not exists (select 1 from wallet_entries c where c.reference = 'credit:' || e.id)
           order by e.id desc limit 1),
        credited as (
          update wallets w
             set balance_cents = w.balance_cents + c.cents,
                 spent_cents = case when w.spent_month = c.charged_month
                                    then greatest(0, w.spent_cents - c.cents)
                                    else w.spent_cents end,
                 updated_at = now()
            from charge c
           where w.user_id = ${input.agentId}
          returning w.balance_cents, c.cents, c.id)
        insert into wallet_entries (user_id, kind, amount_cents, balance_after_cents, lead_id,
                                    reference)
        select ${input.agentId}, ${input.kind}::wallet_entry_kind, cents, balance_cents,
               ${input.leadId}, 'credit:' || id
          from credited
        returning amount_cents as cents`,
  );
  return rows[0]?.cents ?? 0;
}

export async function listEntries(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ entries: EntryRow[]; total: number }> {
  const [entries, [count]] = await Promise.all([
    queryRows<EntryRow>(
      db,
      sql`select e.id::int as id, e.kind, e.amount_cents as "amountCents",
                 e.balance_after_cents as "balanceAfterCents", e.lead_id::int as "leadId",
                 nullif(trim(concat_ws(' ', l.first_name, l.last_name)), '') as "leadName",
                 e.note, ${isoInstant(sql`e.created_at`)} as "createdAt"
            from wallet_entries e
            left join leads l on l.id = e.lead_id and l.agent_id = e.user_id
           where e.user_id = ${userId}
           order by e.id desc
           limit ${page.limit} offset ${page.offset}`,
    ),
    queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from wallet_entries where user_id = ${userId}`,
    ),
  ]);
  return { entries, total: count?.total ?? 0 };
}

export async function findEntry(db: Db, id: number): Promise<EntryRow | null> {
  const [row] = await queryRows<EntryRow>(
    db,
    sql`select e.id::int as id, e.kind, e.amount_cents as "amountCents",
               e.balance_after_cents as "balanceAfterCents", e.lead_id::int as "leadId",
               null::text as "leadName", e.note, ${isoInstant(sql`e.created_at`)} as "createdAt"
          from wallet_entries e where e.id = ${id}`,
  );
  return row ?? null;
}

export async function saveAutoRecharge(
  db: Db,
  userId: number,
  settings: { enabled: boolean; belowCents: number | null; amountCents: number | null },
): Promise<void> {
  await db.execute(
    sql`insert into wallets (user_id, auto_recharge_enabled, auto_recharge_below_cents,
                             auto_recharge_amount_cents)
        values (${userId}, ${settings.enabled}, ${settings.belowCents}, ${settings.amountCents})
        on conflict (user_id) do update
          set auto_recharge_enabled = excluded.auto_recharge_enabled,
              auto_recharge_below_cents = excluded.auto_recharge_below_cents,
              auto_recharge_amount_cents = excluded.auto_recharge_amount_cents,
              updated_at = now()`,
  );
}

/** Marks a recharge asked of Stripe (or clears the mark); false when one is already pending. */
export async function markRechargePending(
  db: Db,
  userId: number,
  pending: boolean,
  staleBefore: Date,
): Promise<boolean> {
  const rows = await queryRows<{ userId: number }>(
    db,
    pending
      ? sql`update wallets set recharge_pending_since = now()
             where user_id = ${userId}
               and (recharge_pending_since is null
                    or recharge_pending_since < ${staleBefore.toISOString()}::timestamptz)
            returning user_id as "userId"`
      : sql`update wallets set recharge_pending_since = null where user_id = ${userId}
            returning user_id as "userId"`,
  );
  return rows.length > 0;
}

/** The agent's package when it is PER_LEAD: its lowest and highest price per lead. */
export async function findPriceRange(
  db: Db,
  userId: number,
): Promise<{ lowestCents: number; highestCents: number } | null> {
  const [row] = await queryRows<{ lowestCents: number; highestCents: number }>(
    db,
    sql`select least(p.per_lead_cents,
                     (select min(pp.price_cents) from package_prices pp where pp.package_id = p.id))
                 as "lowestCents",
               greatest(p.per_lead_cents,
                     (select max(pp.price_cents) from package_prices pp where pp.package_id = p.id))
                 as "highestCents"
          from subscriptions s join packages p on p.id = s.package_id
         where s.user_id = ${userId} and s.status in ('ACTIVE', 'PAST_DUE', 'INACTIVE')
           and p.pricing = 'PER_LEAD'`,
  );
  return row ?? null;
}

export async function findMonthlyBudget(db: Db, userId: number): Promise<number | null> {
  const [row] = await queryRows<{ cents: number | null }>(
    db,
    sql`select monthly_budget_cents as cents from agent_caps where user_id = ${userId}`,
  );
  return row?.cents ?? null;
}

/** Every agent with a wallet or a PER_LEAD package: the admin's balances, lowest first. */
export async function listBalances(db: Db) {
  return queryRows<{
    agentId: number;
    name: string;
    email: string;
    balanceCents: number;
    payPerLead: boolean;
    autoRecharge: boolean;
    lastEntryAt: string | null;
  }>(
    db,
    sql`select u.id as "agentId", u.name, u.email,
               coalesce(w.balance_cents, 0) as "balanceCents",
               coalesce(p.pricing = 'PER_LEAD', false) as "payPerLead",
               coalesce(w.auto_recharge_enabled, false) as "autoRecharge",
               ${isoInstant(sql`(select max(e.created_at) from wallet_entries e
                                  where e.user_id = u.id)`)} as "lastEntryAt"
          from users u
          left join wallets w on w.user_id = u.id
          left join subscriptions s on s.user_id = u.id
          left join packages p on p.id = s.package_id
         where u.role = 'AGENT' and (w.user_id is not null or p.pricing = 'PER_LEAD')
         order by coalesce(w.balance_cents, 0), u.id`,
  );
}

/** Whether the user is an agent (admins credit agents only). */
export async function isAgent(db: Db, userId: number): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from users where id = ${userId} and role = 'AGENT'`,
  );
  return rows.length > 0;
}

/** Keeps the card a Stripe top-up saved (its PaymentMethod), for auto-recharge. */
export async function saveCard(db: Db, userId: number, paymentMethod: string): Promise<void> {
  await db.execute(
    sql`insert into wallets (user_id, card_payment_method) values (${userId}, ${paymentMethod})
        on conflict (user_id) do update
          set card_payment_method = excluded.card_payment_method, updated_at = now()`,
  );
}

/** The wallets auto-recharge should top up: enabled, with a card, below the threshold, none pending. */
export function dueRecharges(
  db: Db,
  staleBefore: Date,
): Promise<{ userId: number; amountCents: number; paymentMethod: string }[]> {
  return queryRows(
    db,
    sql`select user_id as "userId", auto_recharge_amount_cents as "amountCents",
               card_payment_method as "paymentMethod"
          from wallets
         where auto_recharge_enabled and card_payment_method is not null
           and auto_recharge_amount_cents is not null
           and balance_cents < auto_recharge_below_cents
           and (recharge_pending_since is null
                or recharge_pending_since < ${staleBefore.toISOString()}::timestamptz)
         order by user_id
         limit 100`,
  );
}

export async function countWalletEntries(db: Db, userId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from wallet_entries where user_id = ${userId}`,
  );
  return row?.n ?? 0;
}
