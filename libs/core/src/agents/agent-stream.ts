/** The only place stream names are built: one stream per agent is the consistency boundary. */
export const AGENT_STREAM_PREFIX = 'agent-';

export function agentStream(agentId: string): string {
  return `${AGENT_STREAM_PREFIX}${agentId}`;
}

export function agentIdOfStream(stream: string): string | null {
  return stream.startsWith(AGENT_STREAM_PREFIX) ? stream.slice(AGENT_STREAM_PREFIX.length) : null;
}
