/**
 * Email as a port (docs/decisions/023-events-and-job-registry.md): what a module may send. The
 * SMTP implementation is the delivery module's (its pooled transport of SMTP_URL); app.ts passes
 * it in, or null when SMTP_URL is not set.
 */
export interface EmailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
}

export interface EmailSender {
  /** Sends one message; answers the provider's message id (null if it gave none). */
  send(message: EmailMessage): Promise<string | null>;
}
