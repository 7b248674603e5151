import type { CommandMeta } from '../shared/command-meta';

/**
 * ArchiveWorkItems: move what the agent finished before `completed_before` out of its live
 * state (docs/domain-contract.md, "Archiving"). The cut-off is an input: the domain reads no clock.
 */
export type ArchiveWorkItems = {
  type: 'ArchiveWorkItems';
  data: { completed_before: string };
  meta: CommandMeta;
};

export type ArchiveCommand = ArchiveWorkItems;
