// Conforming variation: creating an item answers 201 with an empty body and no Location header;
// the item is found by its trcid ("Response body of item creation: not shown"; our DEC-ITEM-002).

import type { FaultModifier } from '../faultProxy.ts';
import { createAnswerEmpty } from './createAnswerEmpty.ts';

export function createAnswerNoLocation(): FaultModifier {
  return createAnswerEmpty({ keepLocation: false });
}
