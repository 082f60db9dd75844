/**
 * A stand-in of the parts of Twilio's REST API that LeadFlow calls, on loopback, for the real
 * `twilio` SDK (TWILIO_API_BASE): Messages.json and Calls.json (form-encoded, HTTP Basic auth with
 * the account SID and auth token, recorded), and a recording's media (a small WAV, Basic auth
 * checked, Range served). It sends the callbacks Twilio would send, signed as Twilio signs them
 * (X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted POST params, by the SDK's own
 * getExpectedTwilioSignature): message status, inbound SMS, and a whole call (agent answers,
 * connect TwiML fetched and read, the bridge's outcome, the recording, the call completed).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';

export interface TwilioRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  /** the StatusCallbackEvent values (repeated keys) */
  events?: string[];
}

export interface CallbackResult {
  url: string;
  params: Record<string, string>;
  status: number;
  body: string;
}

/** Sends a signed callback to `url`: over HTTP by default; tests may inject it into the app. */
export type Deliver = (
  url: string,
  params: Record<string, string>,
  signature: string,
) => Promise<{ status: number; body: string }>;

const httpDeliver: Deliver = async (url, params, signature) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
      'user-agent': 'TwilioProxy/1.1',
    },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, body: await res.text() };
};

/** One second of a 440 Hz tone, 8 kHz 16-bit mono PCM: a valid WAV file. */
export function toneWav(seconds = 1, rate = 8000): Buffer {
  const samples = seconds * rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export class TwilioStandIn {
  readonly requests: TwilioRequest[] = [];
  readonly messages = new Map<string, Record<string, string>>();
  readonly calls = new Map<string, Record<string, string>>();
  readonly recordings = new Map<string, Buffer>();
  /** every callback sent, with the app's answer */
  readonly callbacks: CallbackResult[] = [];
  /** refuse the next Messages or Calls request with this Twilio error */
  refuseNext: { status: number; code: number; message: string } | null = null;
  deliver: Deliver = httpDeliver;
  base = '';
  private server: Server | null = null;
  private seq = 0;

  constructor(
    readonly accountSid = 'AC00000000000000000000000000000001',
    readonly authToken = 'stand-in-auth-token',
    readonly fromNumber = '+15005550006',
  ) {}

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.json(res, 500, { code: 20500, message: String(err), status: 500 });
      });
    });
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private sid(prefix: string): string {
    this.seq += 1;
    return `${prefix}${process.pid.toString(16).padStart(8, '0')}${String(this.seq).padStart(24, '0')}`;
  }

  /** The signature Twilio would send with these params to this URL. */
  sign(url: string, params: Record<string, string>): string {
    return twilio.getExpectedTwilioSignature(this.authToken, url, params);
  }

  /** Posts a callback signed as Twilio signs it (or with `signature` to forge one). */
  async callback(
    url: string,
    params: Record<string, string>,
    signature = this.sign(url, params),
  ): Promise<CallbackResult> {
    const answer = await this.deliver(url, params, signature);
    const result = { url, params, ...answer };
    this.callbacks.push(result);
    return result;
  }

  private authorized(req: IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  private json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.base);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString());
    const params = Object.fromEntries(form);
    const request: TwilioRequest = { method: req.method ?? 'GET', path: url.pathname, params };
    if (form.getAll('StatusCallbackEvent').length > 0)
      request.events = form.getAll('StatusCallbackEvent');
    this.requests.push(request);
    if (!this.authorized(req)) {
      this.json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
      return;
    }
    const account = `/2010-04-01/Accounts/${this.accountSid}`;
    const recording = url.pathname.match(/\/Recordings\/(RE\w+)\.(wav|mp3)$/);
    if (req.method === 'GET' && recording && url.pathname.startsWith(account)) {
      this.serveRecording(req, res, recording[1]!);
      return;
    }
    // DELETE /Recordings/{Sid}.json: 204, or Twilio's 404 for a recording it does not have
    const removal = url.pathname.match(/\/Recordings\/(RE\w+)\.json$/);
    if (req.method === 'DELETE' && removal && url.pathname.startsWith(account)) {
      if (this.recordings.delete(removal[1]!)) {
        res.writeHead(204);
        res.end();
      } else {
        this.json(res, 404, {
          code: 20404,
          message: `The requested resource ${url.pathname} was not found`,
          status: 404,
        });
      }
      return;
    }
    if (req.method !== 'POST') {
      this.json(res, 404, { code: 20404, message: 'Not found', status: 404 });
      return;
    }
    if (this.refuseNext) {
      const refusal = this.refuseNext;
      this.refuseNext = null;
      this.json(res, refusal.status, { ...refusal, more_info: 'https://www.twilio.com/docs' });
      return;
    }
    const now = new Date().toUTCString();
    if (url.pathname === `${account}/Messages.json`) {
      const sid = this.sid('SM');
      this.messages.set(sid, params);
      this.json(res, 201, {
        sid,
        account_sid: this.accountSid,
        to: params.To,
        from: params.From,
        body: params.Body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        date_created: now,
        date_updated: now,
        uri: `${account}/Messages/${sid}.json`,
      });
      return;
    }
    if (url.pathname === `${account}/Calls.json`) {
      const sid = this.sid('CA');
      this.calls.set(sid, params);
      this.json(res, 201, {
        sid,
        account_sid: this.accountSid,
        to: params.To,
        from: params.From,
        status: 'queued',
        direction: 'outbound-api',
        date_created: now,
        date_updated: now,
        uri: `${account}/Calls/${sid}.json`,
      });
      return;
    }
    this.json(res, 404, { code: 20404, message: `No ${url.pathname}`, status: 404 });
  }

  private serveRecording(req: IncomingMessage, res: ServerResponse, sid: string) {
    const wav = this.recordings.get(sid);
    if (!wav) {
      this.json(res, 404, { code: 20404, message: 'No recording', status: 404 });
      return;
    }
    const range = req.headers.range?.match(/^bytes=(\d*)-(\d*)$/);
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : wav.length - Number(range[2]);
      const end =
        range[1] && range[2] ? Math.min(Number(range[2]), wav.length - 1) : wav.length - 1;
      res.writeHead(206, {
        'content-type': 'audio/x-wav',
        'content-length': String(end - start + 1),
        'content-range': `bytes ${start}-${end}/${wav.length}`,
        'accept-ranges': 'bytes',
      });
      res.end(wav.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, {
      'content-type': 'audio/x-wav',
      'content-length': String(wav.length),
      'accept-ranges': 'bytes',
    });
    res.end(wav);
  }

  /** The message's status callback (delivered, failed, undelivered, sent). */
  messageStatus(sid: string, status: string, errorCode?: string): Promise<CallbackResult> {
    const message = this.messages.get(sid);
    if (!message?.StatusCallback) throw new Error(`no status callback for ${sid}`);
    return this.callback(message.StatusCallback, {
      AccountSid: this.accountSid,
      MessageSid: sid,
      SmsSid: sid,
      MessageStatus: status,
      SmsStatus: status,
      From: message.From ?? this.fromNumber,
      To: message.To ?? '',
      ApiVersion: '2010-04-01',
      ...(errorCode ? { ErrorCode: errorCode } : {}),
    });
  }

  /** An SMS from `from` to our number, posted to the app's inbound webhook. */
  inboundSms(url: string, from: string, body: string): Promise<CallbackResult> {
    const sid = this.sid('SM');
    return this.callback(url, {
      AccountSid: this.accountSid,
      MessageSid: sid,
      SmsMessageSid: sid,
      SmsSid: sid,
      From: from,
      To: this.fromNumber,
      Body: body,
      NumMedia: '0',
      NumSegments: '1',
      ApiVersion: '2010-04-01',
    });
  }

  private callStatus(sid: string, status: string, extra: Record<string, string> = {}) {
    const call = this.calls.get(sid)!;
    return this.callback(call.StatusCallback!, {
      AccountSid: this.accountSid,
      CallSid: sid,
      CallStatus: status,
      From: call.From ?? '',
      To: call.To ?? '',
      Direction: 'outbound-api',
      ApiVersion: '2010-04-01',
      ...extra,
    });
  }

  /**
   * Plays a call through: the agent's phone rings and answers (or not), the connect TwiML is
   * fetched and read (its <Say> and <Dial>), the lead answers (or not) and talks `seconds`, the
   * recording is made and announced, and the call completes. Returns the TwiML read.
   */
  async playCall(
    sid: string,
    opts: { agentAnswers?: boolean; leadAnswers?: boolean; seconds?: number } = {},
  ): Promise<{
    twiml: string;
    say: string | null;
    dial: Record<string, string> | null;
    number: string | null;
    recordingSid: string | null;
  }> {
    const { agentAnswers = true, leadAnswers = true, seconds = 42 } = opts;
    const call = this.calls.get(sid);
    if (!call) throw new Error(`no call ${sid}`);
    await this.callStatus(sid, 'initiated');
    await this.callStatus(sid, 'ringing');
    if (!agentAnswers) {
      await this.callStatus(sid, 'no-answer', { CallDuration: '0' });
      return { twiml: '', say: null, dial: null, number: null, recordingSid: null };
    }
    await this.callStatus(sid, 'in-progress');
    const connect = await this.callback(call.Url!, {
      AccountSid: this.accountSid,
      CallSid: sid,
      CallStatus: 'in-progress',
      From: call.From ?? '',
      To: call.To ?? '',
      Direction: 'outbound-api',
      ApiVersion: '2010-04-01',
    });
    const twiml = connect.body;
    const say = twiml.match(/<Say[^>]*>([^<]*)<\/Say>/)?.[1] ?? null;
    const dialTag = twiml.match(/<Dial([^>]*)>/)?.[1];
    const dial = dialTag
      ? Object.fromEntries(
          [...dialTag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [
            m[1]!,
            m[2]!.replace(/&amp;/g, '&'),
          ]),
        )
      : null;
    const number = twiml.match(/<Number[^>]*>([^<]*)<\/Number>/)?.[1] ?? null;
    let recordingSid: string | null = null;
    if (dial) {
      const childSid = this.sid('CA');
      if (
        leadAnswers &&
        dial.record?.startsWith('record-from-answer') &&
        dial.recordingStatusCallback
      ) {
        recordingSid = this.sid('RE');
        this.recordings.set(recordingSid, toneWav(1));
      }
      if (dial.action)
        await this.callback(dial.action, {
          AccountSid: this.accountSid,
          CallSid: sid,
          DialCallSid: childSid,
          DialCallStatus: leadAnswers ? 'completed' : 'no-answer',
          DialCallDuration: leadAnswers ? String(seconds) : '0',
          CallStatus: 'in-progress',
          ApiVersion: '2010-04-01',
        });
      if (recordingSid && dial.recordingStatusCallback)
        await this.callback(dial.recordingStatusCallback, {
          AccountSid: this.accountSid,
          CallSid: sid,
          RecordingSid: recordingSid,
          RecordingUrl: `${this.base}/2010-04-01/Accounts/${this.accountSid}/Recordings/${recordingSid}`,
          RecordingStatus: 'completed',
          RecordingDuration: String(seconds),
          RecordingChannels: '2',
          RecordingSource: 'DialVerb',
          ApiVersion: '2010-04-01',
        });
    }
    await this.callStatus(sid, 'completed', { CallDuration: String(seconds + 5) });
    return { twiml, say, dial, number, recordingSid };
  }
}
