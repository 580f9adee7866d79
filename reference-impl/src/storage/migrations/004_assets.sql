-- 004 assets: metadata of uploaded files (DEC-ASSET-001..008). The bytes live outside the
-- database, under DATA_DIR/assets/, named by id only.

CREATE TABLE assets (
  id          uuid PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id),
  filename    text COLLATE "C" NOT NULL,
  mimetype    text NOT NULL,
  size        bigint NOT NULL CHECK (size >= 0),
  width       integer CHECK (width > 0),
  height      integer CHECK (height > 0),
  title       text,
  description text,
  created     timestamptz(3) NOT NULL,
  -- NULL until the first PUT: "absent on older assets" (ASSET-001).
  modified    timestamptz(3),
  sha256      text NOT NULL
);
-- The list is always per account; `id` ends each index as it ends each ORDER BY.
CREATE INDEX assets_account_created_idx ON assets (account_id, created, id);
CREATE INDEX assets_account_modified_idx ON assets (account_id, modified, id);
CREATE INDEX assets_account_changed_idx ON assets (account_id, (COALESCE(modified, created)), id);
