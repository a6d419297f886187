-- Issue 21: provisioning over SCIM 2.0. Each source system (HR, the student office) has its own bearer
-- token, made by an operator with the CLI; only its SHA-256 is kept (the token is 256 random bits, so a
-- slow hash adds nothing). A revoked token stays listed with its revocation time for the audit trail.
create table scim_tokens (
  id uuid primary key default gen_random_uuid(),
  -- the source system's name ("hr", "student-office"): the actor of every audit row it causes
  name text not null,
  token_hash text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create unique index scim_tokens_name_key on scim_tokens (lower(name)) where revoked_at is null;
create unique index scim_tokens_hash_key on scim_tokens (token_hash);

-- The provisioning client's own id for a person (SCIM externalId), unique when present.
alter table users add column scim_external_id text;
create unique index users_scim_external_id_key on users (scim_external_id) where scim_external_id is not null;
-- A person a SCIM client deleted: disabled and kept (audit rows and grants name them), answered 404 to SCIM
-- from then on (RFC 7644 §3.6); a later POST of the same userName brings the person back.
alter table users add column scim_deleted_at timestamptz;
-- SCIM's meta.lastModified filter ("changed since") reads people in that order.
create index users_updated_at_idx on users (updated_at);
