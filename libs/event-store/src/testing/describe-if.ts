/**
 * A suite that needs something this machine may lack runs when it is there, and otherwise
 * prints one line saying what was skipped and why. Never green by silence.
 */
export function describeIf(condition: boolean, name: string, why: string, body: () => void): void {
  if (condition) {
    describe(name, body);
    return;
  }
  process.stdout.write(`SKIPPED: ${name}: ${why}\n`);
  describe(name, () => {
    it.todo(`skipped: ${why}`);
  });
}

export const dockerAvailable = (): boolean => process.env.TEST_DOCKER_AVAILABLE === '1';
