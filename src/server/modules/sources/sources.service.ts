/**
 * Lead sources (docs/domain.md, Sources and the intake API): where leads come from. Admins create, rename, price and deactivate
 * them; imports and the intake API name them. A source is never deleted: its leads keep it.
 */
import type { Source, SourceBody, SourcePatchBody } from '../../../shared/contracts/sources';
import type { ConsentVerification } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import {
  findSourceActive,
  findSourceConsentRow,
  findSourceRow,
  insertSource,
  listSourceRows,
  updateSource,
} from './sources.repository';

export function listSources(db: Db): Promise<Source[]> {
  return listSourceRows(db);
}

export async function getSource(db: Db, id: number): Promise<Source> {
  const source = await findSourceRow(db, id);
  if (!source) throw notFound('Source');
  return source;
}

const nameTaken = (name: string) => conflict(`A source named '${name}' already exists`);

export async function createSource(
  db: Db,
  body: SourceBody,
  opts: { trustedFormConfigured: boolean },
): Promise<Source> {
  requireTrustedForm(body, opts);
  const id = await insertSource(db, body);
  if (id === null) throw nameTaken(body.name);
  return getSource(db, id);
}

/**
 * Changes the name, the cost per lead, whether the source is active (false: deactivated) or
 * whether its leads' consent is verified with TrustedForm.
 */
export async function editSource(
  db: Db,
  id: number,
  body: SourcePatchBody,
  opts: { trustedFormConfigured: boolean },
): Promise<Source> {
  requireTrustedForm(body, opts);
  const outcome = await updateSource(db, id, body);
  if (outcome === 'missing') throw notFound('Source');
  if (outcome === 'taken') throw nameTaken(body.name ?? '');
  return getSource(db, id);
}

/** TRUSTEDFORM needs TrustedForm's key: without it every lead of the source would be answered 503. */
function requireTrustedForm(body: SourcePatchBody, opts: { trustedFormConfigured: boolean }): void {
  if (body.consentVerification === 'TRUSTEDFORM' && !opts.trustedFormConfigured) {
    throw conflict(
      'TrustedForm is not configured on this server (TRUSTEDFORM_API_KEY): consent verification cannot be turned on',
    );
  }
}

/**
 * For an import that names a source: it must exist and be active, else the upload is refused
 * (400) before a row is read.
 */
export async function requireActiveSource(db: Db, id: number): Promise<void> {
  const active = await findSourceActive(db, id);
  if (active === null) throw badRequest(`Unknown source: there is no source with id ${id}`);
  if (!active) {
    throw badRequest(
      `Source ${id} is inactive: activate it on the Sources screen or choose another source`,
    );
  }
}

/** What the source asks of its leads' consent (docs/domain.md, Consent verified at intake); null: no such source. */
export function findSourceConsent(
  db: Db,
  id: number,
): Promise<{ name: string; consentVerification: ConsentVerification } | null> {
  return findSourceConsentRow(db, id);
}
