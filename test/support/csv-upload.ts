import { PassThrough } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Client } from './test-app';

/** POST /api/admin/leads/import with `csv` as the form's file, as the browser sends it. */
export function uploadCsv(
  client: Client,
  csv: string | Uint8Array<ArrayBuffer>,
  filename = 'leads.csv',
  type = 'text/csv',
) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type }), filename);
  return client.request('POST', '/api/admin/leads/import', form);
}

/**
 * An upload still arriving: the multipart head and `first` (the CSV's start) are sent at once;
 * `finish(rest)` sends the rest and the closing boundary; `answer` is the import's answer.
 */
export function streamedUpload(
  app: FastifyInstance,
  client: Client,
  filename: string,
  first: string,
): { answer: Promise<LightMyRequestResponse>; finish(rest: string): void } {
  const boundary = `----lf${Date.now()}`;
  const body = new PassThrough();
  const answer = app.inject({
    method: 'POST',
    url: '/api/admin/leads/import',
    headers: {
      cookie: client.cookie ?? '',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: body,
  });
  body.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: text/csv\r\n\r\n${first}`,
  );
  return {
    answer,
    finish(rest: string) {
      if (!body.writableEnded) body.end(`${rest}\r\n--${boundary}--\r\n`);
    },
  };
}
