-- 003 webhooks: the transactional outbox, deliveries (one signed POST each, retried as a unit)
-- and their attempt log. Same SQL on PGlite and PostgreSQL.

-- One row per (item change, token that should hear of it), written in the item's own
-- transaction. Rows wait here until a delivery takes them; several rows of one item for one
-- token collapse into its latest event when they do (DEC-HOOK-004).
CREATE TABLE webhook_outbox (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,   -- change order
  token_id   uuid NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,  -- DEC-HOOK-010
  item_id    uuid NOT NULL,
  trcid      text NOT NULL,
  entitytype text NOT NULL,
  action     text NOT NULL CHECK (action IN ('UPDATED', 'DELETED')),
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX webhook_outbox_token_id_idx ON webhook_outbox (token_id, id);

-- A delivery is one CallbackBody, serialised once: every attempt sends exactly `body`
-- (DEC-HOOK-008) with X-Service-Delivery = id (HOOK-012). The signature is made at send time
-- with the token's current secret, so a rotation applies to retries of older deliveries too.
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  token_id         uuid NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,  -- DEC-HOOK-010
  body             bytea NOT NULL,
  item_count       integer NOT NULL CHECK (item_count BETWEEN 1 AND 100),
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
  created_at       timestamptz(3) NOT NULL,
  first_attempt_at timestamptz(3),                 -- the retry horizon counts from here (DEC-HOOK-005)
  next_attempt_at  timestamptz(3),                 -- set while pending
  attempt_count    integer NOT NULL DEFAULT 0,
  -- A worker that claimed the delivery owns it until lease_until; a crashed worker's lease
  -- simply runs out and another worker re-sends the same delivery (at least once).
  lease_until      timestamptz(3),
  claim_id         uuid
);
-- At most one pending delivery per token: one request in flight per receiver, on every
-- instance, and changes queue (and collapse) in the outbox meanwhile.
CREATE UNIQUE INDEX webhook_deliveries_one_pending_idx ON webhook_deliveries (token_id) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_token_created_idx ON webhook_deliveries (token_id, created_at DESC, id DESC);

-- Every attempt (DEC-HOOK-007). Receivers' response bodies are never stored (DEC-HOOK-011).
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  at          timestamptz(3) NOT NULL,
  status      integer,
  latency_ms  integer NOT NULL,
  error       text,
  outcome     text NOT NULL CHECK (outcome IN ('delivered', 'transient', 'permanent')),
  PRIMARY KEY (delivery_id, attempt)
);

-- The outbox insert runs on every item write: find the tokens with a webhook quickly.
CREATE INDEX api_tokens_callback_idx ON api_tokens (account_id) WHERE callback_url IS NOT NULL;
