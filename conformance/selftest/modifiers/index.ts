// The named faults. Each one breaks one rule family; the self-test runs the suite through the
// fault proxy with one of them and asserts that the check for that rule fails.

export { exclusiveLastupdated } from './exclusiveLastupdated.ts';
export { flipPublishedBoolean } from './flipPublishedBoolean.ts';
export { omitRetryAfter } from './omitRetryAfter.ts';
export { retryAfter4xx } from './retryAfter4xx.ts';
export { signWithoutTimestamp } from './signWithoutTimestamp.ts';
