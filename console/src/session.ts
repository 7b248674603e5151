/** The operator's token lives in this tab's session storage only: never in a URL, a cookie or local storage. */
const KEY = 'agent-runtime-console.token';

export function loadToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}
