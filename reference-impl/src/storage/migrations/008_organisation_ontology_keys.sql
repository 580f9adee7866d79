-- 008 organisation ontology keys: the ontology part of the rendering key in force for each
-- organisation (migration 007: `<account>|<types ms>|<properties ms>`), kept on the organisation
-- by triggers. A list then checks each row's rendering with one primary-key lookup instead of a
-- join of three tables per row, which PostgreSQL planned anew on every query: for a 20-item page
-- the planning cost more than the query.

ALTER TABLE organisations ADD COLUMN ontology_key text;

-- The key of an account's ontologies as they are now; the same text renderingKey.ts writes from
-- JavaScript (lastModified has millisecond precision, migration 002).
CREATE FUNCTION account_ontology_key(account text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT account || '|' || coalesce(((extract(epoch FROM t.last_modified) * 1000)::bigint)::text, '')
                 || '|' || coalesce(((extract(epoch FROM p.last_modified) * 1000)::bigint)::text, '')
    FROM (SELECT) AS one
    LEFT JOIN account_type_ontologies t ON t.account_id = account
    LEFT JOIN account_property_ontologies p ON p.account_id = account
$$;

-- Writers of one account's keys queue up, and each reads the ontologies only once it holds the
-- lock (a plpgsql statement takes a fresh snapshot): two changes committing side by side can't
-- leave a key that misses either. Per schema, like the migration lock.
CREATE FUNCTION lock_account_ontology_key(account text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':ontology_key:' || account)::bigint)
$$;

CREATE FUNCTION organisations_set_ontology_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_account_ontology_key(NEW.account_id);
  NEW.ontology_key := account_ontology_key(NEW.account_id);
  RETURN NEW;
END;
$$;

CREATE TRIGGER organisations_set_ontology_key BEFORE INSERT OR UPDATE OF account_id ON organisations
  FOR EACH ROW EXECUTE FUNCTION organisations_set_ontology_key();

CREATE FUNCTION ontologies_renew_ontology_keys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  account text;
BEGIN
  FOR account IN SELECT DISTINCT a FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD.account_id END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW.account_id END]) AS a WHERE a IS NOT NULL LOOP
    PERFORM lock_account_ontology_key(account);
    UPDATE organisations SET ontology_key = account_ontology_key(account) WHERE account_id = account;
  END LOOP;
  RETURN NULL;
END;
$$;

CREATE TRIGGER account_type_ontologies_renew_ontology_keys AFTER INSERT OR UPDATE OR DELETE ON account_type_ontologies
  FOR EACH ROW EXECUTE FUNCTION ontologies_renew_ontology_keys();
CREATE TRIGGER account_property_ontologies_renew_ontology_keys AFTER INSERT OR UPDATE OR DELETE ON account_property_ontologies
  FOR EACH ROW EXECUTE FUNCTION ontologies_renew_ontology_keys();

UPDATE organisations SET ontology_key = account_ontology_key(account_id);
ALTER TABLE organisations ALTER COLUMN ontology_key SET NOT NULL;
