/**
 * TrustedForm's Certificate API v4, the one call LeadFlow makes (docs/domain.md, Consent verified
 * at intake; docs/decisions/037-consent-verification.md). Every shape of TrustedForm's request
 * and answer is in this file, so that a change on their side is a change here only:
 *
 *   POST https://cert.trustedform.com/<certificate id>
 *   api-version: 4.0, Content-Type: application/json, Basic auth user "API", password the key
 *   {"retain": {"reference", "vendor"}, "match_lead": {"email", "phone"}}
 *
 *   200 {"outcome": "success" | "failure", "reason", "retain": {"result": {"expires_at"}},
 *        "match_lead": {"result": {"success", "email_match", "phone_match"}}}
 *        (outcome is "success" only when every operation, the match too, succeeded)
 *   200 {"outcome": "failure", "reason": "... expired ..."}    an expired certificate
 *   404 {"outcome": "failure", "reason"}                       no such certificate
 *   401                                                        a bad key (our fault: unavailable)
 *   410, or any answer with outcome "failure" naming an expiry: expired
 *   5xx, a timeout, no connection: unavailable (nothing decided)
 */

/** The only host a certificate URL may name (SECURITY.md, the certificate URL). */
export const TRUSTEDFORM_CERT_HOST = 'cert.trustedform.com';

/** How long one call may take before the check counts as unavailable. */
export const TRUSTEDFORM_TIMEOUT_MS = 5000;

export interface CertificateCheck {
  certUrl: string;
  apiKey: string;
  /** TRUSTEDFORM_API_BASE: the origin the call goes to instead of the certificate URL's */
  apiBase?: string;
  /** our reference for the lead (the source's externalId, else a line or request reference) */
  reference: string;
  /** the source's name */
  vendor: string;
  email: string | null;
  phone: string | null;
  timeoutMs?: number;
}

export type CertificateAnswer =
  /** retained, and the lead's phone or email matched */
  | { kind: 'verified'; expiresAt: string | null }
  /** the certificate does not back this lead: the lead is refused */
  | { kind: 'refused'; message: string }
  /** TrustedForm could not be asked (down, slow, refused our key): nothing is decided */
  | { kind: 'unavailable'; message: string };

/**
 * The certificate URL as a call target: its own URL, with the origin swapped for `apiBase` when
 * one is configured. null when it is not an https URL on cert.trustedform.com (the server makes
 * no call to any other host: SSRF).
 */
export function certificateTarget(certUrl: string, apiBase?: string): URL | null {
  let url: URL;
  try {
    url = new URL(certUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.hostname !== TRUSTEDFORM_CERT_HOST) return null;
  if (url.username !== '' || url.password !== '' || url.port !== '') return null;
  if (!/^\/[A-Za-z0-9]{20,80}\/?$/.test(url.pathname)) return null;
  const id = url.pathname.replace(/^\/|\/$/g, '');
  const base = apiBase ? new URL(apiBase) : new URL(`https://${TRUSTEDFORM_CERT_HOST}`);
  return new URL(`/${id}`, base);
}

/** Retains the certificate and matches it against the lead (one POST). */
export async function retainAndMatch(check: CertificateCheck): Promise<CertificateAnswer> {
  const target = certificateTarget(check.certUrl, check.apiBase);
  if (!target) return { kind: 'refused', message: 'not a TrustedForm certificate URL' };
  const matchLead: Record<string, string> = {};
  if (check.email) matchLead.email = check.email;
  if (check.phone) matchLead.phone = check.phone;
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(target, {
      method: 'POST',
      redirect: 'error',
      signal: AbortSignal.timeout(check.timeoutMs ?? TRUSTEDFORM_TIMEOUT_MS),
      headers: {
        'api-version': '4.0',
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`API:${check.apiKey}`).toString('base64')}`,
      },
      body: JSON.stringify({
        retain: { reference: check.reference, vendor: check.vendor },
        match_lead: matchLead,
      }),
    });
    body = await response.json().catch(() => null);
  } catch {
    return { kind: 'unavailable', message: 'TrustedForm did not answer' };
  }
  const answer = (body ?? {}) as TrustedFormAnswer;
  const failed = answer.outcome === 'failure';
  const reason = answer.reason ?? '';
  if (response.status === 401 || response.status === 403) {
    return { kind: 'unavailable', message: 'TrustedForm refused the API key' };
  }
  if (response.status === 404) {
    return { kind: 'refused', message: 'the TrustedForm certificate is unknown' };
  }
  if (response.status === 410 || (failed && /expire/i.test(reason))) {
    return { kind: 'refused', message: 'the TrustedForm certificate has expired' };
  }
  if (response.status !== 200) {
    return { kind: 'unavailable', message: `TrustedForm answered ${response.status}` };
  }
  const match = answer.match_lead?.result ?? {};
  if (match.success !== true || (match.email_match !== true && match.phone_match !== true)) {
    return {
      kind: 'refused',
      message: "the TrustedForm certificate does not match the lead's phone or email",
    };
  }
  if (answer.outcome !== 'success') {
    return {
      kind: 'refused',
      message: `the TrustedForm certificate was not accepted${reason ? `: ${reason.slice(0, 200)}` : ''}`,
    };
  }
  const expiresAt = answer.retain?.result?.expires_at;
  const at = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
  // retained, but no longer kept by TrustedForm: as good as expired
  if (!Number.isNaN(at) && at <= Date.now()) {
    return { kind: 'refused', message: 'the TrustedForm certificate has expired' };
  }
  return { kind: 'verified', expiresAt: Number.isNaN(at) ? null : new Date(at).toISOString() };
}

/** The parts of TrustedForm's answer read here. */
interface TrustedFormAnswer {
  outcome?: string;
  reason?: string | null;
  retain?: { result?: { expires_at?: unknown; previously_retained?: boolean } };
  match_lead?: { result?: { success?: boolean; email_match?: boolean; phone_match?: boolean } };
}
