/** The addresses that mean "every interface". */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** `host:port` as a listener is named: `127.0.0.1:3000`, `0.0.0.0:3000`, `[::]:3000`. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** True when `host` binds every interface (HOST=0.0.0.0 or ::), not this machine only. */
export const isWildcardHost = (host: string): boolean => WILDCARDS.has(host);

/** A host a client on this machine can dial: the loopback for a wildcard bind, else the host itself. */
export const dialableHost = (host: string): string => (isWildcardHost(host) ? '127.0.0.1' : host);
