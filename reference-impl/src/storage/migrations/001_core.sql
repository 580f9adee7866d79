-- 001 core: accounts and their organisations, account API tokens, items, and the store-wide
-- lastupdated stamp. Same SQL on PGlite and PostgreSQL. Sortable text columns use the "C"
-- collation so that both engines (and every server locale) order them identically.

CREATE TABLE accounts (
  id   text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),  -- DEC-MISC-002
  name text NOT NULL
);

CREATE TABLE organisations (
  userorganisation text COLLATE "C" PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id)
);
CREATE INDEX organisations_account_id_idx ON organisations (account_id);

CREATE TABLE api_tokens (
  id                       uuid PRIMARY KEY,
  account_id               text NOT NULL REFERENCES accounts (id),
  name                     text NOT NULL,
  roles                    text[] NOT NULL DEFAULT '{}',
  token_hash               text NOT NULL,            -- SHA-256 of the token value (DEC-AUTH-006)
  callback_url             text,
  signing_secret           text,                     -- a later migration may encrypt it
  -- NULL means the axis is absent: DEC-AUTH-004 then applies the account's organisations and
  -- ['approved'] at the time of the request.
  filter_userorganisations text[],
  filter_wfstatus          text[],
  use_optimized_images     boolean NOT NULL DEFAULT false,
  created                  timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT api_tokens_token_hash_key UNIQUE (token_hash)
);
CREATE INDEX api_tokens_account_id_idx ON api_tokens (account_id, created);

-- One row per TRCItem: the columns lists filter and sort on, and the document (the item's
-- writable fields other than these columns) as JSONB.
CREATE TABLE items (
  id               uuid PRIMARY KEY,
  trcid            text COLLATE "C" NOT NULL,
  entitytype       text COLLATE "C" NOT NULL CHECK (entitytype IN ('EVENEMENT', 'LOCATIE', 'EVENTGROUP', 'ROUTE', 'VENUE')),
  -- Stored statuses are normalised: `draft` never reaches storage (WF-007).
  wfstatus         text COLLATE "C" NOT NULL CHECK (wfstatus IN ('readyforvalidation', 'approved', 'rejected', 'archived', 'deleted')),
  userorganisation text COLLATE "C" NOT NULL,
  creationdate     timestamptz(3) NOT NULL,
  -- Unique and strictly increasing in commit order (DEC-ITEM-009): assigned only from item_stamp.
  lastupdated      timestamptz(3) NOT NULL,
  external_id      text COLLATE "C",
  title            text COLLATE "C",                 -- primary-language title, for sorting (DEC-LIST-003)
  slug             text COLLATE "C",
  doc              jsonb NOT NULL DEFAULT '{}',
  CONSTRAINT items_trcid_key UNIQUE (trcid),
  CONSTRAINT items_lastupdated_key UNIQUE (lastupdated),
  CONSTRAINT items_external_id_key UNIQUE (external_id)
);
-- Every list filters on entitytype; `id` ends each index as it ends each ORDER BY.
CREATE INDEX items_entitytype_lastupdated_idx ON items (entitytype, lastupdated, id);
CREATE INDEX items_entitytype_wfstatus_lastupdated_idx ON items (entitytype, wfstatus, lastupdated, id);
CREATE INDEX items_entitytype_creationdate_idx ON items (entitytype, creationdate, id);
CREATE INDEX items_entitytype_title_idx ON items (entitytype, title, id);
CREATE INDEX items_userorganisation_idx ON items (userorganisation);

-- The last lastupdated handed out, in milliseconds since the epoch. One row; its row lock,
-- taken by every item write and held to commit, puts item writers in stamp order.
CREATE TABLE item_stamp (
  id      boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_ms bigint NOT NULL
);
INSERT INTO item_stamp (id, last_ms) VALUES (true, 0);
