-- DEC-LIST-032: an index for each list filter of DEC-LIST-021…029, so that a filtered list of a
-- 100,000-item collection reads only the matching rows. Each indexed expression is the text of
-- FILTER_EXPRESSIONS in storage/items/listFilters.ts (listFilters.test.ts holds them together):
-- PostgreSQL uses an expression index only for the same expression. Documents are not changed.

-- An event's first and last day (DEC-LIST-027), from its single dates and pattern periods, as ISO
-- text (the first 10 characters of a date or a local timestamp). A pattern without `enddate` runs on.
CREATE FUNCTION item_first_day(doc jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT min(left(day #>> '{}', 10))
      FROM (SELECT jsonb_path_query(doc, '$.calendar.singleDates[*].date') AS day
            UNION ALL
            SELECT jsonb_path_query(doc, '$.calendar.patternDates[*].startdate')) AS days
     WHERE jsonb_typeof(day) = 'string'
  $$;

CREATE FUNCTION item_last_day(doc jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT max(CASE WHEN kind = 'open' THEN '9999-12-31' ELSE left(day #>> '{}', 10) END)
      FROM (SELECT 'day' AS kind, jsonb_path_query(doc, '$.calendar.singleDates[*].date') AS day
            UNION ALL
            SELECT CASE WHEN pattern ? 'enddate' THEN 'day' ELSE 'open' END,
                   CASE WHEN pattern ? 'enddate' THEN pattern -> 'enddate' ELSE pattern -> 'startdate' END
              FROM jsonb_path_query(doc, '$.calendar.patternDates[*]') AS pattern
             WHERE jsonb_typeof(pattern) = 'object') AS days
     WHERE jsonb_typeof(day) = 'string'
  $$;

-- The words of the titles and descriptions (DEC-LIST-021), kept beside the document: a prefix
-- search rechecks every row the index finds, and recomputing the words of each took 7 times longer
-- than reading them (210 ms against 31 ms for 3,334 of 50,000 rows).
ALTER TABLE items ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', jsonb_path_query_array(doc, '$.trcItemDetails[*].title') || jsonb_path_query_array(doc, '$.trcItemDetails[*].shortdescription') || jsonb_path_query_array(doc, '$.trcItemDetails[*].longdescription'))) STORED;
CREATE INDEX items_text_search_idx ON items USING gin (search_vector);
CREATE INDEX items_langs_idx ON items USING gin ((jsonb_path_query_array(doc, '$.trcItemDetails[*].lang')));
CREATE INDEX items_types_idx ON items USING gin ((jsonb_path_query_array(doc, '$.trcItemCategories.types[*].catid')));
CREATE INDEX items_categories_idx ON items USING gin ((jsonb_path_query_array(doc, '$.trcItemCategories.categories[*].catid')));
-- The keywords and markers as lists (DEC-LIST-029), kept for the same reason: splitting each
-- document's string again took a second for a keyword no item holds among 50,000 events.
ALTER TABLE items ADD COLUMN keyword_tags text[] GENERATED ALWAYS AS (COALESCE(regexp_split_to_array(lower(btrim(doc ->> 'keywords')), '\s*[,;]\s*'), '{}')) STORED;
CREATE INDEX items_keywords_idx ON items USING gin (keyword_tags);
ALTER TABLE items ADD COLUMN marker_tags text[] GENERATED ALWAYS AS (COALESCE(regexp_split_to_array(lower(btrim(doc ->> 'markers')), '\s*[,;]\s*'), '{}')) STORED;
CREATE INDEX items_markers_idx ON items USING gin (marker_tags);
CREATE INDEX items_city_idx ON items (entitytype, (lower(btrim(doc #>> '{location,address,city}'))));
CREATE INDEX items_owner_idx ON items (entitytype, (lower(doc ->> 'owner')));
CREATE INDEX items_first_day_idx ON items (entitytype, (item_first_day(doc)));
CREATE INDEX items_last_day_idx ON items (entitytype, (item_last_day(doc)));
