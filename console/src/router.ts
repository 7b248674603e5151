import { useEffect, useState } from 'preact/hooks';

/** Views of the console, addressed by the URL's fragment (`#/agents/a-1`): the server serves one page. */
export type Route =
  | { view: 'agents' }
  | { view: 'attention' }
  | { view: 'agent'; agentId: string }
  | { view: 'work-item'; agentId: string; workItemId: string }
  | { view: 'not-found'; path: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'agents')) return { view: 'agents' };
  if (parts.length === 1 && parts[0] === 'attention') return { view: 'attention' };
  if (parts[0] === 'agents' && parts.length === 2) return { view: 'agent', agentId: parts[1] };
  if (parts[0] === 'agents' && parts.length === 4 && parts[2] === 'work-items')
    return { view: 'work-item', agentId: parts[1], workItemId: parts[3] };
  return { view: 'not-found', path };
}

export const href = {
  agents: () => '#/agents',
  attention: () => '#/attention',
  agent: (agentId: string) => `#/agents/${encodeURIComponent(agentId)}`,
  workItem: (agentId: string, workItemId: string) =>
    `#/agents/${encodeURIComponent(agentId)}/work-items/${encodeURIComponent(workItemId)}`,
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
