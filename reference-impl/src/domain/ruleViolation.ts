/** One broken rule: where (`/wfstatus`, `query/lastupdated`) and what is wrong. */
export interface RuleViolationDetail {
  pointer: string;
  message: string;
}

/**
 * A request that breaks a domain rule. domain/ knows no HTTP: the HTTP layer answers an `invalid`
 * violation as a 400 and a `forbidden` one (the writer may not do this) as a 403, both with the
 * message and details as given.
 */
export class RuleViolation extends Error {
  readonly kind: 'invalid' | 'forbidden';
  readonly details: readonly RuleViolationDetail[];

  constructor(message: string, details: readonly RuleViolationDetail[], kind: 'invalid' | 'forbidden' = 'invalid') {
    super(message);
    this.name = 'RuleViolation';
    this.kind = kind;
    this.details = details;
  }
}

/**
 * A violation about one place in the request. `message` is a whole sentence naming the field,
 * what was received and what was expected; it is both the message and the one detail's message.
 */
export function ruleViolation(pointer: string, message: string): RuleViolation {
  return new RuleViolation(message, [{ pointer, message }]);
}
