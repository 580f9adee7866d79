-- 012 calendar, promotion, performer and SEO shapes: stored item documents move to the operator's
-- model's shapes (issue 27; DEC-ITEM-010, -011, -023, -104, -105, -106), nothing lost: a value with
-- no place in the model stays under its former name, which the spec keeps as deprecated.
--
--   calendar.calendarType ALWAYS   → ALWAYSOPEN, with alwaysopen: true
--   patternDates[] {weekdays, when} → recurrencyType weekly, one opens entry per weekday (1 = Sunday)
--                                     with the when as its whens; no weekdays → daily, one opens entry
--   calendar dates YYYY-MM-DD       → YYYY-MM-DDT00:00:00 (patterns; single dates were stored so)
--   time slots' timeend 24:00       → 00:00 (an end at or before the start is the next day: same instant)
--   performers[].role               → rolelabel
--   promotions[] title, description, validFrom, validTo
--                                   → product, translations[{lang, description}], startDate 00:00:00
--                                     and endDate 23:59:59 in Europe/Amsterdam with their offset,
--                                     validityStrategy dateRange
--   seoMetadata title, description, openGraph.image, openGraph.type (the model's values)
--                                   → one seoDetails entry in the primary language; openGraph keeps
--                                     only what differs from the meta texts or is not the model's type
--
-- A former field whose new name is already taken is left as it is. lastupdated does not change:
-- this is a change of form, not of content, and the renderer's new version re-renders every item.

CREATE FUNCTION m012_local_day(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'string' AND (value #>> '{}') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
              THEN to_jsonb((value #>> '{}') || 'T00:00:00') ELSE value END
$$;

CREATE FUNCTION m012_slots(slots jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF jsonb_typeof(slots) IS DISTINCT FROM 'array' THEN RETURN slots; END IF;
  RETURN (SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(s) = 'object' AND s ->> 'timeend' = '24:00'
                                         THEN jsonb_set(s, '{timeend}', '"00:00"') ELSE s END ORDER BY i), '[]'::jsonb)
          FROM jsonb_array_elements(slots) WITH ORDINALITY AS e(s, i));
END;
$$;

CREATE FUNCTION m012_pattern(p jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  days jsonb;
  whens jsonb;
  result jsonb;
BEGIN
  IF jsonb_typeof(p) IS DISTINCT FROM 'object' THEN RETURN p; END IF;
  result := p;
  IF p ? 'startdate' THEN result := jsonb_set(result, '{startdate}', m012_local_day(p -> 'startdate')); END IF;
  IF p ? 'enddate' THEN result := jsonb_set(result, '{enddate}', m012_local_day(p -> 'enddate')); END IF;
  IF NOT (p ? 'weekdays' OR p ? 'when') THEN RETURN result; END IF;

  days := CASE jsonb_typeof(p -> 'weekdays')
            WHEN 'array' THEN p -> 'weekdays'
            WHEN 'string' THEN jsonb_build_array(p -> 'weekdays')
            ELSE '[]'::jsonb END;
  whens := m012_slots(p -> 'when');
  IF jsonb_typeof(whens) IS DISTINCT FROM 'array' OR jsonb_array_length(whens) = 0 THEN whens := NULL; END IF;
  result := result - 'weekdays' - 'when';
  IF jsonb_array_length(days) > 0 THEN
    result := result || jsonb_build_object(
      'recurrencyType', 'weekly',
      'opens', (SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object('day', n)) ||
                                          CASE WHEN whens IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('whens', whens) END
                                          ORDER BY i), '[]'::jsonb)
                FROM jsonb_array_elements_text(days) WITH ORDINALITY AS d(code, i),
                     LATERAL (SELECT array_position(ARRAY['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'], code) AS n) AS x));
  ELSE
    result := result || jsonb_build_object('recurrencyType', 'daily');
    IF whens IS NOT NULL THEN
      result := result || jsonb_build_object('opens', jsonb_build_array(jsonb_build_object('whens', whens)));
    END IF;
  END IF;
  RETURN result;
END;
$$;

CREATE FUNCTION m012_calendar(c jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb := c;
BEGIN
  IF jsonb_typeof(c) IS DISTINCT FROM 'object' THEN RETURN c; END IF;
  IF upper(c ->> 'calendarType') = 'ALWAYS' THEN
    result := jsonb_set(result, '{calendarType}', '"ALWAYSOPEN"');
    IF NOT c ? 'alwaysopen' THEN result := result || '{"alwaysopen": true}'::jsonb; END IF;
  END IF;
  IF jsonb_typeof(c -> 'singleDates') = 'array' THEN
    result := jsonb_set(result, '{singleDates}', (
      SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(d) = 'object' AND d ? 'when'
                                     THEN jsonb_set(d, '{when}', m012_slots(d -> 'when')) ELSE d END ORDER BY i), '[]'::jsonb)
      FROM jsonb_array_elements(c -> 'singleDates') WITH ORDINALITY AS e(d, i)));
  END IF;
  IF jsonb_typeof(c -> 'patternDates') = 'array' THEN
    result := jsonb_set(result, '{patternDates}', (
      SELECT coalesce(jsonb_agg(m012_pattern(p) ORDER BY i), '[]'::jsonb)
      FROM jsonb_array_elements(c -> 'patternDates') WITH ORDINALITY AS e(p, i)));
  END IF;
  RETURN result;
END;
$$;

-- `day` at `clock` in Europe/Amsterdam as an RFC 3339 timestamp with the offset in force then.
CREATE FUNCTION m012_amsterdam(day text, clock text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  wall timestamp := (day || ' ' || clock)::timestamp;
  minutes integer := round(extract(epoch FROM (wall - ((wall AT TIME ZONE 'Europe/Amsterdam') AT TIME ZONE 'UTC'))) / 60);
BEGIN
  RETURN to_char(wall, 'YYYY-MM-DD"T"HH24:MI:SS') || CASE WHEN minutes < 0 THEN '-' ELSE '+' END
    || lpad((abs(minutes) / 60)::text, 2, '0') || ':' || lpad((abs(minutes) % 60)::text, 2, '0');
END;
$$;

CREATE FUNCTION m012_promotion(p jsonb, lang text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb;
BEGIN
  IF jsonb_typeof(p) IS DISTINCT FROM 'object' THEN RETURN p; END IF;
  result := p;
  IF p ? 'title' AND NOT p ? 'product' THEN
    result := (result - 'title') || jsonb_build_object('product', p -> 'title');
  END IF;
  IF p ? 'description' AND (NOT p ? 'translations' OR jsonb_typeof(p -> 'translations') = 'array') THEN
    result := (result - 'description') || jsonb_build_object('translations',
      coalesce(p -> 'translations', '[]'::jsonb)
        || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('lang', lang)) || jsonb_build_object('description', p -> 'description')));
  END IF;
  IF jsonb_typeof(p -> 'validFrom') = 'string' AND (p ->> 'validFrom') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND NOT p ? 'startDate' THEN
    result := (result - 'validFrom') || jsonb_build_object('startDate', m012_amsterdam(p ->> 'validFrom', '00:00:00'));
  END IF;
  IF jsonb_typeof(p -> 'validTo') = 'string' AND (p ->> 'validTo') ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND NOT p ? 'endDate' THEN
    result := (result - 'validTo') || jsonb_build_object('endDate', m012_amsterdam(p ->> 'validTo', '23:59:59'));
  END IF;
  IF (p ? 'validFrom' OR p ? 'validTo') AND NOT (result ? 'validFrom' OR result ? 'validTo') AND NOT p ? 'validityStrategy' THEN
    result := result || '{"validityStrategy": "dateRange"}'::jsonb;
  END IF;
  RETURN result;
END;
$$;

CREATE FUNCTION m012_seo(s jsonb, lang text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  og jsonb;
  model_type boolean;
  detail jsonb;
  remainder jsonb;
  result jsonb;
BEGIN
  IF jsonb_typeof(s) IS DISTINCT FROM 'object' THEN RETURN s; END IF;
  og := CASE WHEN jsonb_typeof(s -> 'openGraph') = 'object' THEN s -> 'openGraph' ELSE '{}'::jsonb END;
  model_type := coalesce(og ->> 'type' IN ('event', 'place', 'article', 'organization'), false);
  detail := jsonb_strip_nulls(jsonb_build_object(
    'metaTitle', s -> 'title',
    'metaDescription', s -> 'description',
    'ogImageUrl', og -> 'image',
    'ogType', CASE WHEN model_type THEN og -> 'type' END));
  result := s - 'title' - 'description' - 'schemaOrg';
  IF detail <> '{}'::jsonb THEN
    IF jsonb_typeof(s -> 'seoDetails') IS NOT NULL AND jsonb_typeof(s -> 'seoDetails') <> 'array' THEN
      RETURN s - 'schemaOrg'; -- an unexpected seoDetails: leave the entry as it is
    END IF;
    result := result || jsonb_build_object('seoDetails', coalesce(s -> 'seoDetails', '[]'::jsonb)
      || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('lang', lang)) || detail));
  END IF;
  IF jsonb_typeof(s -> 'openGraph') = 'object' THEN
    remainder := og - 'image';
    IF og -> 'title' = s -> 'title' THEN remainder := remainder - 'title'; END IF;
    IF og -> 'description' = s -> 'description' THEN remainder := remainder - 'description'; END IF;
    IF model_type THEN remainder := remainder - 'type'; END IF;
    result := CASE WHEN remainder = '{}'::jsonb THEN result - 'openGraph' ELSE jsonb_set(result, '{openGraph}', remainder) END;
  END IF;
  RETURN result;
END;
$$;

CREATE FUNCTION m012_doc(d jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  lang text := CASE WHEN jsonb_typeof(d -> 'translations' -> 'primaryLanguage') = 'string'
                    THEN d -> 'translations' ->> 'primaryLanguage' END;
  result jsonb := d;
BEGIN
  IF d ? 'calendar' THEN result := jsonb_set(result, '{calendar}', m012_calendar(d -> 'calendar')); END IF;
  IF jsonb_typeof(d -> 'performers') = 'array' THEN
    result := jsonb_set(result, '{performers}', (
      SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(p) = 'object' AND p ? 'role' AND NOT p ? 'rolelabel'
                                     THEN (p - 'role') || jsonb_build_object('rolelabel', p -> 'role') ELSE p END ORDER BY i), '[]'::jsonb)
      FROM jsonb_array_elements(d -> 'performers') WITH ORDINALITY AS e(p, i)));
  END IF;
  IF jsonb_typeof(d -> 'promotions') = 'array' THEN
    result := jsonb_set(result, '{promotions}', (
      SELECT coalesce(jsonb_agg(m012_promotion(p, lang) ORDER BY i), '[]'::jsonb)
      FROM jsonb_array_elements(d -> 'promotions') WITH ORDINALITY AS e(p, i)));
  END IF;
  IF d ? 'seoMetadata' THEN result := jsonb_set(result, '{seoMetadata}', m012_seo(d -> 'seoMetadata', lang)); END IF;
  RETURN result;
END;
$$;

UPDATE items SET doc = m012_doc(doc) WHERE doc IS DISTINCT FROM m012_doc(doc);

DROP FUNCTION m012_doc(jsonb);
DROP FUNCTION m012_seo(jsonb, text);
DROP FUNCTION m012_promotion(jsonb, text);
DROP FUNCTION m012_amsterdam(text, text);
DROP FUNCTION m012_calendar(jsonb);
DROP FUNCTION m012_pattern(jsonb);
DROP FUNCTION m012_slots(jsonb);
DROP FUNCTION m012_local_day(jsonb);
