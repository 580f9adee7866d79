-- 011 stored renderings kept in the row. Migration 007 stored them out of line (uncompressed), so
-- a list page of 2000 items made PostgreSQL look each one up in the TOAST table: an index probe
-- and three chunks per item. Kept in the heap row instead, a page is read straight from the rows:
-- the direct keyset backfill went from 27,000–29,000 to 35,000–45,000 items/s (30,000 items,
-- PostgreSQL, docs/benchmarks.md).
--
-- toast_tuple_target lets a row grow to a whole page before PostgreSQL moves values out; MAIN
-- makes the rendering the last value moved: the document (EXTENDED) is compressed, then moved
-- out, first. A rendering is compressed only if the row still does not fit, and moved out last.
-- Rows written before keep their layout until their rendering is written again.
ALTER TABLE items ALTER COLUMN rendered_body SET STORAGE MAIN;
ALTER TABLE items SET (toast_tuple_target = 8160);

-- The heap is now about twenty times larger, so the sorts that scanned it (sortField slug,
-- wfstatus, userorganisation, externalId; 2–6 times slower on the larger heap) get an index in the
-- order the list asks (DEC-LIST-003: the field, then id).
CREATE INDEX items_entitytype_slug_idx ON items (entitytype, slug, id);
CREATE INDEX items_entitytype_wfstatus_idx ON items (entitytype, wfstatus, id);
CREATE INDEX items_entitytype_userorganisation_idx ON items (entitytype, userorganisation, id);
CREATE INDEX items_entitytype_external_id_idx ON items (entitytype, external_id, id);
