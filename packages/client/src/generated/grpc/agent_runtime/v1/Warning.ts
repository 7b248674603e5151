// Original file: proto/agent_runtime.proto


/**
 * A reply warning. HTTP renders a warning as `{kind, message, ...extras}`; here the extras
 * (every key other than kind and message, e.g. unfinished_todos' `pending_count`,
 * `in_progress_count` and `sample`) are one JSON object in `details_json`, absent when the
 * warning has no extras.
 */
export interface Warning {
  'kind'?: (string);
  'message'?: (string);
  'details_json'?: (string);
  '_details_json'?: "details_json";
}

/**
 * A reply warning. HTTP renders a warning as `{kind, message, ...extras}`; here the extras
 * (every key other than kind and message, e.g. unfinished_todos' `pending_count`,
 * `in_progress_count` and `sample`) are one JSON object in `details_json`, absent when the
 * warning has no extras.
 */
export interface Warning__Output {
  'kind': (string);
  'message': (string);
  'details_json'?: (string);
  '_details_json'?: "details_json";
}
