import { join, resolve } from 'node:path';
import { artifact } from '@app/domain/testing';
import { localPlanArtifact, planFilePath, withLocalPlanPaths } from './plan-paths';

const HOME = resolve('/srv/replica-2/agent-home');
const plan = artifact('w-1', 'sha256:abc');
const local = join(HOME, 'a-1', 'work-items', 'w-1', 'plan.md');

describe('plan paths under this replica’s agent home', () => {
  it('builds the working copy’s path from validated ids only', () => {
    expect(planFilePath(HOME, 'a-1', 'w-1')).toBe(local);
    expect(() => planFilePath(HOME, '..', 'w-1')).toThrow(/invalid ids/);
    expect(() => planFilePath(HOME, 'a-1', 'w/../../x')).toThrow(/invalid ids/);
  });

  it('shows a descriptor with path first, replacing a path another replica recorded', () => {
    const shown = localPlanArtifact(
      { ...plan, path: '/elsewhere/a-1/work-items/w-1/plan.md' } as typeof plan,
      HOME,
      'a-1',
      'w-1',
    );
    expect(shown).toEqual({ path: local, ...plan });
    expect(Object.keys(shown)[0]).toBe('path');
  });

  it('adds the path to every work item view and context item of a reply, and leaves the rest alone', () => {
    const reply = {
      work_item: { id: 'w-1', agent_id: 'a-1', plan_artifact: plan },
      sections: [{ name: 'current_work_item', content: { id: 'w-2', plan_artifact: artifact('w-2') } }],
      warnings: [],
      revision: '4',
    };
    const shown = withLocalPlanPaths(reply, HOME, 'a-1');
    expect(shown.work_item.plan_artifact).toEqual({ path: local, ...plan });
    expect(shown.sections[0].content.plan_artifact).toMatchObject({
      path: join(HOME, 'a-1', 'work-items', 'w-2', 'plan.md'),
    });
    expect(shown.warnings).toBe(reply.warnings);
    expect(reply.work_item.plan_artifact).not.toHaveProperty('path');
  });

  it('uses each view’s own agent_id (the console lists items of many agents)', () => {
    const items = [{ id: 'w-1', agent_id: 'b-2', plan_artifact: plan }];
    expect(withLocalPlanPaths(items, HOME)[0].plan_artifact).toMatchObject({
      path: join(HOME, 'b-2', 'work-items', 'w-1', 'plan.md'),
    });
  });

  it('returns a value without plan descriptors as it is', () => {
    const reply = { message: { id: 'm-1', body: 'hi' }, list: [1, 2] };
    expect(withLocalPlanPaths(reply, HOME, 'a-1')).toBe(reply);
  });
});
