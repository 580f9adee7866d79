-- 010 content version: a value that changes with everything a list answer is made of: the items,
-- the account ontology overrides and the organisations (which account owns an item, so whose
-- ontologies fill its labels, ONTO-008). Every statement writing them sets a new one in its own
-- transaction, so a reader that reads the version before a page knows whether a page rendered at
-- that version is still current (items/listPageCache.ts), on every instance at once.
--
-- A random value, not a counter: after a restore or a failover that lost commits, a counter would
-- hand out numbers again for other content, and instances would take their kept pages for current.
--
-- It lives in item_stamp's one row, whose lock every writer of these tables thus takes, and takes
-- FIRST, so that writers queue in one order and cannot deadlock: item writes take it in their
-- stamping statement anyway (an item statement's trigger fires AFTER it: a BEFORE one would update
-- the row the statement's own stamping CTE updates next, which PostgreSQL refuses), and
-- organisation and ontology statements take it BEFORE they run, so before the per-account locks
-- of migration 008 and any row lock.

ALTER TABLE item_stamp ADD COLUMN content_version uuid NOT NULL DEFAULT gen_random_uuid();

CREATE FUNCTION renew_content_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE item_stamp SET content_version = gen_random_uuid();
  RETURN NULL;
END;
$$;

-- Every column but the stored renderings: renewing those (migration 007) leaves the answers as they
-- were, and the refresher that writes them takes no item write lock.
CREATE TRIGGER items_renew_content_version
  AFTER INSERT OR DELETE OR TRUNCATE
      OR UPDATE OF id, trcid, entitytype, wfstatus, userorganisation, creationdate, lastupdated, external_id, title, slug, doc
  ON items FOR EACH STATEMENT EXECUTE FUNCTION renew_content_version();

CREATE TRIGGER organisations_renew_content_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON organisations
  FOR EACH STATEMENT EXECUTE FUNCTION renew_content_version();
CREATE TRIGGER account_type_ontologies_renew_content_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON account_type_ontologies
  FOR EACH STATEMENT EXECUTE FUNCTION renew_content_version();
CREATE TRIGGER account_property_ontologies_renew_content_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON account_property_ontologies
  FOR EACH STATEMENT EXECUTE FUNCTION renew_content_version();
