-- 017 demo users: the users the demo seed made are marked by this flag (as its tokens are, 011),
-- so that a start with seeding off can delete every demo credential it ever printed. Users of
-- earlier seeds are recognised by the names only the seed gives (`editor@<account>.example`,
-- `admin@<account>.example`; `.example` is reserved, RFC 2606, so no real user has one).

ALTER TABLE users ADD COLUMN demo boolean NOT NULL DEFAULT false;
UPDATE users SET demo = true
 WHERE username IN ('editor@' || account_id || '.example', 'admin@' || account_id || '.example');
