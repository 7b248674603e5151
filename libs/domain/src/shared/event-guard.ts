/** A type guard for one slice's events, from the list of its type strings. */
export function eventGuard<E extends { type: string }>(
  types: readonly E['type'][],
): (event: { type: string }) => event is E {
  const known: ReadonlySet<string> = new Set(types);
  return (event): event is E => known.has(event.type);
}
