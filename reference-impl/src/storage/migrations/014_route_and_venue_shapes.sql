-- 014 route and venue shapes: stored items move to the operator's model's fields, nothing dropped.
--
-- routeInfo (DEC-ITEM-016): distance → distanceInKilometers, duration → durationInMinutes,
-- surfaceType → primarySurface (its values stay: unpaved remains valid), waypoints[] →
-- routeCoordinates[], pointsOfInterest[] → pois[]; a point's {xcoordinate, ycoordinate} decimal
-- strings become {lat, lng} numbers (a string that is no decimal number stays as it was); a point
-- of interest's name becomes its trcItemDetails title in the item's language, its trcid its
-- locationItem.trcid. routeType and difficulty keep their values, all of the model's enums.
--
-- venueCapacity (DEC-ITEM-150): each of its five values becomes a category of the item,
-- {catid, value} with the value as text: totalCapacity p-1501, minGroupSize p-1502,
-- maxGroupSize p-1503, meetingRooms p-1504, squareMetres p-1505.
--
-- trcitemRelation.subItemGroups[] (DEC-ITEM-151): a room's name becomes its subItemTranslations
-- title in the item's language, its surface category p-1505 and its capacities theater,
-- ushape, cabaret, reception and seatedDinner categories p-1601 to p-1605.
--
-- The item's language is translations.primaryLanguage, else the language of its first
-- trcItemDetails entry, else nl. Fields the old schemas did not name (nested objects were open)
-- are kept where they were; a key of a new name already there is replaced by the moved value;
-- what is left of a venueCapacity or a room's capacities after the move stays under its old name.
-- lastupdated is not changed and no webhook is sent: the items say what they said, in new fields.
-- Their stored renderings are dropped by the trigger of migration 007 and made again.

CREATE FUNCTION migration_014_language(doc jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(
    nullif(doc #>> '{translations,primaryLanguage}', ''),
    (SELECT detail ->> 'lang'
       FROM jsonb_array_elements(CASE WHEN jsonb_typeof(doc -> 'trcItemDetails') = 'array'
                                      THEN doc -> 'trcItemDetails' ELSE '[]' END) WITH ORDINALITY AS d(detail, n)
      WHERE jsonb_typeof(detail) = 'object' AND coalesce(detail ->> 'lang', '') <> ''
      ORDER BY n LIMIT 1),
    'nl')
$$;

-- A decimal string as a JSON number; anything else as it is.
CREATE FUNCTION migration_014_number(value jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(value) = 'string' AND (value #>> '{}') ~ '^-?[0-9]+(\.[0-9]+)?$'
      THEN to_jsonb((value #>> '{}')::double precision)
    ELSE value
  END
$$;

-- {xcoordinate, ycoordinate, ...} → {lat, lng, ...}.
CREATE FUNCTION migration_014_point(point jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(point) <> 'object' THEN point ELSE
    (point - 'xcoordinate' - 'ycoordinate')
      || CASE WHEN point ? 'ycoordinate' THEN jsonb_build_object('lat', migration_014_number(point -> 'ycoordinate')) ELSE '{}' END
      || CASE WHEN point ? 'xcoordinate' THEN jsonb_build_object('lng', migration_014_number(point -> 'xcoordinate')) ELSE '{}' END
  END
$$;

CREATE FUNCTION migration_014_each(list jsonb, fn text, lang text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb := '[]';
  entry jsonb;
BEGIN
  IF jsonb_typeof(list) <> 'array' THEN RETURN list; END IF;
  FOR entry IN SELECT e FROM jsonb_array_elements(list) WITH ORDINALITY AS a(e, n) ORDER BY n LOOP
    out := out || jsonb_build_array(CASE fn
      WHEN 'point' THEN migration_014_point(entry)
      WHEN 'poi' THEN migration_014_poi(entry, lang)
      WHEN 'room' THEN migration_014_room(entry, lang)
    END);
  END LOOP;
  RETURN out;
END;
$$;

CREATE FUNCTION migration_014_poi(poi jsonb, lang text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(poi) <> 'object' THEN poi ELSE
    (poi - 'name' - 'xcoordinate' - 'ycoordinate' - 'trcid')
      || CASE WHEN poi ? 'xcoordinate' OR poi ? 'ycoordinate'
           THEN jsonb_build_object('coordinate', migration_014_point(jsonb_strip_nulls(jsonb_build_object(
                  'xcoordinate', poi -> 'xcoordinate', 'ycoordinate', poi -> 'ycoordinate'))))
           ELSE '{}' END
      || CASE WHEN poi ? 'name'
           THEN jsonb_build_object('trcItemDetails', jsonb_build_array(jsonb_build_object('lang', lang, 'title', poi -> 'name')))
           ELSE '{}' END
      || CASE WHEN poi ? 'trcid' THEN jsonb_build_object('locationItem', jsonb_build_object('trcid', poi -> 'trcid')) ELSE '{}' END
  END
$$;

CREATE FUNCTION migration_014_route_info(info jsonb, lang text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT (info - 'distance' - 'duration' - 'surfaceType' - 'waypoints' - 'pointsOfInterest')
    || CASE WHEN info ? 'distance' THEN jsonb_build_object('distanceInKilometers', info -> 'distance') ELSE '{}' END
    || CASE WHEN info ? 'duration' THEN jsonb_build_object('durationInMinutes', info -> 'duration') ELSE '{}' END
    || CASE WHEN info ? 'surfaceType' THEN jsonb_build_object('primarySurface', info -> 'surfaceType') ELSE '{}' END
    || CASE WHEN info ? 'waypoints'
         THEN jsonb_build_object('routeCoordinates', migration_014_each(info -> 'waypoints', 'point', lang)) ELSE '{}' END
    || CASE WHEN info ? 'pointsOfInterest'
         THEN jsonb_build_object('pois', migration_014_each(info -> 'pointsOfInterest', 'poi', lang)) ELSE '{}' END
$$;

-- The {catid, value} categories of the keys of `source` that `mapping` names, in mapping order.
CREATE FUNCTION migration_014_categories(source jsonb, mapping text[][]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object('catid', mapping[n][2], 'value', source ->> mapping[n][1]) ORDER BY n), '[]')
    FROM generate_subscripts(mapping, 1) AS n
   WHERE jsonb_typeof(source) = 'object' AND source ? mapping[n][1] AND jsonb_typeof(source -> mapping[n][1]) <> 'null'
$$;

-- `source` without the keys `mapping` names; NULL when nothing is left.
CREATE FUNCTION migration_014_rest(source jsonb, mapping text[][]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT nullif(source - ARRAY(SELECT mapping[n][1] FROM generate_subscripts(mapping, 1) AS n), '{}')
$$;

CREATE FUNCTION migration_014_room(room jsonb, lang text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  setups constant text[][] := ARRAY[['theater', 'p-1601'], ['ushape', 'p-1602'], ['cabaret', 'p-1603'],
                                    ['reception', 'p-1604'], ['seatedDinner', 'p-1605']];
  out jsonb;
  moved jsonb;
  rest jsonb;
BEGIN
  IF jsonb_typeof(room) <> 'object' OR NOT (room ? 'name' OR room ? 'surface' OR room ? 'capacities') THEN
    RETURN room;
  END IF;
  out := room - 'name' - 'surface' - 'capacities';
  IF room ? 'name' THEN
    out := out || jsonb_build_object('subItemTranslations',
      jsonb_build_array(jsonb_build_object('lang', lang, 'title', room -> 'name')));
  END IF;
  moved := migration_014_categories(room, ARRAY[['surface', 'p-1505']])
        || migration_014_categories(room -> 'capacities', setups);
  IF moved <> '[]' THEN
    out := out || jsonb_build_object('categories',
      CASE WHEN jsonb_typeof(room -> 'categories') = 'array' THEN room -> 'categories' ELSE '[]' END || moved);
  END IF;
  IF room ? 'capacities' THEN
    rest := CASE WHEN jsonb_typeof(room -> 'capacities') = 'object'
                 THEN migration_014_rest(room -> 'capacities', setups) ELSE room -> 'capacities' END;
    IF rest IS NOT NULL THEN out := out || jsonb_build_object('capacities', rest); END IF;
  END IF;
  RETURN out;
END;
$$;

CREATE FUNCTION migration_014_doc(doc jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  venue constant text[][] := ARRAY[['totalCapacity', 'p-1501'], ['minGroupSize', 'p-1502'], ['maxGroupSize', 'p-1503'],
                                   ['meetingRooms', 'p-1504'], ['squareMetres', 'p-1505']];
  lang constant text := migration_014_language(doc);
  out jsonb := doc;
  categories jsonb;
  moved jsonb;
  rest jsonb;
BEGIN
  IF jsonb_typeof(doc -> 'routeInfo') = 'object' THEN
    out := jsonb_set(out, '{routeInfo}', migration_014_route_info(doc -> 'routeInfo', lang));
  END IF;
  IF jsonb_typeof(doc -> 'venueCapacity') = 'object' THEN
    moved := migration_014_categories(doc -> 'venueCapacity', venue);
    IF moved <> '[]' THEN
      categories := CASE WHEN jsonb_typeof(doc -> 'trcItemCategories') = 'object'
                         THEN doc -> 'trcItemCategories' ELSE '{"types": []}' END;
      out := out || jsonb_build_object('trcItemCategories', categories || jsonb_build_object('categories',
        CASE WHEN jsonb_typeof(categories -> 'categories') = 'array' THEN categories -> 'categories' ELSE '[]' END
          || moved));
    END IF;
    rest := migration_014_rest(doc -> 'venueCapacity', venue);
    out := (out - 'venueCapacity') || CASE WHEN rest IS NULL THEN '{}' ELSE jsonb_build_object('venueCapacity', rest) END;
  END IF;
  IF jsonb_typeof(doc #> '{trcitemRelation,subItemGroups}') = 'array' THEN
    out := jsonb_set(out, '{trcitemRelation,subItemGroups}',
      migration_014_each(doc #> '{trcitemRelation,subItemGroups}', 'room', lang));
  END IF;
  RETURN out;
END;
$$;

UPDATE items SET doc = migration_014_doc(doc)
 WHERE (doc ? 'routeInfo' OR doc ? 'venueCapacity' OR doc #> '{trcitemRelation,subItemGroups}' IS NOT NULL)
   AND migration_014_doc(doc) IS DISTINCT FROM doc;

DROP FUNCTION migration_014_doc(jsonb);
DROP FUNCTION migration_014_room(jsonb, text);
DROP FUNCTION migration_014_rest(jsonb, text[]);
DROP FUNCTION migration_014_categories(jsonb, text[]);
DROP FUNCTION migration_014_route_info(jsonb, text);
DROP FUNCTION migration_014_poi(jsonb, text);
DROP FUNCTION migration_014_each(jsonb, text, text);
DROP FUNCTION migration_014_point(jsonb);
DROP FUNCTION migration_014_number(jsonb);
DROP FUNCTION migration_014_language(jsonb);
