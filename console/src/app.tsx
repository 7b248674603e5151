import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { setUnauthorizedHandler } from './api';
import { onAnnounce } from './live';
import { ProjectionBanner } from './components/projection-banner';
import { href, type Route, useRoute } from './router';
import { clearToken, loadToken, saveToken } from './session';
import { AgentView } from './views/agent';
import { AgentsView } from './views/agents';
import { AttentionView } from './views/attention';
import { Login } from './views/login';
import { WorkItemPage } from './views/work-item';

const routeKey = (route: Route): string => JSON.stringify(route);

export function App() {
  const [token, setToken] = useState<string | null>(loadToken);
  const [notice, setNotice] = useState<string | undefined>();
  const route = useRoute();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearToken();
      setToken(null);
      setNotice('The server refused the token: sign in again.');
    });
  }, []);

  if (!token) {
    return (
      <Login
        notice={notice}
        onToken={(value) => {
          saveToken(value);
          setNotice(undefined);
          setToken(value);
        }}
      />
    );
  }
  const signOut = () => {
    clearToken();
    setNotice('Signed out.');
    setToken(null);
  };
  return <Shell token={token} route={route} onSignOut={signOut} />;
}

function Shell({ token, route, onSignOut }: { token: string; route: Route; onSignOut: () => void }) {
  const [message, setMessage] = useState('');
  const key = routeKey(route);
  const first = useRef(true);
  useEffect(() => onAnnounce(setMessage), []);
  // A new view takes the focus at its heading (not on the first load: the skip link comes first).
  // A layout effect runs in the same task as the commit that puts the heading in the page, so
  // nothing (a screen reader, a keystroke, a test) sees the new view before its heading has the focus.
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [key]);

  const current = (view: Route['view']) => (route.view === view ? 'page' : undefined);
  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Agent runtime console</p>
        <nav aria-label="Main">
          <ul>
            <li>
              <a href={href.agents()} aria-current={current('agents')}>
                Agents
              </a>
            </li>
            <li>
              <a href={href.attention()} aria-current={current('attention')}>
                Attention
              </a>
            </li>
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <ProjectionBanner token={token} />
        <View key={key} token={token} route={route} />
      </main>
      <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {message}
      </div>
    </>
  );
}

function View({ token, route }: { token: string; route: Route }) {
  switch (route.view) {
    case 'agents':
      return <AgentsView token={token} />;
    case 'attention':
      return <AttentionView token={token} />;
    case 'agent':
      return <AgentView token={token} agentId={route.agentId} />;
    case 'work-item':
      return <WorkItemPage token={token} agentId={route.agentId} workItemId={route.workItemId} />;
    default:
      return (
        <>
          <h1 tabIndex={-1}>Not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <a href={href.agents()}>Back to the agents</a>.
          </p>
        </>
      );
  }
}
