-- OpenID Connect (issue 8): oidc-provider's models, its signing keys, and the
-- per-application settings that make an application an OpenID Connect client.

-- Every oidc-provider model (sessions, interactions, codes, tokens, grants, ...)
-- in one table: the library hands us opaque JSON payloads keyed by (type, id).
create table oidc_payloads (
  type text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  -- set when a code or refresh token is used; a second use then revokes the grant
  consumed_at timestamptz,
  primary key (type, id)
);
create index oidc_payloads_grant_idx on oidc_payloads (grant_id) where grant_id is not null;
create index oidc_payloads_uid_idx on oidc_payloads (uid) where uid is not null;
create index oidc_payloads_user_code_idx on oidc_payloads (user_code) where user_code is not null;
create index oidc_payloads_expiry_idx on oidc_payloads (expires_at) where expires_at is not null;

-- Private JWKs, AES-256-GCM encrypted with a key derived from SESSION_SECRET.
-- The newest unretired key signs; retired keys stay published until retired_at + token lifetime.
create table oidc_signing_keys (
  kid text primary key,
  encrypted_jwk text not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);

alter table applications
  add column oidc_enabled boolean not null default false,
  add column redirect_uris text[] not null default '{}',
  add column post_logout_redirect_uris text[] not null default '{}',
  add column allowed_scopes text[] not null default '{}',
  -- first-party applications skip the consent screen
  add column first_party boolean not null default false,
  add column token_endpoint_auth_method text not null default 'client_secret_basic'
    check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'none')),
  add column backchannel_logout_uri text;
