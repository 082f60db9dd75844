import { asc, eq } from 'drizzle-orm';
import type { Package, PackageBody } from '../../../shared/contracts/packages';
import type { Db } from '../../db/client';
import { packages } from '../../db/schema';

type PackageRow = typeof packages.$inferSelect;

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
  };
}

export async function listPackages(db: Db, onlyActive: boolean): Promise<Package[]> {
  const rows = await db
    .select()
    .from(packages)
    .where(onlyActive ? eq(packages.active, true) : undefined)
    .orderBy(asc(packages.priceMonthlyCents), asc(packages.id));
  return rows.map(toPackage);
}

export async function findPackage(db: Db, id: number): Promise<Package | null> {
  const [row] = await db.select().from(packages).where(eq(packages.id, id)).limit(1);
  return row ? toPackage(row) : null;
}

/** null when the slug is taken */
export async function insertPackage(db: Db, body: PackageBody): Promise<Package | null> {
  const [row] = await db
    .insert(packages)
    .values({ slug: body.slug, ...toColumns(body) })
    .onConflictDoNothing({ target: packages.slug })
    .returning();
  return row ? toPackage(row) : null;
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
    .returning();
  return row ? toPackage(row) : null;
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
    .returning();
  return row ? toPackage(row) : null;
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
