-- 016 the write grant of tokens, and trcids compared in Unicode NFC.
--
-- A token writes items and assets only when it holds the write grant (DEC-AUTH-020). Tokens made
-- before this migration keep writing: an upgrade must not break an integration silently, and the
-- token answers now show `canWrite` for an admin to review. The demo seed's external-user tokens
-- only read (the demo has a writing one of its own). New tokens hold the grant only when asked for.
ALTER TABLE api_tokens ADD COLUMN can_write boolean NOT NULL DEFAULT true;
ALTER TABLE api_tokens ALTER COLUMN can_write SET DEFAULT false;
UPDATE api_tokens SET can_write = false WHERE demo AND roles = ARRAY['ROLE_EXTERNAL_USER']::text[];

-- trcids are written in NFC from now on; a create also looks for its trcid among the stored ones
-- in NFC (storage/items/isTrcidTaken.ts), which this index serves. Not unique: stored trcids
-- that differ only in normalisation may exist from before, and stay as they are.
CREATE INDEX items_trcid_nfc ON items (normalize(trcid, NFC));
