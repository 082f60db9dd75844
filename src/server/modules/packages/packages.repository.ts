import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Package, PackageBody, PriceRule } from '../../../shared/contracts/packages';
import type { Db } from '../../db/client';
import { packagePrices, packages } from '../../db/schema';
import { lowestPriceSql } from '../fit/per-lead-price.service';

type PackageRow = typeof packages.$inferSelect & { fromPerLeadCents: number | null };

/** A package's columns and its lowest price per lead (PER_LEAD only). */
const packageColumns = {
  ...getTableColumns(packages),
  fromPerLeadCents: sql<number | null>`case when ${packages.pricing} = 'PER_LEAD'
    then ${lowestPriceSql(sql`${packages}`)} end`.as('from_per_lead_cents'),
};

export function toPackage(row: PackageRow): Package {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    category: row.category,
    priceMonthlyCents: row.priceMonthlyCents,
    leadsPerDay: row.leadsPerDay,
    commissionPct: row.commissionPct,
    active: row.active,
    enrollmentOnly: row.enrollmentOnly,
    services: {
      crm: row.serviceCrm,
      callRecording: row.serviceCallRecording,
      followUpMessage: row.serviceFollowUpMessage,
    },
    pricing: row.pricing,
    perLeadCents: row.pricing === 'PER_LEAD' ? row.perLeadCents : null,
    fromPerLeadCents: row.fromPerLeadCents === null ? null : Number(row.fromPerLeadCents),
  };
}

function toColumns(body: PackageBody) {
  return {
    name: body.name,
    category: body.category,
    priceMonthlyCents: body.priceMonthlyCents,
    leadsPerDay: body.leadsPerDay,
    commissionPct: body.commissionPct,
    active: body.active,
    enrollmentOnly: body.enrollmentOnly,
    serviceCrm: body.services.crm,
    serviceCallRecording: body.services.callRecording,
    serviceFollowUpMessage: body.services.followUpMessage,
    pricing: body.pricing,
    perLeadCents: body.pricing === 'PER_LEAD' ? body.perLeadCents : null,
  };
}

export async function listPackages(db: Db, onlyActive: boolean): Promise<Package[]> {
  const rows = await db
    .select(packageColumns)
    .from(packages)
    .where(onlyActive ? eq(packages.active, true) : undefined)
    .orderBy(asc(packages.priceMonthlyCents), asc(packages.id));
  return rows.map(toPackage);
}

export async function findPackage(db: Db, id: number): Promise<Package | null> {
  const [row] = await db.select(packageColumns).from(packages).where(eq(packages.id, id)).limit(1);
  return row ? toPackage(row) : null;
}

/** null when the slug is taken */
export async function insertPackage(db: Db, body: PackageBody): Promise<Package | null> {
  const [row] = await db
    .insert(packages)
    .values({ slug: body.slug, ...toColumns(body) })
    .onConflictDoNothing({ target: packages.slug })
    .returning({ id: packages.id });
  return row ? findPackage(db, row.id) : null;
}

export async function updatePackage(
  db: Db,
  id: number,
  body: PackageBody,
): Promise<Package | null> {
  const [row] = await db
    .update(packages)
    .set({ ...toColumns(body), updatedAt: new Date() })
    .where(eq(packages.id, id))
    .returning({ id: packages.id });
  return row ? findPackage(db, row.id) : null;
}

export async function setPackageActive(
  db: Db,
  id: number,
  active: boolean,
): Promise<Package | null> {
  const [row] = await db
    .update(packages)
    .set({ active, updatedAt: new Date() })
    .where(eq(packages.id, id))
    .returning({ id: packages.id });
  return row ? findPackage(db, row.id) : null;
}

/** The package's Stripe product and current price (billing: docs/decisions/017-stripe-billing.md). */
export async function savePackagePrice(
  tx: Db,
  packageId: number,
  productId: string,
  priceId: string,
  cents: number,
): Promise<void> {
  await tx
    .update(packages)
    .set({ stripeProductId: productId, stripePriceId: priceId, stripePriceCents: cents })
    .where(eq(packages.id, packageId));
}

/** A package's price list, in order. */
export async function findPriceRules(db: Db, packageId: number): Promise<PriceRule[]> {
  return db
    .select({
      state: packagePrices.state,
      ageMin: packagePrices.ageMin,
      ageMax: packagePrices.ageMax,
      sourceId: packagePrices.sourceId,
      priceCents: packagePrices.priceCents,
    })
    .from(packagePrices)
    .where(eq(packagePrices.packageId, packageId))
    .orderBy(asc(packagePrices.position)) as Promise<PriceRule[]>;
}

/** Replaces a package's price list (in the caller's transaction). */
export async function replacePriceRules(tx: Db, packageId: number, rules: PriceRule[]) {
  await tx.delete(packagePrices).where(eq(packagePrices.packageId, packageId));
  if (rules.length === 0) return;
  await tx
    .insert(packagePrices)
    .values(rules.map((r, position) => ({ packageId, position, ...r })));
}
