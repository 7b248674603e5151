import { connect } from 'node:http2';

export interface RawGrpcAnswer {
  /** grpc-status of the trailers (or of trailers-only headers); null if the server sent none. */
  status: number | null;
  errorCode: string | null;
  message: string | null;
}

/**
 * One unary gRPC call over a bare HTTP/2 stream: the bytes of the message and every header
 * exactly as given, including what @grpc/grpc-js refuses to send (non-ASCII metadata values).
 */
export function rawGrpcCall(
  address: string,
  path: string,
  message: Buffer,
  headers: Record<string, string>,
): Promise<RawGrpcAnswer> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://${address}`);
    session.on('error', reject);
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...headers,
    });
    const answer: RawGrpcAnswer = { status: null, errorCode: null, message: null };
    const read = (fields: Record<string, unknown>) => {
      if (fields['grpc-status'] !== undefined) answer.status = Number(fields['grpc-status']);
      if (typeof fields['error-code'] === 'string') answer.errorCode = fields['error-code'];
      if (typeof fields['grpc-message'] === 'string') answer.message = decodeURIComponent(fields['grpc-message']);
    };
    stream.on('response', read);
    stream.on('trailers', read);
    stream.on('data', () => undefined);
    stream.on('error', reject);
    stream.on('close', () => {
      session.close();
      resolve(answer);
    });
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt8(0, 0);
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    stream.end(frame);
  });
}

/** Protobuf encoding of a message with string fields only: `{1: 'agent-a'}` -> 0a 07 ... */
export function encodeStrings(fields: Record<number, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [number, value] of Object.entries(fields)) {
    const bytes = Buffer.from(value, 'utf8');
    parts.push(Buffer.from([(Number(number) << 3) | 2]), varint(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
}
