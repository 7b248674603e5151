import { ApiError } from '@app/core';
import { isDomainError } from '@app/domain';
import type { Caller } from '../auth/request-authorizer';
import { authorityOf, senderRolesOf } from './message-authority';

const named = (role: Caller['role']): Caller => ({ tokenName: `n:${role}`, agents: ['a-1'], admin: false, role });
const oldForm: Caller = { tokenName: 'token-1', agents: ['a-1'], admin: false };
const admin: Caller = { tokenName: 'admin-token', agents: [], admin: true };

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe("a caller's message authority (docs/decisions/0022)", () => {
  it('sends with the grant role, admin for the * grant, every agent role for an old-form grant', () => {
    expect(senderRolesOf(named('host'))).toEqual(['host']);
    expect(senderRolesOf(admin)).toEqual(['admin']);
    expect(senderRolesOf(oldForm)).toEqual(['host', 'operator', 'integration']);
  });

  it("takes the authority from the kind for every role allowed to send it (an old-form grant may send every caller's kind)", () => {
    expect(authorityOf('operator_prompt', named('operator'))).toBe('operator_instruction');
    expect(authorityOf('internal_followup', named('host'))).toBe('runtime_instruction');
    expect(authorityOf('webhook_event', named('integration'))).toBe('integration_signal');
    expect(authorityOf('channel_event', admin)).toBe('external_evidence');
    expect(
      ['operator_prompt', 'internal_followup', 'webhook_event', 'channel_event'].map((k) => authorityOf(k, oldForm)),
    ).toEqual(['operator_instruction', 'runtime_instruction', 'integration_signal', 'external_evidence']);
  });

  it('refuses a kind the role may not send with 403 forbidden naming the role, the kind and the roles that may', () => {
    const error = refusal(() => authorityOf('operator_prompt', named('integration')));
    expect(error.code).toBe('forbidden');
    expect(error.details).toEqual({
      role: 'integration',
      kind: 'operator_prompt',
      accepted_roles: ['operator', 'admin'],
    });
  });

  it('checks the kind before the role: control and runtime-owned kinds are 400 validation_failed for every caller', () => {
    for (const caller of [named('host'), named('integration'), oldForm, admin]) {
      for (const [kind, rule] of [
        ['control', 'kind_has_no_effect'],
        ['task_result', 'runtime_owned_kind'],
      ]) {
        let caught: unknown;
        try {
          authorityOf(kind, caller);
        } catch (error) {
          caught = error;
        }
        expect(isDomainError(caught) && caught.code === 'validation_failed' && caught.details).toMatchObject({
          field: 'kind',
          rule,
        });
      }
    }
  });
});
