/** Polite announcements for screen readers (new decisions, sign-in problems): one live region in the app shell. */
const EVENT = 'console:announce';

export function announce(message: string): void {
  dispatchEvent(new CustomEvent<string>(EVENT, { detail: message }));
}

export function onAnnounce(listener: (message: string) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<string>).detail);
  addEventListener(EVENT, handler);
  return () => removeEventListener(EVENT, handler);
}
