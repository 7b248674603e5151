import { ID_PATTERN, isValidId } from '@app/domain';
import { CliError, EXIT } from '../cli-io';

/** Agent ids follow docs/api.md's id pattern (they name streams and directories). */
export function assertAgentId(agentId: string): void {
  if (!isValidId(agentId))
    throw new CliError(EXIT.usage, `not an agent id: ${JSON.stringify(agentId)} (pattern ${ID_PATTERN.source})`);
}
