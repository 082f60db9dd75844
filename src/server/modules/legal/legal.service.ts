/** The footer's legal pages (docs/domain.md, Legal pages): read by anyone, written by admins. */
import {
  LEGAL_PAGE_TITLES,
  type LegalPage,
  type LegalPageName,
} from '../../../shared/contracts/legal';
import type { Db } from '../../db/client';
import { findLegalPage, upsertLegalPage } from './legal.repository';

function toLegalPage(
  page: LegalPageName,
  row: { body: string; updatedAt: Date } | null,
): LegalPage {
  return {
    page,
    title: LEGAL_PAGE_TITLES[page],
    body: row?.body ?? '',
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

export async function legalPageOf(db: Db, page: LegalPageName): Promise<LegalPage> {
  return toLegalPage(page, await findLegalPage(db, page));
}

/** An admin's text for the page; surrounding blank lines are dropped, the rest kept as typed. */
export async function saveLegalPage(
  db: Db,
  page: LegalPageName,
  body: string,
  userId: number,
): Promise<LegalPage> {
  return toLegalPage(page, await upsertLegalPage(db, page, body.trim(), userId));
}
