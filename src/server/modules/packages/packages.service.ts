import type {
  OfferedPackage,
  Package,
  PackageBody,
  PackageService,
  PriceList,
} from '../../../shared/contracts/packages';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import {
  findPackage,
  findPriceRules,
  insertPackage,
  listPackages,
  replacePriceRules,
  setPackageActive,
  updatePackage,
} from './packages.repository';

/** Billing's write of a package's Stripe product and price. */
export { savePackagePrice } from './packages.repository';

/** The packages offered to agents and on the landing page: the active ones. */
export async function listOfferedPackages(
  db: Db,
  available: Record<PackageService, boolean>,
): Promise<OfferedPackage[]> {
  return (await listPackages(db, true)).map((pkg) => ({
    ...pkg,
    unavailableServices: (Object.keys(pkg.services) as PackageService[]).filter(
      (service) => pkg.services[service] && !available[service],
    ),
  }));
}

/** Every package, active or not (the admin's Packages screen). */
export function listAllPackages(db: Db): Promise<Package[]> {
  return listPackages(db, false);
}

export async function createPackage(db: Db, body: PackageBody): Promise<Package> {
  const created = await insertPackage(db, body);
  if (!created) throw conflict(`A package with the slug '${body.slug}' already exists`);
  return created;
}

/** The slug is fixed once the package exists: a different one is refused. */
export async function editPackage(db: Db, id: number, body: PackageBody): Promise<Package> {
  const existing = await findPackage(db, id);
  if (!existing) throw notFound('Package');
  if (existing.slug !== body.slug)
    throw badRequest('The slug cannot be changed once the package exists');
  const updated = await updatePackage(db, id, body);
  if (!updated) throw notFound('Package');
  return updated;
}

export async function changePackageActive(db: Db, id: number, active: boolean): Promise<Package> {
  const updated = await setPackageActive(db, id, active);
  if (!updated) throw notFound('Package');
  return updated;
}

/** A package by id, active or not (null when there is none). */
export function findPackageById(db: Db, id: number): Promise<Package | null> {
  return findPackage(db, id);
}

/** A package for the demo seed: created unless its slug is taken (null then). */
export function seedPackage(db: Db, body: PackageBody): Promise<Package | null> {
  return insertPackage(db, body);
}

/** A PER_LEAD package's price list (404: no such package; 409: the package is sold by subscription). */
export async function getPriceList(db: Db, packageId: number): Promise<PriceList> {
  const pkg = await findPackage(db, packageId);
  if (!pkg) throw notFound('Package');
  return { rules: await findPriceRules(db, packageId) };
}

/**
 * Replaces a PER_LEAD package's price list. A subscription package has no price per lead: 409.
 * A rule naming a source that does not exist is refused (400) before anything changes.
 */
export async function setPriceList(db: Db, packageId: number, list: PriceList): Promise<PriceList> {
  const pkg = await findPackage(db, packageId);
  if (!pkg) throw notFound('Package');
  if (pkg.pricing !== 'PER_LEAD')
    throw conflict(
      'Only a pay-per-lead package has a price list: set its pricing to PER_LEAD first',
    );
  try {
    await db.transaction((tx) => replacePriceRules(tx, packageId, list.rules));
  } catch (error) {
    if (foreignKeyViolation(error)) throw badRequest('A rule names a source that does not exist');
    throw error;
  }
  return { rules: await findPriceRules(db, packageId) };
}

function foreignKeyViolation(error: unknown): boolean {
  let current = error as { code?: string; cause?: unknown } | undefined;
  while (current) {
    if (current.code === '23503') return true;
    current = current.cause as typeof current;
  }
  return false;
}
