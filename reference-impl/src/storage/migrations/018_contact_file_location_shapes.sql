-- 018 contact, file and location shapes: stored items move to the operator's model's fields,
-- nothing dropped that the new shape cannot say.
--
-- contactinfo (DEC-ITEM-160): a `mail` list becomes one `mail`, its first entry, and is kept whole
-- in `mails` (after any entries there) when it has more than one entry; `phones` gives its first
-- entry to `phone` when there is none, and stays only when it has more than one. An empty `mail`
-- list says nothing and goes.
--
-- urls (DEC-ITEM-161): `urlServiceType` `tickets`, which the model does not have, becomes
-- `booking`, in `contactinfo.urls` and in the `urls` of every time slot of the item's calendar and
-- of its points of interest' calendars.
--
-- files (DEC-ITEM-162), in `files`, a point of interest's `files` and a room's `media`: a `title`
-- string becomes `title.label`; `mediatype` `map` becomes `roadmap` and `document` `attachment`;
-- a `filetype` the model does not have (`svg`, `mp4`, `mov`, `webm`) is left out, the file's
-- `filename` and `hlink` still saying it, and the file gets `mediatype` `photo` (svg) or `video`
-- when it had none.
--
-- location (DEC-ITEM-163), the item's and a point of interest's: `xcoordinate`/`ycoordinate` move
-- to `address.gisCoordinates[0]`, unless the address has `gisCoordinates` already (then they stay).
--
-- Fields the old schemas did not name are kept where they were. lastupdated is not changed and no
-- webhook is sent: the items say what they said, in new fields. Their stored renderings are
-- dropped by the trigger of migration 007 and made again.

CREATE FUNCTION migration_018_is(value jsonb, kind text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_typeof(value) = kind, false)
$$;

-- Each entry of an array through `fn`; anything else as it is.
CREATE FUNCTION migration_018_each(list jsonb, fn text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb := '[]';
  entry jsonb;
BEGIN
  IF NOT migration_018_is(list, 'array') THEN RETURN list; END IF;
  FOR entry IN SELECT e FROM jsonb_array_elements(list) WITH ORDINALITY AS a(e, n) ORDER BY n LOOP
    out := out || jsonb_build_array(CASE fn
      WHEN 'url' THEN migration_018_url(entry)
      WHEN 'file' THEN migration_018_file(entry)
      WHEN 'poi' THEN migration_018_poi(entry)
      WHEN 'room' THEN migration_018_room(entry)
    END);
  END LOOP;
  RETURN out;
END;
$$;

CREATE FUNCTION migration_018_url(url jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN migration_018_is(url, 'object') AND url ->> 'urlServiceType' = 'tickets'
    THEN url || '{"urlServiceType": "booking"}' ELSE url END
$$;

-- Every `urls` list anywhere in a calendar (time slots sit in singleDates, patterns and exception dates).
CREATE FUNCTION migration_018_calendar(value jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb;
  key text;
  member jsonb;
BEGIN
  IF migration_018_is(value, 'object') THEN
    out := '{}';
    FOR key, member IN SELECT m.key, m.value FROM jsonb_each(value) AS m LOOP
      out := out || jsonb_build_object(key, CASE WHEN key = 'urls' THEN migration_018_each(member, 'url')
                                                 ELSE migration_018_calendar(member) END);
    END LOOP;
    RETURN out;
  END IF;
  IF migration_018_is(value, 'array') THEN
    out := '[]';
    FOR member IN SELECT e FROM jsonb_array_elements(value) WITH ORDINALITY AS a(e, n) ORDER BY n LOOP
      out := out || jsonb_build_array(migration_018_calendar(member));
    END LOOP;
    RETURN out;
  END IF;
  RETURN value;
END;
$$;

CREATE FUNCTION migration_018_file(file jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb := file;
  filetype text;
BEGIN
  IF NOT migration_018_is(file, 'object') THEN RETURN file; END IF;
  IF migration_018_is(file -> 'title', 'string') THEN
    out := out || jsonb_build_object('title', jsonb_build_object('label', file -> 'title'));
  END IF;
  IF file ->> 'mediatype' = 'map' THEN out := out || '{"mediatype": "roadmap"}'; END IF;
  IF file ->> 'mediatype' = 'document' THEN out := out || '{"mediatype": "attachment"}'; END IF;
  filetype := file ->> 'filetype';
  IF migration_018_is(file -> 'filetype', 'string') AND filetype IN ('svg', 'mp4', 'mov', 'webm') THEN
    out := out - 'filetype';
    IF NOT file ? 'mediatype' THEN
      out := out || jsonb_build_object('mediatype', CASE WHEN filetype = 'svg' THEN 'photo' ELSE 'video' END);
    END IF;
  END IF;
  RETURN out;
END;
$$;

CREATE FUNCTION migration_018_location(location jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  address jsonb;
BEGIN
  IF NOT migration_018_is(location, 'object') OR NOT (location ? 'xcoordinate' OR location ? 'ycoordinate') THEN
    RETURN location;
  END IF;
  address := CASE WHEN migration_018_is(location -> 'address', 'object') THEN location -> 'address' ELSE NULL END;
  IF (address IS NULL AND location ? 'address') OR address ? 'gisCoordinates' THEN RETURN location; END IF;
  RETURN (location - 'xcoordinate' - 'ycoordinate') || jsonb_build_object('address',
    coalesce(address, '{}') || jsonb_build_object('gisCoordinates', jsonb_build_array(jsonb_strip_nulls(
      jsonb_build_object('xcoordinate', location -> 'xcoordinate', 'ycoordinate', location -> 'ycoordinate')))));
END;
$$;

CREATE FUNCTION migration_018_contact(contact jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb := contact;
  list jsonb;
BEGIN
  IF NOT migration_018_is(contact, 'object') THEN RETURN contact; END IF;
  -- `mail` is both the list's old name and the single field's new one.
  IF migration_018_is(contact -> 'mail', 'array') THEN
    list := contact -> 'mail';
    out := out - 'mail';
    IF jsonb_array_length(list) > 0 THEN out := out || jsonb_build_object('mail', list -> 0); END IF;
    IF jsonb_array_length(list) > 1 THEN
      out := out || jsonb_build_object('mails',
        CASE WHEN migration_018_is(contact -> 'mails', 'array') THEN contact -> 'mails' ELSE '[]' END || list);
    END IF;
  END IF;
  IF migration_018_is(contact -> 'phones', 'array') AND NOT contact ? 'phone'
     AND jsonb_array_length(contact -> 'phones') > 0 THEN
    out := out || jsonb_build_object('phone', contact -> 'phones' -> 0);
    IF jsonb_array_length(contact -> 'phones') = 1 THEN out := out - 'phones'; END IF;
  END IF;
  IF contact ? 'urls' THEN out := jsonb_set(out, '{urls}', migration_018_each(contact -> 'urls', 'url')); END IF;
  RETURN out;
END;
$$;

CREATE FUNCTION migration_018_poi(poi jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN NOT migration_018_is(poi, 'object') THEN poi ELSE
    poi
      || CASE WHEN poi ? 'files' THEN jsonb_build_object('files', migration_018_each(poi -> 'files', 'file')) ELSE '{}' END
      || CASE WHEN poi ? 'location' THEN jsonb_build_object('location', migration_018_location(poi -> 'location')) ELSE '{}' END
      || CASE WHEN poi ? 'calendar' THEN jsonb_build_object('calendar', migration_018_calendar(poi -> 'calendar')) ELSE '{}' END
  END
$$;

CREATE FUNCTION migration_018_room(room jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN migration_018_is(room, 'object') AND room ? 'media'
    THEN room || jsonb_build_object('media', migration_018_each(room -> 'media', 'file')) ELSE room END
$$;

CREATE FUNCTION migration_018_doc(doc jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out jsonb := doc;
BEGIN
  IF doc ? 'contactinfo' THEN out := jsonb_set(out, '{contactinfo}', migration_018_contact(doc -> 'contactinfo')); END IF;
  IF doc ? 'calendar' THEN out := jsonb_set(out, '{calendar}', migration_018_calendar(doc -> 'calendar')); END IF;
  IF doc ? 'files' THEN out := jsonb_set(out, '{files}', migration_018_each(doc -> 'files', 'file')); END IF;
  IF doc ? 'location' THEN out := jsonb_set(out, '{location}', migration_018_location(doc -> 'location')); END IF;
  IF migration_018_is(doc #> '{routeInfo,pois}', 'array') THEN
    out := jsonb_set(out, '{routeInfo,pois}', migration_018_each(doc #> '{routeInfo,pois}', 'poi'));
  END IF;
  IF migration_018_is(doc #> '{trcitemRelation,subItemGroups}', 'array') THEN
    out := jsonb_set(out, '{trcitemRelation,subItemGroups}',
      migration_018_each(doc #> '{trcitemRelation,subItemGroups}', 'room'));
  END IF;
  RETURN out;
END;
$$;

UPDATE items SET doc = migration_018_doc(doc)
 WHERE (doc ? 'contactinfo' OR doc ? 'calendar' OR doc ? 'files' OR doc ? 'location' OR doc ? 'routeInfo'
        OR doc ? 'trcitemRelation')
   AND migration_018_doc(doc) IS DISTINCT FROM doc;

DROP FUNCTION migration_018_doc(jsonb);
DROP FUNCTION migration_018_room(jsonb);
DROP FUNCTION migration_018_poi(jsonb);
DROP FUNCTION migration_018_contact(jsonb);
DROP FUNCTION migration_018_location(jsonb);
DROP FUNCTION migration_018_file(jsonb);
DROP FUNCTION migration_018_calendar(jsonb);
DROP FUNCTION migration_018_url(jsonb);
DROP FUNCTION migration_018_each(jsonb, text);
DROP FUNCTION migration_018_is(jsonb, text);
