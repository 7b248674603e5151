// Original file: proto/agent_runtime.proto


/**
 * A message body, a trigger payload or a wake hint body: text, or a JSON object as its JSON text
 * (HTTP's string or object). Exactly one is set; an absent MessageBody is HTTP's absent/null.
 */
export interface MessageBody {
  'text'?: (string);
  'json'?: (string);
  'content'?: "text"|"json";
}

/**
 * A message body, a trigger payload or a wake hint body: text, or a JSON object as its JSON text
 * (HTTP's string or object). Exactly one is set; an absent MessageBody is HTTP's absent/null.
 */
export interface MessageBody__Output {
  'text'?: (string);
  'json'?: (string);
  'content'?: "text"|"json";
}
