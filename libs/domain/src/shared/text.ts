import { validationFailed } from './domain-error';

/** Length in Unicode code points: what a person calls "characters" (an emoji counts once). */
export function charLength(value: string): number {
  let n = 0;
  for (const _ of value) n += 1;
  return n;
}

/**
 * What a text field may hold besides printable characters (display spoofing, issue 14):
 * - `line` (the default): a name, label, kind or todo: no control character at all;
 * - `lines`: prose a person writes (objective, blocker, reason, summary...): `\n` and `\t` too;
 * - `content`: a message body or round text, data the agent reads: any character (the JSON
 *   guard of the edges still refuses NUL and lone surrogates).
 * `line` and `lines` also refuse the bidirectional controls (see BIDI_CONTROLS).
 */
export type TextShape = 'line' | 'lines' | 'content';

export interface TextLimits {
  min: number;
  max: number;
  shape?: TextShape;
}

/**
 * The bidirectional formatting characters: embeddings and overrides U+202A..U+202E, isolates
 * U+2066..U+2069, the marks U+200E, U+200F and U+061C. They reorder what a reader sees (a
 * right-to-left override shows `exe.txt` for `txt.exe`).
 */
export const isBidiControl = (cp: number): boolean =>
  (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c;
/** C0 controls, DEL and C1 controls (Unicode general category Cc). */
export const isControlCharacter = (cp: number): boolean => cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f);

const LINE_BREAKS = [0x0a, 0x09];
const codePointName = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Throws `validation_failed` naming the field when `value` holds a character its shape refuses. */
export function assertDisplaySafe(value: string, field: string, shape: TextShape = 'line'): void {
  if (shape === 'content') return;
  for (const char of value) {
    const cp = char.codePointAt(0)!;
    if (isBidiControl(cp)) throw validationFailed(field, 'bidi_control', { code_point: codePointName(cp) });
    if (isControlCharacter(cp) && !(shape === 'lines' && LINE_BREAKS.includes(cp))) {
      throw validationFailed(field, 'control_character', {
        code_point: codePointName(cp),
        allowed: shape === 'lines' ? ['\\n', '\\t'] : [],
      });
    }
  }
}

/**
 * Trims and checks the length and the characters (TextShape) of a text field; returns the
 * trimmed value or throws `validation_failed` naming the field.
 */
export function requireTrimmedText(value: unknown, field: string, limits: TextLimits): string {
  if (typeof value !== 'string') throw validationFailed(field, 'must_be_string');
  const trimmed = value.trim();
  const length = charLength(trimmed);
  if (length < limits.min) throw validationFailed(field, 'empty', { min_length: limits.min });
  if (length > limits.max) throw validationFailed(field, 'too_long', { max_length: limits.max, length });
  assertDisplaySafe(trimmed, field, limits.shape);
  return trimmed;
}
