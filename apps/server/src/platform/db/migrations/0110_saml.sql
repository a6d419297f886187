-- SAML 2.0 identity provider (issue 22): its signing keys, the service providers
-- it answers, the request ids it has seen (replay protection), the AuthnRequests
-- waiting for a sign-in or consent, and the SAML sessions Single Logout ends.

-- Private keys as JWKs encrypted like the OpenID Connect keys; the certificate is public.
create table saml_signing_keys (
  kid text primary key,
  encrypted_jwk text not null,
  certificate text not null,
  created_at timestamptz not null default now(),
  -- a rolled-over key is published first and signs only from here (federations refresh metadata slowly)
  activates_at timestamptz not null default now(),
  -- removed from the metadata by `saml keys remove` once every SP has the new one
  retired_at timestamptz
);

create table saml_service_providers (
  entity_id text primary key,
  metadata_xml text not null,
  -- 'manual' (saml sp add) or 'federation:<name>' (from an aggregate)
  source text not null default 'manual',
  display_name text not null default '',
  -- SAML attribute friendly names released to this SP, besides its bundles
  released_attributes text[] not null default '{}',
  entity_categories text[] not null default '{}',
  -- an SP tied to an application obeys that application's access rules
  application_id uuid references applications (id) on delete set null,
  first_party boolean not null default false,
  encrypt_assertions boolean not null default false,
  valid_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index saml_service_providers_source_idx on saml_service_providers (source);

create table saml_seen_requests (
  sp_entity_id text not null,
  request_id text not null,
  expires_at timestamptz not null,
  primary key (sp_entity_id, request_id)
);
create index saml_seen_requests_expiry_idx on saml_seen_requests (expires_at);

create table saml_pending_requests (
  id text primary key,
  sp_entity_id text not null,
  request_id text not null,
  acs_url text not null,
  relay_state text,
  force_authn boolean not null default false,
  mfa_requested boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

create table saml_sessions (
  session_id uuid not null references sessions (id) on delete cascade,
  sp_entity_id text not null,
  name_id text not null,
  session_index text not null,
  created_at timestamptz not null default now(),
  primary key (session_id, sp_entity_id)
);

create table saml_federations (
  name text primary key,
  source text not null,
  certificate text not null,
  entity_categories text[] not null default '{}',
  valid_until timestamptz,
  refreshed_at timestamptz,
  last_error text
);
