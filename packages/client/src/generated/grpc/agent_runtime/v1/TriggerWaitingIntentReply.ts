// Original file: proto/agent_runtime.proto

import type { WaitingIntent as _agent_runtime_v1_WaitingIntent, WaitingIntent__Output as _agent_runtime_v1_WaitingIntent__Output } from '../../agent_runtime/v1/WaitingIntent';
import type { QueuedMessage as _agent_runtime_v1_QueuedMessage, QueuedMessage__Output as _agent_runtime_v1_QueuedMessage__Output } from '../../agent_runtime/v1/QueuedMessage';
import type { Warning as _agent_runtime_v1_Warning, Warning__Output as _agent_runtime_v1_Warning__Output } from '../../agent_runtime/v1/Warning';

export interface TriggerWaitingIntentReply {
  'waiting_intent'?: (_agent_runtime_v1_WaitingIntent | null);
  /**
   * "triggered" (the other statuses are refusals)
   */
  'status'?: (string);
  /**
   * The wake hint's "triggered" | "coalesced" | "ignored" (wake_hint delivery), else absent.
   */
  'disposition'?: (string);
  /**
   * The callback_event or system_tick queued, else absent.
   */
  'message'?: (_agent_runtime_v1_QueuedMessage | null);
  'warnings'?: (_agent_runtime_v1_Warning)[];
  'revision'?: (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_disposition'?: "disposition";
  '_position'?: "position";
}

export interface TriggerWaitingIntentReply__Output {
  'waiting_intent': (_agent_runtime_v1_WaitingIntent__Output | null);
  /**
   * "triggered" (the other statuses are refusals)
   */
  'status': (string);
  /**
   * The wake hint's "triggered" | "coalesced" | "ignored" (wake_hint delivery), else absent.
   */
  'disposition'?: (string);
  /**
   * The callback_event or system_tick queued, else absent.
   */
  'message': (_agent_runtime_v1_QueuedMessage__Output | null);
  'warnings': (_agent_runtime_v1_Warning__Output)[];
  'revision': (string);
  /**
   * The store's global position of the command's last event (a repeat or a no-op: the agent's last).
   */
  'position'?: (string);
  '_disposition'?: "disposition";
  '_position'?: "position";
}
