/**
 * Twilio (docs/domain.md, Follow-up messages and calls): the official SDK, configured when TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and
 * TWILIO_FROM_NUMBER are set; else SMS and voice are "not configured" and nothing is sent.
 * TWILIO_API_BASE points the SDK's `api` domain (Messages, Calls) and the recording downloads at
 * a stand-in of Twilio's REST API (tests only; decision 020).
 */
import twilio from 'twilio';
import type { AppConfig } from '../../config/env';

export type TwilioConfig = Pick<
  AppConfig,
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'TWILIO_FROM_NUMBER'
  | 'TWILIO_API_BASE'
  | 'PUBLIC_URL'
>;

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  fromNumber: string;
  /** https://api.twilio.com, or the stand-in's base */
  apiBase: string;
  /** where Twilio reaches our callbacks (PUBLIC_URL) */
  publicUrl: string;
}

export function twilioSettings(config: TwilioConfig): TwilioSettings | null {
  if (!config.TWILIO_ACCOUNT_SID || !config.TWILIO_AUTH_TOKEN || !config.TWILIO_FROM_NUMBER)
    return null;
  return {
    accountSid: config.TWILIO_ACCOUNT_SID,
    authToken: config.TWILIO_AUTH_TOKEN,
    fromNumber: config.TWILIO_FROM_NUMBER,
    apiBase: (config.TWILIO_API_BASE ?? 'https://api.twilio.com').replace(/\/+$/, ''),
    publicUrl: config.PUBLIC_URL,
  };
}

export type TwilioClient = ReturnType<typeof twilio>;

const clients = new Map<string, TwilioClient>();

/** One SDK client per account and base; Messages and Calls go to `apiBase`. */
export function twilioClient(settings: TwilioSettings): TwilioClient {
  const key = `${settings.accountSid}@${settings.apiBase}`;
  let client = clients.get(key);
  if (!client) {
    client = twilio(settings.accountSid, settings.authToken, { timeout: 15_000 });
    // the SDK builds each request's URL from its domain's baseUrl (base/Domain.absoluteUrl)
    client.api.baseUrl = settings.apiBase;
    clients.set(key, client);
  }
  return client;
}

/** X-Twilio-Signature over PUBLIC_URL + the request's path and query and its POST params. */
export function validTwilioSignature(
  settings: TwilioSettings,
  signature: string | undefined,
  pathAndQuery: string,
  params: Record<string, string>,
): boolean {
  if (!signature) return false;
  return twilio.validateRequest(
    settings.authToken,
    signature,
    `${settings.publicUrl}${pathAndQuery}`,
    params,
  );
}

/** The recording's media on the provider, fetched with the account's credentials. */
export function recordingMediaUrl(settings: TwilioSettings, recordingSid: string): string {
  return `${settings.apiBase}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Recordings/${encodeURIComponent(recordingSid)}.wav`;
}

export function basicAuth(settings: TwilioSettings): string {
  return `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
}

export const { VoiceResponse } = twilio.twiml;
