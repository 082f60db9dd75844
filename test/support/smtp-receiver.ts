/**
 * A real SMTP receiver on loopback for the tests of what LeadFlow emails (lead deliveries,
 * return decisions, follow-ups): every message parsed back with mailparser, with its recipients
 * and when it was accepted.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  mail: ParsedMail;
  to: string[];
  /** Date.now() when the message was accepted */
  at: number;
}

export class SmtpReceiver {
  readonly inbox: ReceivedMail[] = [];
  private server: SMTPServer | null = null;

  /** Listens on a free loopback port; answers the SMTP_URL that reaches it. */
  async start(): Promise<string> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const at = Date.now();
        simpleParser(stream)
          .then((mail) => {
            this.inbox.push({ mail, to: session.envelope.rcptTo.map((r) => r.address), at });
            callback();
          })
          .catch(callback);
      },
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
