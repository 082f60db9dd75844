import type {
  OfferedPackage,
  Package,
  PackageBody,
  PackageService,
} from '../../../shared/contracts/packages';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import {
  findPackage,
  insertPackage,
  listPackages,
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
