-- 005 feeds: the runs of inbound feeds (FEED-003…FEED-008, DEC-FEED-002, DEC-FEED-004). The feeds
-- themselves are configuration (FEEDS_FILE), not rows: a run names its feed by id.

CREATE TABLE feed_runs (
  id           uuid PRIMARY KEY,
  feed_id      text COLLATE "C" NOT NULL CHECK (feed_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  -- The feed's owning account when the run started, for the scope of GET …/runs/{runId}.
  account_id   text NOT NULL,
  status       text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  -- manual: fetchAndConvertOnce; schedule: the poller (FEED-008).
  trigger      text NOT NULL CHECK (trigger IN ('manual', 'schedule')),
  -- size, feedInfoId and externalID as asked, for the record.
  options      jsonb NOT NULL DEFAULT '{}',
  started_at   timestamptz(3) NOT NULL,
  -- Advanced on every progress write; a running run whose heartbeat stopped belongs to a process
  -- that died, and is failed by the next run of the feed.
  heartbeat_at timestamptz(3) NOT NULL,
  finished_at  timestamptz(3),
  -- {fetched, converted, imported {created, updated, unchanged}, skipped, unmappedCategories, errors}
  report       jsonb NOT NULL
);

-- One run per feed at a time, across every process sharing the database (DEC-FEED-004).
CREATE UNIQUE INDEX feed_runs_one_running_key ON feed_runs (feed_id) WHERE status = 'running';
CREATE INDEX feed_runs_feed_id_started_at_idx ON feed_runs (feed_id, started_at DESC);
