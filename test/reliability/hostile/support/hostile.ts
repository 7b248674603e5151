import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import type { TestApp } from '../../../support/app';

export const MiB = 1024 * 1024;

/** The raw answer of a request written byte for byte on a socket (what fetch and node:http refuse to send). */
export interface RawAnswer {
  status: number;
  head: string;
  json: any;
}

export function rawHttp(app: TestApp, bytes: Buffer | string): Promise<RawAnswer> {
  const url = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, json });
    });
  });
}

/** A JSON body sent chunked (no content-length), in 64 KiB writes. */
export function chunkedPost(
  app: TestApp,
  path: string,
  token: string,
  text: string,
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${app.baseUrl}${path}`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, json: body ? JSON.parse(body) : undefined });
        });
      },
    );
    request.on('error', reject);
    for (let at = 0; at < text.length; at += 64 * 1024) request.write(text.slice(at, at + 64 * 1024));
    request.end();
  });
}

/** `{"a":{"a":...{}}}` with `depth` levels of objects (the outermost is level 1). */
export function nestedObject(depth: number): unknown {
  let value: unknown = {};
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

/**
 * Multi-byte text of every kind a person might write: must be stored and read back unchanged.
 * (Control characters other than tab and newline, and bidi controls, are refused in display
 * text since issue 14: DISPLAY_SPOOFING below.)
 */
export const UNICODE_SAMPLES: readonly string[] = [
  'Grüße, café, naïve, ½ — “quotes” ‘single’ …',
  '中文字符 日本語のテキスト 한국어 텍스트',
  'עברית ومعها العربية (right to left)',
  'emoji 😀🚀 flags 🇫🇷🇯🇵 family 👨‍👩‍👧‍👦 skin 👍🏽',
  'combining e\u0301 vs \u00e9, zero width\u200b joiner\u200d, BOM\ufeff inside',
  'astral 𝄞 𐍈 𠜎, tab\tand newline\nin prose',
];

/** Text that shows something other than what it holds: refused in objectives and names (400). */
export const DISPLAY_SPOOFING: Readonly<Record<string, { text: string; rule: string }>> = {
  'a C0 control character': { text: 'a\u0001b', rule: 'control_character' },
  'an escape sequence': { text: 'red \u001b[31malert', rule: 'control_character' },
  'a C1 control character': { text: 'a\u0085b', rule: 'control_character' },
  'a carriage return': { text: 'done\rnot done', rule: 'control_character' },
  'a right-to-left override': { text: 'invoice\u202Efdp.exe', rule: 'bidi_control' },
  'a first-strong isolate': { text: 'a\u2068b\u2069', rule: 'bidi_control' },
  'a right-to-left mark': { text: 'a\u200Fb', rule: 'bidi_control' },
  'an Arabic letter mark': { text: 'a\u061Cb', rule: 'bidi_control' },
};

/** One request with its path exactly as given (fetch would resolve `..` and `%2E` segments first). */
export function exactPath(
  app: TestApp,
  method: string,
  path: string,
  token: string,
  body?: string,
): Promise<RawAnswer> {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: localhost', `Authorization: Bearer ${token}`, 'Connection: close'];
  if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return rawHttp(app, `${head.join('\r\n')}\r\n\r\n${body ?? ''}`);
}
