import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { withErrorCode } from './grpc-transport-refusals';

describe('withErrorCode (the trailer of grpc-js own refusals)', () => {
  it("gives grpc-js's bare RESOURCE_EXHAUSTED the payload_too_large envelope", () => {
    const status = withErrorCode(
      { code: GrpcStatus.RESOURCE_EXHAUSTED, details: 'Received message larger than max' },
      1024,
    );
    expect(status.metadata?.get('error-code')).toEqual(['payload_too_large']);
    expect(status.metadata?.get('error-details')).toEqual(['{"max_bytes":1024}']);
    expect(status.details).toBe('Received message larger than max');
  });

  it('leaves a refusal that has its trailer already (rate_limited) and every other status as they are', () => {
    const metadata = new Metadata();
    metadata.set('error-code', 'rate_limited');
    const limited = { code: GrpcStatus.RESOURCE_EXHAUSTED, details: 'slow down', metadata };
    expect(withErrorCode(limited, 1024)).toBe(limited);
    const ok = { code: GrpcStatus.OK, details: '' };
    expect(withErrorCode(ok, 1024)).toBe(ok);
  });
});
