import type { ComponentChildren } from 'preact';
import { absolute, relative, words } from '../format';
import type { StreamStatus } from '../sse';
import type { Closure } from '../types';

/** A time as a relative age, with the absolute time for hover and assistive tech. */
export function Time({ iso, prefix }: { iso: string | null | undefined; prefix?: string }) {
  if (!iso) return <span class="muted">—</span>;
  return (
    <time dateTime={iso} title={absolute(iso)}>
      {prefix}
      {relative(iso)}
    </time>
  );
}

/** A value from a fixed set (posture, readiness, status) as a labelled badge. */
export function Badge({ value, tone }: { value: string; tone?: string }) {
  return <span class={`badge badge-${tone ?? value}`}>{words(value)}</span>;
}

/** The agent's closure beside its posture: the closure and its reason as a badge, the evidence on hover. */
export function ClosureBadge({ closure }: { closure: Closure }) {
  return (
    <span class={`badge badge-closure badge-${closure.closure}`} title={closure.evidence.join(', ') || undefined}>
      closure: {closure.closure} <span class="muted small">({words(closure.reason)})</span>
    </span>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error, what }: { error: Error | undefined; what: string }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      Could not load {what}: {error.message}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="muted empty">{children}</p>;
}

/** A titled region: the heading labels it for landmark navigation. */
export function Section({
  id,
  title,
  children,
  extra,
}: {
  id: string;
  title: string;
  children: ComponentChildren;
  extra?: ComponentChildren;
}) {
  return (
    <section class="panel" aria-labelledby={`${id}-title`} id={id}>
      <div class="panel-head">
        <h2 id={`${id}-title`}>{title}</h2>
        {extra}
      </div>
      {children}
    </section>
  );
}

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'connecting…',
  live: 'live',
  retrying: 'reconnecting…',
  closed: 'not live',
};

/** Whether a view is following its events stream (data-live is what the browser tests wait on). */
export function LiveStatus({ status }: { status: StreamStatus }) {
  return (
    <span class={`live live-${status}`} data-live={status}>
      Updates: {STATUS_TEXT[status]}
    </span>
  );
}
