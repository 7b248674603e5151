import { useCallback, useEffect, useState } from 'preact/hooks';
import { apiGet } from '../api';
import { usePolling } from '../hooks';

/** The part of GET /health the banner reads (projection_lag is null before any projection ran). */
interface Health {
  projection_lag: {
    projection: string;
    checkpoint: string;
    stalled_at: string | null;
    parked_agents?: number;
  } | null;
}

const POLL_MS = 5000;

/**
 * Says when the read models are stalled for some agents (a poison event parked them, ADR 0015):
 * their views stop before it while the others stay live, until an operator skips or retries it.
 */
export function ProjectionBanner({ token }: { token: string }) {
  const [lag, setLag] = useState<Health['projection_lag']>(null);
  const load = useCallback(() => {
    apiGet<Health>(token, '/health').then(
      (health) => setLag(health.projection_lag),
      () => undefined,
    );
  }, [token]);
  useEffect(load, [load]);
  usePolling(load, POLL_MS);
  if (!lag || lag.stalled_at === null) return null;
  const parked = lag.parked_agents ?? 1;
  return (
    <p class="notice projection-stalled" role="alert" data-stalled-at={lag.stalled_at}>
      Read models stalled for {parked} agent{parked === 1 ? '' : 's'}: {lag.projection} holds back{' '}
      {parked === 1 ? 'its' : 'their'} events from position {lag.stalled_at} (a poison event). Their views are not live
      until an operator skips or retries it (<code>npm run cli -- dead-letters list</code>); every other agent is up to
      date.
    </p>
  );
}
