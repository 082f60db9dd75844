/**
 * Uploads a file to the import route with curl as a child process: the file is streamed from disk
 * as a multipart body, exactly as a browser or script would send it, and curl's own CPU stays out
 * of the bench process.
 */
import { spawn } from 'node:child_process';

export interface UploadResult {
  status: number;
  body: unknown;
  ms: number;
  uploadedBytes: number;
}

export function uploadCsv(
  url: string,
  cookie: string,
  filePath: string,
  filename = 'leads.csv',
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      'curl',
      [
        '-sS',
        '-H',
        `cookie: ${cookie}`,
        // no "Expect: 100-continue" round trip before the body
        '-H',
        'Expect:',
        '-F',
        `file=@${filePath};type=text/csv;filename=${filename}`,
        '-w',
        '\n%{http_code} %{size_upload}',
        url,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`curl exit ${code}: ${err}`));
        return;
      }
      const cut = out.lastIndexOf('\n');
      const [status, size] = out.slice(cut + 1).split(' ');
      const text = out.slice(0, cut);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      resolve({ status: Number(status), body, ms, uploadedBytes: Number(size) });
    });
  });
}
