import type { CommandMeta } from '../shared/command-meta';

export type PickWorkItem = {
  type: 'PickWorkItem';
  data: { work_item_id: string; reason?: string };
  meta: CommandMeta;
};

export type FocusCommand = PickWorkItem;
