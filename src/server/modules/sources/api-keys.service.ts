/**
 * A source's API keys (docs/domain.md, Sources and the intake API; SECURITY.md "Intake API keys"): `lf_live_` + 32 random bytes in
 * base64url, shown once in the answer that creates it, stored only as its sha256 (a key is as
 * random as a session token, so a fast hash is enough: nothing to brute-force), listed by prefix.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey, CreatedApiKey } from '../../../shared/contracts/sources';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import {
  insertKey,
  type KeyRequest,
  listKeyRows,
  revokeKeyRow,
  takeKeyRequest,
} from './api-keys.repository';
import { getSource } from './sources.service';

export const API_KEY_PREFIX = 'lf_live_';
/** what lists show: the fixed prefix and 8 random characters */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function createApiKey(db: Db, sourceId: number): Promise<CreatedApiKey> {
  await getSource(db, sourceId); // 404 for an unknown source
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertKey(db, {
    sourceId,
    keyHash: hashApiKey(key),
    prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
  });
  return { ...row, key };
}

export async function listApiKeys(db: Db, sourceId: number): Promise<ApiKey[]> {
  await getSource(db, sourceId);
  return listKeyRows(db, sourceId);
}

export async function revokeApiKey(db: Db, sourceId: number, keyId: number): Promise<ApiKey> {
  const row = await revokeKeyRow(db, sourceId, keyId);
  if (!row) throw notFound('API key');
  return row;
}

export type { KeyRequest };

/**
 * The key a bearer token names, with one request counted against its rate (`perSecond`, a
 * second's worth at once) when it is usable, in the database so that every process counts
 * together; null for a token that is no key at all.
 */
export function takeApiKeyRequest(
  db: Db,
  token: string,
  perSecond: number,
): Promise<KeyRequest | null> {
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return Promise.resolve(null);
  return takeKeyRequest(db, hashApiKey(token), perSecond);
}
