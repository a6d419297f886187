-- Issue 17: passkeys (WebAuthn). A credential belongs to one person; `credential_id` is the
-- authenticator's id (base64url), `public_key` its COSE key. `sign_count` must grow at every use
-- once it is above zero (a lower or equal one means a cloned authenticator). The backup flags,
-- AAGUID and transports are what the authenticator reported; `name` is the person's own.
create table webauthn_credentials (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  credential_id text not null unique,
  public_key bytea not null,
  sign_count bigint not null default 0,
  transports text[] not null default '{}',
  backup_eligible boolean not null,
  backed_up boolean not null,
  aaguid text not null,
  name text not null,
  created_at timestamptz not null,
  last_used_at timestamptz
);
create index webauthn_credentials_user_idx on webauthn_credentials (user_id);

-- A challenge handed to a browser, usable once until it expires. `binding_hash` is the SHA-256 of
-- the asking browser's binding cookie; `user_id` is set for a registration (the signed-in person).
create table webauthn_challenges (
  challenge text primary key,
  purpose text not null check (purpose in ('register', 'authenticate')),
  binding_hash bytea not null,
  user_id uuid references users (id) on delete cascade,
  expires_at timestamptz not null
);
create index webauthn_challenges_expiry_idx on webauthn_challenges (expires_at);

-- A passkey sign-in is a method of its own.
alter table sessions drop constraint sessions_auth_method_check;
alter table sessions add constraint sessions_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY'));
alter table login_grants drop constraint login_grants_auth_method_check;
alter table login_grants add constraint login_grants_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY'));
alter table tickets drop constraint tickets_auth_method_check;
alter table tickets add constraint tickets_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY'));
