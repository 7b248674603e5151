import { useState } from 'preact/hooks';
import { ApiError, apiGet } from '../api';

/** Sign in by pasting an API token; it is checked against the API before it is kept. */
export function Login({ onToken, notice }: { onToken: (token: string) => void; notice?: string }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const value = token.trim();
    if (!value) {
      setError('Paste an API token first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await apiGet(value, '/v1/agents?limit=1');
      onToken(value);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? 'That token was refused.'
          : `Could not sign in: ${(failure as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login" tabIndex={-1}>
      <h1>Agent runtime console</h1>
      <p>
        Sign in with an API token (a token of <code>RUNTIME_API_TOKENS</code>, or the generated admin token). It is kept
        in this tab's session storage only.
      </p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} class="login-form" aria-describedby={error ? 'login-error' : undefined}>
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          autoFocus
          value={token}
          onInput={(event) => setToken((event.target as HTMLInputElement).value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'login-error' : undefined}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error && (
        <p id="login-error" class="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
