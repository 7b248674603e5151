/** A JSON value, as stored in events and state (AgentState stays JSON-serialisable). */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

/** A plain object (not an array, not a class instance): the only non-string body shape accepted. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A deep copy of a JSON value (views never share objects with the state). */
export function jsonClone<T extends JsonValue>(value: T): T {
  return typeof value === 'object' && value !== null ? (JSON.parse(JSON.stringify(value)) as T) : value;
}
