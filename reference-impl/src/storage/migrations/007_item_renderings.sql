-- 007 item renderings: the response JSON of each item, kept beside its document so that list
-- pages are read, not re-rendered (a 2000-item page is 10+ MB of JSON).
--
-- `rendered_body` is the rendered item without its server columns (id, trcid, wfstatus and the
-- booleans derived from it, the dates, userorganisation, slug, externalId), which are written
-- from the columns on every read: the JSON members after them, without the braces.
-- `rendered_key` says what it was rendered with: the renderer's version and the owning account's
-- ontology versions. A read uses the body only when the key equals the one in force now, so an
-- ontology change or a new renderer shows at once (ONTO-006, ONTO-008); the item is rendered
-- live until the body is renewed. Both are a cache: NULL is always correct.

ALTER TABLE items ADD COLUMN rendered_body text;
ALTER TABLE items ADD COLUMN rendered_key text;
-- Out of line and uncompressed: a list page reads up to 2000 of them, and decompressing each costs
-- the database more time than reading twice the bytes from its cache.
ALTER TABLE items ALTER COLUMN rendered_body SET STORAGE EXTERNAL;

-- A write that changes the document without supplying a new rendering drops the old one, so a
-- stale body can never outlive the document it was rendered from, whoever writes.
CREATE FUNCTION items_drop_stale_rendering() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.doc IS DISTINCT FROM OLD.doc AND NEW.rendered_body IS NOT DISTINCT FROM OLD.rendered_body THEN
    NEW.rendered_body := NULL;
    NEW.rendered_key := NULL;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER items_drop_stale_rendering BEFORE UPDATE ON items
  FOR EACH ROW EXECUTE FUNCTION items_drop_stale_rendering();
