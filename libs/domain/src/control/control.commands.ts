import type { CommandMeta } from '../shared/command-meta';

export type ControlAction = 'start' | 'stop' | 'pause' | 'resume';
export const CONTROL_ACTIONS: readonly ControlAction[] = ['start', 'stop', 'pause', 'resume'];

export type Control = { type: 'Control'; data: { action: ControlAction }; meta: CommandMeta };

export type ControlCommand = Control;
