import type { Lead } from '@shared/contracts/leads';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { WhenText } from '@web/features/delivery/components/when-text';
import type { ReactNode } from 'react';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 wrap-anywhere">{children}</dd>
    </div>
  );
}

/** An http(s) address only: a certificate URL is shown as a link, anything else as text. */
function safeUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A date alone (the certificate's expiry), in the business time zone: "Nov 27, 2029". */
function dayOf(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleDateString('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}

/**
 * The consumer's consent as the lead's source recorded it (docs/domain.md, Do-not-call list and consent): when, the TrustedForm
 * certificate, the Jornaya LeadiD, the IP and the words agreed to, and whether TrustedForm verified
 * it when the lead came in (docs/domain.md, Consent verified at intake). Shown in both lead drawers.
 */
export function LeadConsent({ lead }: { lead: Lead }) {
  const timeZone = useBusinessTimeZone();
  const recorded =
    lead.consentAt !== null ||
    lead.trustedFormCertUrl !== null ||
    lead.jornayaLeadId !== null ||
    lead.consentIp !== null ||
    lead.consentText !== null ||
    lead.consentOutcome !== null;
  const certUrl = lead.trustedFormCertUrl ? safeUrl(lead.trustedFormCertUrl) : null;
  return (
    <section aria-labelledby="lead-consent-title" className="space-y-2" data-testid="lead-consent">
      <h3 id="lead-consent-title" className="font-medium text-sm">
        Consent
      </h3>
      {lead.anonymizedAt !== null && (
        <p className="rounded-lg border border-dashed p-3 text-sm" data-testid="lead-anonymized">
          The consumer's data was deleted on {dayOf(lead.anonymizedAt, timeZone)}: their name,
          contact, address and consent are gone; the status and history stay.
        </p>
      )}
      {!recorded ? (
        lead.anonymizedAt === null && (
          <p className="text-muted-foreground text-sm">No consent recorded</p>
        )
      ) : (
        <dl className="space-y-1.5 rounded-lg border p-3 text-sm">
          {lead.consentAt && (
            <Row label="Consent given">
              <WhenText iso={lead.consentAt} timeZone={timeZone} />
            </Row>
          )}
          <Row label="Verification">
            {lead.consentOutcome === 'VERIFIED' ? (
              <span data-testid="consent-verified">
                Verified by TrustedForm
                {lead.consentExpiresAt &&
                  `, certificate kept until ${dayOf(lead.consentExpiresAt, timeZone)}`}
              </span>
            ) : (
              <span className="text-muted-foreground" data-testid="consent-unchecked">
                Not checked: kept as the source recorded it
              </span>
            )}
          </Row>
          {lead.trustedFormCertUrl && (
            <Row label="TrustedForm">
              {certUrl ? (
                <a
                  href={certUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-primary underline underline-offset-4"
                >
                  View certificate
                </a>
              ) : (
                lead.trustedFormCertUrl
              )}
            </Row>
          )}
          {lead.jornayaLeadId && (
            <Row label="Jornaya LeadiD">
              <span className="font-mono text-xs">{lead.jornayaLeadId}</span>
            </Row>
          )}
          {lead.consentIp && (
            <Row label="IP address">
              <span className="font-mono text-xs">{lead.consentIp}</span>
            </Row>
          )}
          {lead.consentText && (
            <Row label="Consent text">
              <span className="whitespace-pre-line">{lead.consentText}</span>
            </Row>
          )}
        </dl>
      )}
    </section>
  );
}
