import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { seg } from './api';
import { followEventStream, type StreamEvent, type StreamStatus } from './sse';

export type Resource<T> = {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => Promise<void>;
};

/**
 * One read of the API: loads when `key` changes, keeps the last data while reloading (no
 * flicker on live refreshes), and drops answers that arrive after a newer request.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, key: string): Resource<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const loader = useRef(load);
  loader.current = load;
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    controller.current?.abort();
    const abort = (controller.current = new AbortController());
    setState((previous) => ({ ...previous, loading: true }));
    try {
      const data = await loader.current(abort.signal);
      if (mine === generation.current) setState({ data, loading: false });
    } catch (error) {
      if (mine === generation.current && !abort.signal.aborted)
        setState((previous) => ({ ...previous, error: error as Error, loading: false }));
    }
  }, []);

  useEffect(() => {
    setState({ loading: true });
    void reload();
    return () => controller.current?.abort();
  }, [key, reload]);

  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Calls `tick` every `intervalMs` while the page is visible and `enabled`. */
export function usePolling(tick: () => unknown, intervalMs: number, enabled = true): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, enabled]);
}

/** How often a view across agents re-reads while its changes stream is not live (a proxy may block streams). */
const FALLBACK_POLL_MS = 5000;

type StreamHandlers = {
  /** Each event, as it arrives. */
  onEvent?(event: StreamEvent): void;
  /** Once a burst of events has settled (`debounceMs` after the last one). */
  onBurst(): void;
  /** Also call onBurst when the stream goes live (what changed while it connected). */
  burstOnLive?: boolean;
};

/**
 * Follows `url` (server-sent events) from `lastEventId` (undefined: not known yet, wait;
 * reconnects resume from the last event id seen) until the view goes away.
 */
function useEventStream(
  token: string,
  url: string,
  lastEventId: string | null | undefined,
  handlers: StreamHandlers,
  debounceMs: number,
): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const latest = useRef(handlers);
  latest.current = handlers;
  const ready = lastEventId !== undefined;
  useEffect(() => {
    if (!ready) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current.onBurst(), debounceMs);
    };
    void followEventStream({
      token,
      url,
      lastEventId: lastEventId ?? null,
      signal: abort.signal,
      onStatus: (next) => {
        setStatus(next);
        if (next === 'live' && latest.current.burstOnLive) soon();
      },
      onEvent: (event) => {
        latest.current.onEvent?.(event);
        soon();
      },
    });
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [token, url, ready, debounceMs]);
  return status;
}

/**
 * Keeps a view across agents current from GET /v1/changes: each change (sent once the read
 * models include it) reloads the view, at most every `debounceMs`; the view also reloads when
 * the stream goes live (what changed while it was connecting) and polls only while it is not.
 */
export function useChanges(token: string, reload: () => unknown, debounceMs = 150): StreamStatus {
  const status = useEventStream(token, '/v1/changes', null, { onBurst: () => reload(), burstOnLive: true }, debounceMs);
  usePolling(reload, FALLBACK_POLL_MS, status !== 'live');
  return status;
}

/**
 * Follows an agent's events stream from `after` (exclusive; undefined: not known yet, wait) and calls `onChange` with the newest
 * revision seen, at most every `debounceMs`: views refresh what the events touched.
 */
export function useAgentStream(
  token: string,
  agentId: string,
  after: string | null | undefined,
  onChange: (revision: bigint) => void,
  debounceMs = 150,
): StreamStatus {
  // The first known resume point is kept: reconnects resume from the last event id instead.
  const start = useRef<string | null | undefined>(undefined);
  if (start.current === undefined && after !== undefined) start.current = after;
  const newest = useRef({ agentId, revision: -1n });
  if (newest.current.agentId !== agentId) newest.current = { agentId, revision: -1n };
  return useEventStream(
    token,
    `/v1/agents/${seg(agentId)}/events/stream`,
    start.current,
    {
      onEvent: (event) => {
        if (event.id !== null && /^\d+$/.test(event.id) && BigInt(event.id) > newest.current.revision)
          newest.current.revision = BigInt(event.id);
      },
      onBurst: () => onChange(newest.current.revision),
    },
    debounceMs,
  );
}
