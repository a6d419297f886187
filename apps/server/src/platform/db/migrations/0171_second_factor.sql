-- Issue 17: a second factor for password sign-ins. The TOTP secret is stored encrypted
-- (AES-256-GCM under a key derived from the session secret); `last_time_step` makes each
-- time step's code work once. Recovery codes are stored as SHA-256 like tokens, each usable once.
create table totp_factors (
  user_id uuid primary key references users (id) on delete cascade,
  secret_sealed text not null,
  confirmed_at timestamptz,
  last_time_step bigint not null default 0,
  created_at timestamptz not null
);
create table recovery_codes (
  code_hash bytea primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null,
  used_at timestamptz
);
create index recovery_codes_user_idx on recovery_codes (user_id);
-- A login grant from a password check waits for the second factor when the person has one.
alter table login_grants add column amr text[] not null default '{}';
alter table login_grants add column second_factor_due boolean not null default false;
-- Policy: the operator may require a second factor of a person or for an application.
alter table users add column require_mfa boolean not null default false;
alter table applications add column require_mfa boolean not null default false;
