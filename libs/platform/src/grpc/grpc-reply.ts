import { Type, type Field } from 'protobufjs';

/**
 * Reshapes one message type's value from its HTTP form to the message's, where the two really
 * differ (e.g. a JSON value carried as a string, a union carried as a oneof). Keyed by the
 * message's full name without the leading dot (`agent_runtime.v1.Warning`).
 */
export type ReplyAdapter = (value: any) => unknown;
export type ReplyAdapters = Readonly<Record<string, ReplyAdapter>>;

export type ReplyMapper = (reply: unknown) => unknown;

type Convert = (value: unknown) => unknown;

const scalar: Convert = (value) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * The one reply mapper of the gRPC edge: a handler's reply (the HTTP body: the domain view)
 * as the RPC's response message. Walks the message's declared fields: null and undefined
 * become absent fields (HTTP's null is proto3's absent `optional` or message field), bigint
 * becomes its decimal string, nested messages (also in repeated fields and map values) are
 * mapped by their own types, keys the message does not declare are left out. An adapter of a
 * message type reshapes that type's values first, wherever they occur.
 */
export function replyMapperFor(type: Type, adapters: ReplyAdapters = {}): ReplyMapper {
  const message = compile(type, adapters, new Map());
  return (reply) => message(reply ?? {});
}

function compile(type: Type, adapters: ReplyAdapters, compiled: Map<Type, Convert>): Convert {
  const known = compiled.get(type);
  if (known) return known;
  const fields: Array<[string, Convert]> = [];
  const adapter = adapters[type.fullName.replace(/^\./, '')];
  const convert: Convert = (value) => {
    const source = adapter ? adapter(value) : value;
    // Not an object: left for the serializer to refuse (INTERNAL), as any wrong reply is.
    if (source === null || typeof source !== 'object' || Array.isArray(source)) return source;
    const out: Record<string, unknown> = {};
    for (const [name, field] of fields) {
      const inner = (source as Record<string, unknown>)[name];
      if (inner !== null && inner !== undefined) out[name] = field(inner);
    }
    return out;
  };
  // Registered before the fields compile, so a recursive message type ends here.
  compiled.set(type, convert);
  for (const field of type.fieldsArray) fields.push([field.name, fieldConverter(field.resolve(), adapters, compiled)]);
  return convert;
}

function fieldConverter(field: Field, adapters: ReplyAdapters, compiled: Map<Type, Convert>): Convert {
  const element = field.resolvedType instanceof Type ? compile(field.resolvedType, adapters, compiled) : scalar;
  if (field.map) {
    return (value) => {
      if (value === null || typeof value !== 'object') return value;
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value))
        if (inner !== null && inner !== undefined) out[key] = element(inner);
      return out;
    };
  }
  if (field.repeated) return (value) => (Array.isArray(value) ? value.map(element) : value);
  return element;
}
