/**
 * The email channel (docs/domain.md, Delivery of assigned leads): nodemailer over SMTP_URL from MAIL_FROM. One email per new lead,
 * or one digest when an assignment gives the agent more than DIGEST_OVER at once.
 */

import nodemailer, { type Transporter } from 'nodemailer';
import { formatPhone } from '../../../shared/phone';
import type { EmailSender } from '../../lib/email-sender';

export const DIGEST_OVER = 3;

/** The agent's leads page (src/web/app/paths.ts: paths.agent.leads). */
const LEADS_PATH = '/dashboard/leads';

export interface EmailLead {
  id: number;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  city: string;
  state: string;
  category: string;
}

export interface EmailResult {
  ok: boolean;
  retryable: boolean;
  /** the SMTP reply code when the server answered one */
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
  messageId: string | null;
}

const transports = new Map<string, Transporter>();

export function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    // pooled: a few connections kept open and reused, not a TCP and SMTP handshake per email
    // a server silent this long ends the attempt: a send stays within its lease (decision 040)
    transport = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 5,
      connectionTimeout: EMAIL_TIME_LIMIT_MS,
      greetingTimeout: EMAIL_TIME_LIMIT_MS,
      socketTimeout: EMAIL_TIME_LIMIT_MS,
    });
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/** How long an SMTP server may stay silent before the attempt fails (a retryable failure). */
export const EMAIL_TIME_LIMIT_MS = 10_000;

/** The EmailSender port over SMTP_URL's pooled transport; null when SMTP is not configured. */
export function smtpEmailSender(smtpUrl: string | undefined): EmailSender | null {
  if (!smtpUrl) return null;
  return {
    async send(message) {
      const info = await transportFor(smtpUrl).sendMail(message);
      return info.messageId ?? null;
    },
  };
}

/** Closes the pooled SMTP connections (at shutdown). */
export function closeEmailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function leadName(lead: EmailLead): string {
  return [lead.firstName, lead.lastName].filter(Boolean).join(' ') || `Lead #${lead.id}`;
}

export function leadLink(publicUrl: string, leadId: number): string {
  return `${publicUrl}${LEADS_PATH}?lead=${leadId}`;
}

/** tel: keeps digits and a leading +: a phone written with spaces or dashes still dials. */
function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

function leadLines(lead: EmailLead, publicUrl: string) {
  const name = leadName(lead);
  const place = `${lead.city}, ${lead.state}`;
  const link = leadLink(publicUrl, lead.id);
  const text = [
    name,
    lead.phone ? `Phone: ${formatPhone(lead.phone)} (${telHref(lead.phone)})` : 'Phone: not given',
    `Where: ${place}`,
    `Category: ${lead.category}`,
    `Open it: ${link}`,
  ].join('\n');
  const html = `<p><strong>${escapeHtml(name)}</strong><br>
${lead.phone ? `Phone: <a href="${escapeHtml(telHref(lead.phone))}">${escapeHtml(formatPhone(lead.phone))}</a><br>` : ''}
Where: ${escapeHtml(place)}<br>
Category: ${escapeHtml(lead.category)}<br>
<a href="${escapeHtml(link)}">Open the lead in LeadFlow</a></p>`;
  return { text, html };
}

export function composeLeadEmail(leads: EmailLead[], publicUrl: string) {
  const parts = leads.map((lead) => leadLines(lead, publicUrl));
  const subject =
    leads.length === 1
      ? `New lead: ${leadName(leads[0]!)} (${leads[0]!.city}, ${leads[0]!.state})`
      : `${leads.length} new leads in LeadFlow`;
  const intro = leads.length === 1 ? 'You have a new lead.' : `You have ${leads.length} new leads.`;
  const listLink = `${publicUrl}${LEADS_PATH}`;
  return {
    subject,
    text: `${intro}\n\n${parts.map((p) => p.text).join('\n\n')}\n\nAll your leads: ${listLink}\n`,
    html: `<p>${intro}</p>\n${parts.map((p) => p.html).join('\n')}\n<p><a href="${escapeHtml(listLink)}">All your leads</a></p>`,
  };
}

/** SMTP 5xx is a permanent refusal; 4xx and connection trouble may pass later. */
function smtpCode(err: unknown): number | null {
  const code = (err as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' ? code : null;
}

export async function sendLeadEmail(
  smtpUrl: string,
  from: string,
  to: string,
  leads: EmailLead[],
  publicUrl: string,
): Promise<EmailResult> {
  const started = performance.now();
  const mail = composeLeadEmail(leads, publicUrl);
  try {
    const info = await transportFor(smtpUrl).sendMail({ from, to, ...mail });
    return {
      ok: true,
      retryable: false,
      responseCode: Number.parseInt(String(info.response ?? '250'), 10) || 250,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      messageId: info.messageId ?? null,
    };
  } catch (err) {
    const code = smtpCode(err);
    return {
      ok: false,
      retryable: code === null || code < 500,
      responseCode: code,
      latencyMs: Math.round(performance.now() - started),
      error: err instanceof Error ? err.message : String(err),
      messageId: null,
    };
  }
}
