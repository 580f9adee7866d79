-- 010 content version: one number that changes with everything a list answer is made of: the
-- items, the account ontology overrides and the organisations (which account owns an item, so
-- whose ontologies fill its labels, ONTO-008). Every statement writing them bumps it in its own
-- transaction, so a reader that reads the version before a page knows whether a page rendered at
-- that version is still current (items/listPageCache.ts), on every instance at once.
--
-- It lives in item_stamp's one row: item writes hold that row's lock to commit anyway, and with
-- one lock for every writer of the version, no two of them can wait on each other in a cycle.

ALTER TABLE item_stamp ADD COLUMN content_version bigint NOT NULL DEFAULT 0;

CREATE FUNCTION bump_content_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE item_stamp SET content_version = content_version + 1;
  RETURN NULL;
END;
$$;

-- Every column but the stored renderings: renewing those (migration 007) leaves the answers as they
-- were, and the refresher that writes them takes no item write lock.
CREATE TRIGGER items_bump_content_version
  AFTER INSERT OR DELETE OR TRUNCATE
     OR UPDATE OF id, trcid, entitytype, wfstatus, userorganisation, creationdate, lastupdated, external_id, title, slug, doc
  ON items FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();

CREATE TRIGGER organisations_bump_content_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organisations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
CREATE TRIGGER account_type_ontologies_bump_content_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON account_type_ontologies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
CREATE TRIGGER account_property_ontologies_bump_content_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON account_property_ontologies
  FOR EACH STATEMENT EXECUTE FUNCTION bump_content_version();
