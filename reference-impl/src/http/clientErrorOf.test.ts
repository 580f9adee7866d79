import { describe, expect, it } from 'vitest';
import { RuleViolation, ruleViolation } from '../domain/ruleViolation.ts';
import { clientErrorOf } from './clientErrorOf.ts';
import { HttpError } from './HttpError.ts';

describe('clientErrorOf', () => {
  it('when a domain rule is broken, then the answer is a 400 with its message and details', () => {
    const answer = clientErrorOf(ruleViolation('/wfstatus', 'wfstatus must be one of approved'));
    expect(answer?.toBody()).toEqual({
      status: 400,
      error: 'Bad Request',
      message: 'wfstatus must be one of approved',
      details: [{ pointer: '/wfstatus', message: 'wfstatus must be one of approved' }],
    });
  });

  it('when the writer may not do what the rule forbids, then the answer is a 403', () => {
    const violation = new RuleViolation(
      'not yours',
      [{ pointer: '/userorganisation', message: 'not yours' }],
      'forbidden',
    );
    expect(clientErrorOf(violation)?.status).toBe(403);
  });

  it('when the error is an HttpError, then it is answered as it is; anything else is no client error', () => {
    const error = new HttpError(409, { message: 'taken' });
    expect(clientErrorOf(error)).toBe(error);
    expect(clientErrorOf(new Error('boom'))).toBeUndefined();
  });
});
