import { validationFailed } from '../shared/domain-error';
import { requireTrimmedText } from '../shared/text';
import { requireOneOf, requireTimestamp } from '../shared/validation';
import { isRfc3339 } from '../shared/time';
import { type PlanArtifact, PLAN_STATUSES, type PlanStatus, TODO_STATES, type TodoItem } from './work-item.state';

export const OBJECTIVE_MAX_LENGTH = 500;
export const TODO_LIST_MAX_ITEMS = 100;
export const TODO_TEXT_MAX_LENGTH = 500;
export const BLOCKED_BY_MAX_LENGTH = 2000;

export function validateObjective(value: unknown): string {
  return requireTrimmedText(value, 'objective', { min: 1, max: OBJECTIVE_MAX_LENGTH, shape: 'lines' });
}

export function validatePlanStatus(value: unknown): PlanStatus {
  return requireOneOf(value, 'plan_status', PLAN_STATUSES);
}

function validateTodo(value: unknown, index: number): TodoItem {
  const field = `todo_list[${index}]`;
  if (typeof value !== 'object' || value === null) throw validationFailed(field, 'must_be_object');
  const { text, state } = value as { text?: unknown; state?: unknown };
  const todoState = requireOneOf(state, `${field}.state`, TODO_STATES);
  return { text: requireTrimmedText(text, `${field}.text`, { min: 1, max: TODO_TEXT_MAX_LENGTH }), state: todoState };
}

/** A full snapshot: at most 100 items, each with trimmed text (1..500) and a known state. */
export function validateTodoList(value: unknown): TodoItem[] {
  if (!Array.isArray(value)) throw validationFailed('todo_list', 'must_be_array');
  if (value.length > TODO_LIST_MAX_ITEMS) {
    throw validationFailed('todo_list', 'too_many_items', { max_items: TODO_LIST_MAX_ITEMS, items: value.length });
  }
  return value.map(validateTodo);
}

/** null clears; text is trimmed and must keep 1..2000 characters. */
export function validateBlockedBy(value: unknown): string | null {
  if (value === null) return null;
  return requireTrimmedText(value, 'blocked_by', { min: 1, max: BLOCKED_BY_MAX_LENGTH, shape: 'lines' });
}

export function validateRecheckAt(value: unknown): string | null {
  return value === null ? null : requireTimestamp(value, 'recheck_at');
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** `a/b/c`: relative, `/`-separated, without empty, `.` or `..` segments (never leaves the agent's home). */
export function isAgentHomeRelativePath(value: unknown): value is string {
  return (
    isString(value) &&
    !value.includes('\\') &&
    !value.includes('\u0000') &&
    value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

/**
 * The descriptor comes from the app; check its shape so a bad one never reaches an event. Only
 * the known fields are kept: an absolute `path` (an older writer's) never enters an event.
 */
export function validatePlanArtifact(value: unknown, field = 'plan_artifact'): PlanArtifact {
  if (typeof value !== 'object' || value === null) throw validationFailed(field, 'required');
  const a = value as Record<string, unknown>;
  const ok =
    isAgentHomeRelativePath(a.relative_path) &&
    isString(a.hash) &&
    a.hash.startsWith('sha256:') &&
    Number.isInteger(a.byte_size) &&
    (a.byte_size as number) >= 0 &&
    isRfc3339(a.updated_at) &&
    isString(a.preview) &&
    typeof a.preview_complete === 'boolean';
  if (!ok) throw validationFailed(field, 'invalid_descriptor');
  return {
    relative_path: a.relative_path as string,
    hash: a.hash as string,
    byte_size: a.byte_size as number,
    updated_at: a.updated_at as string,
    preview: a.preview as string,
    preview_complete: a.preview_complete as boolean,
  };
}

/**
 * A descriptor differs when it names other bytes or another file of the agent's home (a touched
 * mtime alone is no change; descriptors hold no absolute path, which would differ between
 * replicas and after an import).
 */
export function planArtifactDiffers(stored: PlanArtifact, fresh: PlanArtifact): boolean {
  return stored.hash !== fresh.hash || stored.relative_path !== fresh.relative_path;
}

export function sameTodoList(a: readonly TodoItem[], b: readonly TodoItem[]): boolean {
  return a.length === b.length && a.every((todo, i) => todo.text === b[i].text && todo.state === b[i].state);
}
