import { StoreUnavailableError } from '../errors';

/**
 * Reject with StoreUnavailableError after `ms`. Needed around gRPC calls: a port that
 * accepts connections and never answers would otherwise hang the caller forever.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new StoreUnavailableError(`${what} did not answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
