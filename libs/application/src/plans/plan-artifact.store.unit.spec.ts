import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planFilePath } from './plan-paths';
import { PlanArtifactStore } from './plan-artifact.store';

// Every write command describes the plan file; an unchanged file is described from the stat alone.
describe('PlanArtifactStore.describe sees every edit of the working copy', () => {
  let home: string;
  let plans: PlanArtifactStore;
  const path = () => planFilePath(home, 'a', 'w');

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'plan-store-'));
    plans = new PlanArtifactStore(home);
    await plans.create('a', 'w', 'first body');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('describes an edit made right after a describe (same size, same second)', async () => {
    const first = await plans.describe('a', 'w');
    writeFileSync(path(), 'other body');
    const second = await plans.describe('a', 'w');
    expect(second.hash).not.toBe(first.hash);
    expect(second.preview).toBe('other body');
  });

  it('answers the same descriptor for a file unchanged since, and a new one once it is edited', async () => {
    // Past the racy window: the descriptor of the settled file is kept.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const first = await plans.describe('a', 'w');
    const again = await plans.describe('a', 'w');
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    writeFileSync(path(), 'first bodY');
    const edited = await plans.describe('a', 'w');
    expect(edited).toMatchObject({ preview: 'first bodY', byte_size: first.byte_size });
    expect(edited.hash).not.toBe(first.hash);
    rmSync(path());
    expect(await plans.describe('a', 'w')).toMatchObject({ byte_size: 0, preview: '' });
  });
});
