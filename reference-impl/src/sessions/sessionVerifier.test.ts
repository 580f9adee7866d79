import { describe, expect, it } from 'vitest';
import { principalOfSession } from './sessionVerifier.ts';

const row = {
  session_id: 's1',
  user_id: 'u1',
  account_id: 'amsterdam',
  roles: ['ROLE_ADMIN', 'ROLE_UNKNOWN'],
  username: 'redactie',
  account_organisations: ['amsterdam-marketing', 'amsterdam-museums'],
};

describe('principalOfSession [DEC-AUTH-015]', () => {
  it("when a user has a session, then it acts for the user's account and roles and sees every status of the account's organisations", () => {
    expect(principalOfSession(row)).toEqual({
      kind: 'session',
      subjectId: 'u1',
      sessionId: 's1',
      accountId: 'amsterdam',
      name: 'redactie',
      roles: ['ROLE_ADMIN'],
      organisations: ['amsterdam-marketing', 'amsterdam-museums'],
      accountOrganisations: ['amsterdam-marketing', 'amsterdam-museums'],
      wfstatus: 'all',
      canWrite: true,
    });
  });

  it('when the user is a super admin, then every organisation', () => {
    expect(principalOfSession({ ...row, roles: ['ROLE_SUPER_ADMIN'] }).organisations).toBe('all');
  });
});
