// The named faults, one per file. Each breaks one rule; conformance/selftest/faults.ts says which
// requirement, and tests/conformance/selftest.test.ts runs the suite through the fault proxy
// with one of them at a time and asserts the check for that rule fails.

export { acceptUnknownTokens } from './acceptUnknownTokens.ts';
export { assetsLastupdatedUtc } from './assetsLastupdatedUtc.ts';
export { assetsNoIdTiebreaker } from './assetsNoIdTiebreaker.ts';
export { burstTooSmall } from './burstTooSmall.ts';
export { createAnswers200 } from './createAnswers200.ts';
export { detailAsList } from './detailAsList.ts';
export { detailSizeCapped } from './detailSizeCapped.ts';
export { draftNeedsTrcid } from './draftNeedsTrcid.ts';
export { dropEntitytype } from './dropEntitytype.ts';
export { dropLastOfFullPage } from './dropLastOfFullPage.ts';
export { exclusiveLastupdated } from './exclusiveLastupdated.ts';
export { feedItemsLive } from './feedItemsLive.ts';
export { feedOverwritesApproved } from './feedOverwritesApproved.ts';
export { feedSizeIgnored } from './feedSizeIgnored.ts';
export { feedsOpenToConsumers } from './feedsOpenToConsumers.ts';
export { flipPublishedBoolean } from './flipPublishedBoolean.ts';
export { geojsonLatLon } from './geojsonLatLon.ts';
export { healthNeedsToken } from './healthNeedsToken.ts';
export { ignoreFilter } from './ignoreFilter.ts';
export { ignoreSortField } from './ignoreSortField.ts';
export { ignoreSortOrder } from './ignoreSortOrder.ts';
export { jsonAsTextPlain } from './jsonAsTextPlain.ts';
export { keepWrittenTranslations } from './keepWrittenTranslations.ts';
export { legacyEventGroupType } from './legacyEventGroupType.ts';
export { listWrappedInObject } from './listWrappedInObject.ts';
export { limitChangesOn429 } from './limitChangesOn429.ts';
export { liveTokenSeesAll } from './liveTokenSeesAll.ts';
export { newDeliveryIdOnRetry } from './newDeliveryIdOnRetry.ts';
export { noIdTiebreaker } from './noIdTiebreaker.ts';
export { noRetryAfter5xx } from './noRetryAfter5xx.ts';
export { offlineFollowsPublished } from './offlineFollowsPublished.ts';
export { omitRateLimitHeaders } from './omitRateLimitHeaders.ts';
export { omitRetryAfter } from './omitRetryAfter.ts';
export { oversizeAs400 } from './oversizeAs400.ts';
export { pageSizeLimit1000 } from './pageSizeLimit1000.ts';
export { remainingCountHeader } from './remainingCountHeader.ts';
export { resourceUriAliveAfterDelete } from './resourceUriAliveAfterDelete.ts';
export { retryAfter4xx } from './retryAfter4xx.ts';
export { secretShownAgainOnPut } from './secretShownAgainOnPut.ts';
export { signinWithoutRefreshToken } from './signinWithoutRefreshToken.ts';
export { signWithOldSecret } from './signWithOldSecret.ts';
export { signWithoutTimestamp } from './signWithoutTimestamp.ts';
export { sizeCapLenient } from './sizeCapLenient.ts';
export { sizeCapWrongMessage } from './sizeCapWrongMessage.ts';
export { sortOrderCaseSensitive } from './sortOrderCaseSensitive.ts';
export { staleOntologyLabels } from './staleOntologyLabels.ts';
export { sustainedTooHigh } from './sustainedTooHigh.ts';
export { throttleAs503 } from './throttleAs503.ts';
export { throttleMessageReworded } from './throttleMessageReworded.ts';
export { unauthorizedAs403 } from './unauthorizedAs403.ts';
export { unlimitedEndpointsLimited } from './unlimitedEndpointsLimited.ts';
export { uppercaseHexSignature } from './uppercaseHexSignature.ts';
export { userorganisationsUnsorted } from './userorganisationsUnsorted.ts';
export { userorganisationsWithoutAccount } from './userorganisationsWithoutAccount.ts';
export { wrongActionType } from './wrongActionType.ts';
export { wrongWebhookUserAgent } from './wrongWebhookUserAgent.ts';
export { yesValueLowercase } from './yesValueLowercase.ts';

// Conforming variations (conformance/selftest/variations.ts): a different choice where the interface
// says "not shown"; the suite must pass them.
export { createAnswerEmpty } from './createAnswerEmpty.ts';
export { dictionaryRootOtherShape } from './dictionaryRootOtherShape.ts';
export { errorBodiesOtherShape } from './errorBodiesOtherShape.ts';
export { unknownExtraField } from './unknownExtraField.ts';
export { userorganisationsMap } from './userorganisationsMap.ts';
export { assetPagesFromOne } from './assetPagesFromOne.ts';
export { createAnswerNoLocation } from './createAnswerNoLocation.ts';
export { itemPagesFromOne } from './itemPagesFromOne.ts';
export { logoutByGet } from './logoutByGet.ts';
export { signInFieldNames } from './signInFieldNames.ts';
export { statusMovesByPutOnly } from './statusMovesByPutOnly.ts';
export { tokenIdField } from './tokenIdField.ts';
export { updateOnCollection } from './updateOnCollection.ts';
export { tokenFilterOtherShape } from './tokenFilterOtherShape.ts';
