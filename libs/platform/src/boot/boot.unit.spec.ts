import { Module } from '@nestjs/common';
import { apiModulesFor } from './boot';

@Module({})
class FakeApiModule {}

describe('apiModulesFor: the API modules are loaded only by a role that serves the API', () => {
  it('calls the loader for the roles all and api, never for scheduler or projector', async () => {
    const loader = jest.fn(async () => [FakeApiModule]);
    expect(await apiModulesFor('scheduler', loader)).toBeUndefined();
    expect(await apiModulesFor('projector', loader)).toBeUndefined();
    expect(loader).not.toHaveBeenCalled();
    expect(await apiModulesFor('api', loader)).toEqual([FakeApiModule]);
    expect(await apiModulesFor('all', loader)).toEqual([FakeApiModule]);
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('passes a list as it is, and nothing as nothing', async () => {
    expect(await apiModulesFor('scheduler', [FakeApiModule])).toEqual([FakeApiModule]);
    expect(await apiModulesFor('all', undefined)).toBeUndefined();
  });
});
