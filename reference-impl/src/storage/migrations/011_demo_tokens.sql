-- 011 demo tokens: the tokens the demo seed made are marked by this flag, not by their name, so
-- that a restart renews only those and never a token someone created through the API with a name
-- starting "demo ". Tokens of earlier seeds are not marked: which of them a user made cannot be
-- told, so none of them is ever renewed.

ALTER TABLE api_tokens ADD COLUMN demo boolean NOT NULL DEFAULT false;
