-- 002 dictionary: the ontologies accounts have of their own. Each row is a complete replacement of
-- the base ontology for that account (ONTO-015), never a patch; the base ontologies themselves are
-- data files (reference-impl/src/dictionary/ontology-data/), not rows. Type ontology rows are
-- seeded from those data files; property ontology rows are written by
-- PUT /dictionary/propertiesOntology.
--
-- `doc` is the ontology without `lastModified`; `last_modified` is its lastModified: set by the
-- server, strictly advancing per row on every change, and the version the ontology cache compares
-- on every request.

CREATE TABLE account_type_ontologies (
  account_id    text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  doc           jsonb NOT NULL,
  last_modified timestamptz(3) NOT NULL
);

CREATE TABLE account_property_ontologies (
  account_id    text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  doc           jsonb NOT NULL,
  last_modified timestamptz(3) NOT NULL
);
