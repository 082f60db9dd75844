/**
 * SMS as a port (docs/decisions/023-events-and-job-registry.md): the telephony module's Twilio
 * implementation, passed in by app.ts, or null when Twilio is not configured.
 */
export interface SmsSender {
  /** Sends one SMS; answers the provider's message id. */
  send(to: string, body: string): Promise<string>;
}
