// Original file: proto/agent_runtime.proto

import type { ActivationTurn as _agent_runtime_v1_ActivationTurn, ActivationTurn__Output as _agent_runtime_v1_ActivationTurn__Output } from '../../agent_runtime/v1/ActivationTurn';
import type { QueuedMessage as _agent_runtime_v1_QueuedMessage, QueuedMessage__Output as _agent_runtime_v1_QueuedMessage__Output } from '../../agent_runtime/v1/QueuedMessage';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';
import type { Reminder as _agent_runtime_v1_Reminder, Reminder__Output as _agent_runtime_v1_Reminder__Output } from '../../agent_runtime/v1/Reminder';

export interface HeartbeatReply {
  'turn'?: (_agent_runtime_v1_ActivationTurn | null);
  /**
   * Queued interject-priority operator prompts, now `interjected`: inject them at the next safe point
   * (none after stop or pause: they stay queued).
   */
  'interjections'?: (_agent_runtime_v1_QueuedMessage)[];
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The agent's posture now: "awake_running" | "stopped" | "paused" | ...
   */
  'posture'?: (string);
  /**
   * True after stop or pause: end the turn at the next round boundary (after pause, end it
   * `aborted`: its message returns to the queue and is replayed on resume).
   */
  'cancel_requested'?: (boolean);
  /**
   * What looks stale (docs/domain-contract.md §2, Reminders).
   */
  'reminders'?: (_agent_runtime_v1_Reminder)[];
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}

export interface HeartbeatReply__Output {
  'turn': (_agent_runtime_v1_ActivationTurn__Output | null);
  /**
   * Queued interject-priority operator prompts, now `interjected`: inject them at the next safe point
   * (none after stop or pause: they stay queued).
   */
  'interjections': (_agent_runtime_v1_QueuedMessage__Output)[];
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The agent's posture now: "awake_running" | "stopped" | "paused" | ...
   */
  'posture': (string);
  /**
   * True after stop or pause: end the turn at the next round boundary (after pause, end it
   * `aborted`: its message returns to the queue and is replayed on resume).
   */
  'cancel_requested': (boolean);
  /**
   * What looks stale (docs/domain-contract.md §2, Reminders).
   */
  'reminders': (_agent_runtime_v1_Reminder__Output)[];
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_position'?: "position";
}
