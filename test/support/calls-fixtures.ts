/** Shared set-up of the follow-up and call tests (docs/domain.md, Follow-up messages and calls): Twilio's stand-in, agents, leads. */
import { callingWindow } from '../../src/shared/calling-window';
import { createPackage, insertLeads, subscribe } from './admin-fixtures';
import { type Client, registerAgent, type TestContext } from './test-app';
import type { TwilioStandIn } from './twilio-stand-in';

export const PUBLIC_URL = 'https://leads.example.com';

/** The stand-in's callbacks go into the app (no listening server in API tests). */
export function deliverInto(ctx: TestContext, standIn: TwilioStandIn): void {
  standIn.deliver = async (url, params, signature) => {
    const target = new URL(url);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      },
      payload: new URLSearchParams(params).toString(),
    });
    return { status: res.statusCode, body: res.body };
  };
}

/**
 * A fixed-offset zone (Etc/GMT±N) whose local time is now well inside (10:00-18:59) or well
 * outside (00:00-05:59) the 8:00-21:00 calling window: the gates are tested at the real time.
 */
export function zoneWhere(callable: boolean, now = new Date()): string {
  for (let offset = -12; offset <= 14; offset++) {
    const zone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    const hour = Number(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hour: 'numeric',
        hourCycle: 'h23',
      }).format(now),
    );
    const inside = hour >= 10 && hour <= 18;
    const outside = hour >= 0 && hour <= 5;
    if (callable ? inside : outside) {
      if (callingWindow(zone, 'TX', now).callableNow !== callable) continue;
      return zone;
    }
  }
  throw new Error('no zone found');
}

let phoneSeq = 0;
/** A distinct valid US number per call (555-01xx numbers are not valid for libphonenumber). */
export function uniquePhone(): string {
  phoneSeq += 1;
  const n = (process.pid * 37 + phoneSeq) % 10_000;
  return `+1212${String(200 + (phoneSeq % 700)).padStart(3, '0')}${String(n).padStart(4, '0')}`;
}

/**
 * Verifies the agent's saved phone as the agent does: asks for a code (the stand-in receives the
 * SMS), reads it from the message, sends it back.
 */
export async function verifyPhone(client: Client, twilio: TwilioStandIn): Promise<void> {
  const sent = await client.post('/api/agent/profile/phone/verify');
  if (sent.statusCode !== 202) throw new Error(sent.body);
  const to = sent.json().phone as string;
  const message = [...twilio.messages.values()].filter((m) => m.To === to).at(-1);
  const code = message?.Body?.match(/code is (\d{6})/)?.[1];
  if (!code) throw new Error(`no code sent to ${to}`);
  const confirmed = await client.post('/api/agent/profile/phone/confirm', { code });
  if (confirmed.statusCode !== 200) throw new Error(confirmed.body);
}

export async function servicedAgent(
  ctx: TestContext,
  opts: {
    followUp?: boolean;
    callRecording?: boolean;
    phone?: string | null;
    name?: string;
    /** verify the phone through this stand-in (click-to-call rings verified phones only) */
    verifyWith?: TwilioStandIn;
  } = {},
) {
  const agent = await registerAgent(ctx.app, opts.name ?? 'Dana Agent');
  const pkg = await createPackage(ctx, {
    serviceFollowUpMessage: opts.followUp ?? true,
    serviceCallRecording: opts.callRecording ?? true,
    leadsPerDay: 50,
  });
  await subscribe(ctx, agent.id, pkg.id);
  const phone = opts.phone === undefined ? '+13055550123' : opts.phone;
  if (phone) {
    const res = await agent.client.put('/api/agent/profile', { phone });
    if (res.statusCode !== 200) throw new Error(res.body);
    if (opts.verifyWith) await verifyPhone(agent.client, opts.verifyWith);
  }
  return { ...agent, packageId: pkg.id };
}

/** A lead with consent, a phone and an email, in a zone callable now (unless said). */
export async function consentedLead(
  ctx: TestContext,
  overrides: Parameters<typeof insertLeads>[1][number] = {},
) {
  const [lead] = await insertLeads(ctx, [
    {
      firstName: 'Maria',
      lastName: 'Lopez',
      phone: uniquePhone(),
      email: `maria-${process.pid}-${++phoneSeq}@example.com`,
      state: 'TX',
      timeZone: zoneWhere(true),
      consentAt: new Date(),
      ...overrides,
    },
  ]);
  return lead!;
}
