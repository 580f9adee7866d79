-- 006 sessions: first-party users and their sign-in sessions (DEC-AUTH-001..003, 012..015).

CREATE TABLE users (
  id            uuid PRIMARY KEY,
  account_id    text NOT NULL REFERENCES accounts (id),
  username      text COLLATE "C" NOT NULL,
  -- scrypt$<N>$<r>$<p>$<salt>$<key>: the parameters travel with the hash, so they can be raised
  -- later without invalidating existing passwords.
  password_hash text NOT NULL,
  roles         text[] NOT NULL DEFAULT '{}',
  created       timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT users_username_key UNIQUE (username)
);
CREATE INDEX users_account_id_idx ON users (account_id);

-- One row per sign-in. The access token (a JWT) names the session in `sid`; every request checks
-- the row, so a revocation takes effect at once.
CREATE TABLE sessions (
  id                 uuid PRIMARY KEY,
  user_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 of the one refresh token that currently works; rotated on every refresh.
  refresh_token_hash text NOT NULL,
  refresh_expires    timestamptz(3) NOT NULL,
  refresh_count      integer NOT NULL DEFAULT 0,
  created            timestamptz(3) NOT NULL,
  refreshed          timestamptz(3),
  revoked            timestamptz(3),
  revoked_reason     text CHECK (revoked_reason IN ('logout', 'refresh_reuse')),
  CONSTRAINT sessions_refresh_token_hash_key UNIQUE (refresh_token_hash)
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- Refresh tokens already exchanged. Presenting one again means it was copied: the whole session
-- is revoked (DEC-AUTH-012).
CREATE TABLE spent_refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  spent      timestamptz(3) NOT NULL
);
CREATE INDEX spent_refresh_tokens_session_id_idx ON spent_refresh_tokens (session_id);
