-- 009 auth change notifications: every statement that can change what a bearer token resolves to
-- (a token's hash, account, roles or filter; a token deleted; an organisation added, moved or
-- removed, which changes the organisations of an account's tokens, DEC-AUTH-004) sends a NOTIFY
-- on `auth_changed` when its transaction commits. Each instance keeps the principals of recently
-- seen tokens in memory (auth/tokenCache.ts) and forgets them all when it hears one.

CREATE FUNCTION notify_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_tokens_notify_auth_changed
  AFTER UPDATE OF token_hash, account_id, roles, filter_userorganisations, filter_wfstatus OR DELETE OR TRUNCATE ON api_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();

CREATE TRIGGER organisations_notify_auth_changed
  AFTER INSERT OR UPDATE OF userorganisation, account_id OR DELETE OR TRUNCATE ON organisations
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed();
