// Service MUST requirements (black-box or needs-feed) that no fault of the self-test breaks on its
// own, each with the reason. faults.test.ts fails when such a requirement has neither a fault
// (`detects`) nor an entry here, and when an entry also has a fault. Adding a fault for a rule
// removes its entry.

export const WITHOUT_FAULT: Readonly<Record<string, string>> = {
  'ONTO-008':
    "every token of the self-test belongs to the account owning the items it can read, so the caller's ontology is the owner's and a service using the caller's looks the same (ontology.fill-in compares with the owner's)",
  'DICT-001':
    "the interface cannot write a type ontology and a run's tokens share one account: an ignored accountId cannot be told from accounts whose type ontologies are alike (DICT-003 has its fault through a property override)",
  'DICT-007':
    "how a client finds the owning account; the service's parts have their own faults (userorganisationsWithoutAccount, propertiesAccountIdIgnored)",
};
