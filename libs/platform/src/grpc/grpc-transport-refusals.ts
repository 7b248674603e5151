import { Metadata, ServerInterceptingCall, status as GrpcStatus, type ServerInterceptor } from '@grpc/grpc-js';

type Status = Parameters<Parameters<ServerInterceptor>[1]['sendStatus']>[0];

/**
 * The `error-code` trailer on the refusals grpc-js makes by itself. A request message over
 * `grpc.max_receive_message_length` is refused by grpc-js's transport as soon as its length
 * prefix is read (nothing is buffered, no handler runs), with a bare RESOURCE_EXHAUSTED. That
 * check happens in the base call, which calls its own `sendStatus`; the first server
 * interceptor receives that base call, so this one (installed first) wraps the base call's
 * `sendStatus` in place and gives every RESOURCE_EXHAUSTED that has no `error-code` yet the
 * envelope HTTP's 413 has: `payload_too_large` with the limit. Our handlers' refusals already
 * carry their trailer (rate_limited too) and pass unchanged.
 */
export function transportRefusalTrailers(maxMessageBytes: number): ServerInterceptor {
  return (_method, call) => {
    const send = call.sendStatus.bind(call);
    call.sendStatus = (status: Status) => send(withErrorCode(status, maxMessageBytes));
    return new ServerInterceptingCall(call);
  };
}

export function withErrorCode(status: Status, maxMessageBytes: number): Status {
  if (status.code !== GrpcStatus.RESOURCE_EXHAUSTED || (status.metadata?.get('error-code').length ?? 0) > 0)
    return status;
  const metadata = status.metadata?.clone() ?? new Metadata();
  metadata.set('error-code', 'payload_too_large');
  metadata.set('error-details', JSON.stringify({ max_bytes: maxMessageBytes }));
  return { ...status, metadata };
}
