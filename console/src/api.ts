/** Reads of the runtime's API with the operator's bearer token; errors carry the API's error envelope. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Called when the server refuses the token (401): the app signs out. */
let onUnauthorized: () => void = () => undefined;
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export const authHeaders = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export async function toApiError(response: Response): Promise<ApiError> {
  let code = 'http_error';
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body?.error) ({ code, message } = body.error);
  } catch {
    // not the error envelope
  }
  if (response.status === 401) onUnauthorized();
  return new ApiError(response.status, code, message);
}

export async function apiGet<T>(token: string, path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    headers: { ...authHeaders(token), accept: 'application/json' },
    signal,
    cache: 'no-store',
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as T;
}

export async function apiText(token: string, path: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(path, {
    headers: { ...authHeaders(token), accept: 'text/markdown, text/plain' },
    signal,
    cache: 'no-store',
  });
  if (!response.ok) throw await toApiError(response);
  return response.text();
}

/** Path segment of an id (ids match the API's id pattern; encode anyway). */
export const seg = (id: string): string => encodeURIComponent(id);
