import { describe, expect, it } from 'vitest';
import { parseSummary } from './referenceService.ts';

// As reference-impl/src/main.ts prints it (tokens and passwords made up).
const SUMMARY = `
Content Service reference implementation
  API:   http://127.0.0.1:40631/api
  Docs:  http://127.0.0.1:40631/docs/

Demo data seeded: 29 items. Demo tokens, shown only now (stored as hashes; keep them):
  live consumer                     cst_live  (ROLE_EXTERNAL_USER; approved items of amsterdam-marketing, amsterdam-museums)
  sync (sees archived and deleted)  cst_sync  (ROLE_EXTERNAL_USER; every status of amsterdam-marketing, amsterdam-museums)
  admin of amsterdam                cst_adm-_x  (ROLE_ADMIN; every status of amsterdam-marketing, amsterdam-museums)
  super admin                       cst_super  (ROLE_SUPER_ADMIN; every organisation and status)
  BOOTSTRAP_ADMIN_TOKEN is a super-admin token (every organisation and status).

Demo users for POST /api/auth/signin {username, password}, shown only now:
  editor@amsterdam.example         4RVvdelSZPRXPxjHSy  (ROLE_EXTERNAL_USER, account amsterdam)
  admin@amsterdam.example          k2-hogZiionGeQ4U_7  (ROLE_ADMIN, account amsterdam)

Try:
  curl -H "Authorization: Bearer cst_live" http://127.0.0.1:40631/api/events
`;

describe('parseSummary', () => {
  it('when the reference service prints its summary, then the URL, every demo token and every demo user are read', () => {
    const s = parseSummary(SUMMARY);
    expect(s.baseUrl).toBe('http://127.0.0.1:40631/api');
    expect(s.tokens.map((t) => [t.label, t.token, t.roles])).toEqual([
      ['live consumer', 'cst_live', 'ROLE_EXTERNAL_USER'],
      ['sync (sees archived and deleted)', 'cst_sync', 'ROLE_EXTERNAL_USER'],
      ['admin of amsterdam', 'cst_adm-_x', 'ROLE_ADMIN'],
      ['super admin', 'cst_super', 'ROLE_SUPER_ADMIN'],
    ]);
    expect(s.users).toEqual([
      {
        username: 'editor@amsterdam.example',
        password: '4RVvdelSZPRXPxjHSy',
        roles: 'ROLE_EXTERNAL_USER',
        account: 'amsterdam',
      },
      {
        username: 'admin@amsterdam.example',
        password: 'k2-hogZiionGeQ4U_7',
        roles: 'ROLE_ADMIN',
        account: 'amsterdam',
      },
    ]);
  });
});
