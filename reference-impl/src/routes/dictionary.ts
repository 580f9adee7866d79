import { withCategoryTranslations } from '../dictionary/withCategoryTranslations.ts';
import { Router, type Request, type Response } from 'express';
import type { components, Readable } from '../../../generated/types.ts';
import { replacePropertiesOntology, userOrganisations } from '../dictionary/accountDictionary.ts';
import { filterDeprecated } from '../dictionary/filterDeprecated.ts';
import type { AccountOntologies } from '../dictionary/ontologyCache.ts';
import { HttpError } from '../http/HttpError.ts';
import { ADMIN_ROLES, isSuperAdmin, principalOf, requireRoles, type Principal } from '../http/principal.ts';
import { validated } from '../http/validateRequest.ts';
import { limitedBy } from '../ratelimit/middleware.ts';
import type { RouteMiddleware } from './routeMiddleware.ts';
import type { Services } from '../services.ts';

// @implements DICT-001
// The dictionary (DICT-001..006): the root, both ontologies of an account, the property ontology
// replacement and the organisation → account lookup.

const RESOURCES: readonly string[] = ['categorizationOntology', 'propertiesOntology', 'userorganisations'];

/** What the dictionaryRoutes are built from. */
export type DictionaryRouteDeps = Pick<Services, 'config' | 'db' | 'renderings' | 'ontologies'> &
  Pick<RouteMiddleware, 'auth' | 'validate' | 'rateLimited'>;

export function dictionaryRoutes(ctx: DictionaryRouteDeps): Router {
  const router = Router();
  const { ontologies } = ctx;

  // @implements DICT-002, AUTH-008
  /** `accountId` when given (404 when unknown, DEC-DICT-005); else the caller's own account, else the base (DICT-002, AUTH-008). */
  async function ontologiesFor(
    res: Response,
    operationId: 'getCategorizationOntology' | 'getPropertiesOntology',
  ): Promise<AccountOntologies> {
    const { accountId } = validated(res, operationId).query;
    if (accountId !== undefined) {
      const found = await ontologies.ontologiesForAccount(accountId);
      if (found === undefined) throw new HttpError(404, { message: `No account with id ${accountId}` });
      return found;
    }
    return (
      (await ontologies.ontologiesForAccount(principalOf(res).accountId)) ??
      (await ontologies.ontologiesForAccount(null))!
    );
  }

  // @implements DICT-006
  // Only the root is rate limited (RATE-001); before authentication, like the item lists.
  router.get(
    '/dictionary',
    ...limitedBy('getDictionary', ctx.rateLimited),
    ctx.auth,
    ctx.validate('getDictionary'),
    (_req: Request, res: Response) => {
      const root: components['schemas']['DictionaryRoot'] = {
        resources: RESOURCES.map((name) => ({ name, href: `${ctx.config.publicBaseUrl}/dictionary/${name}` })),
      };
      res.json(root);
    },
  );

  router.get(
    '/dictionary/categorizationOntology',
    ...limitedBy('getCategorizationOntology', ctx.rateLimited),
    ctx.auth,
    ctx.validate('getCategorizationOntology'),
    async (_req: Request, res: Response) => {
      const { types } = await ontologiesFor(res, 'getCategorizationOntology');
      // ONTO-012: deprecated nodes (and their children) are left out unless asked for (DEC-DICT-004, DEC-DICT-010).
      const { includeDeprecated } = validated(res, 'getCategorizationOntology').query;
      const answer: Readable<components['schemas']['CategorizationOntology']> = withCategoryTranslations(
        includeDeprecated === true ? types : filterDeprecated(types),
      );
      res.json(answer);
    },
  );

  // @implements DICT-003
  router.get(
    '/dictionary/propertiesOntology',
    ...limitedBy('getPropertiesOntology', ctx.rateLimited),
    ctx.auth,
    ctx.validate('getPropertiesOntology'),
    async (_req: Request, res: Response) => {
      const { properties }: { properties: Readable<components['schemas']['PropertiesOntology']> } = await ontologiesFor(
        res,
        'getPropertiesOntology',
      );
      res.json(properties);
    },
  );

  // @implements AUTH-007
  router.put(
    '/dictionary/propertiesOntology',
    ...limitedBy('replacePropertiesOntology', ctx.rateLimited),
    ctx.auth,
    requireRoles(ADMIN_ROLES),
    ctx.validate('replacePropertiesOntology'),
    async (_req: Request, res: Response) => {
      const { query, body } = validated(res, 'replacePropertiesOntology');
      const { accountId } = query;
      assertMayWriteOntologyOf(principalOf(res), accountId);
      const replaced = await replacePropertiesOntology(ctx, accountId, body);
      if (replaced.outcome === 'no such account') {
        throw new HttpError(404, { message: `No account with id ${accountId}` });
      }
      if (replaced.outcome === 'invalid') {
        const { problems } = replaced;
        const message =
          problems.length === 1
            ? problems[0]!.message
            : `The ontology has ${problems.length} problems: ${problems
                .slice(0, 5)
                .map((p) => `${p.pointer}: ${p.message}`)
                .join('; ')}`;
        throw new HttpError(400, { message, details: problems.slice(0, 20) });
      }
      res.json(replaced.properties);
    },
  );

  // @implements DICT-007
  // Open to every valid token (DEC-DICT-012); sorted by userorganisation in storage.
  router.get(
    '/dictionary/userorganisations',
    ...limitedBy('listUserOrganisations', ctx.rateLimited),
    ctx.auth,
    ctx.validate('listUserOrganisations'),
    async (_req: Request, res: Response) => {
      res.json(await userOrganisations(ctx.db));
    },
  );

  return router;
}

/** DEC-DICT-005: an admin writes its own account's ontology; a super admin any account's. */
function assertMayWriteOntologyOf(principal: Principal, accountId: string): void {
  if (isSuperAdmin(principal) || principal.accountId === accountId) return;
  throw new HttpError(403, {
    message: `ROLE_ADMIN of account ${principal.accountId} cannot write the ontology of account ${accountId}`,
  });
}
