import { randomBytes } from 'node:crypto';
import { hashToken } from './sessions.repository';

/**
 * A link's secret (a password reset, an invite): 32 random bytes in base64url, as random as a
 * session token, so its SHA-256 is all that is stored.
 */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** The portal's page a link opens, with its token: PUBLIC_URL/reset-password?token=... */
export function linkUrl(publicUrl: string, page: string, param: string, token: string): string {
  return `${publicUrl}/${page}?${param}=${encodeURIComponent(token)}`;
}
