-- KPI ID initial schema. Migrations are forward-only: never edit a released file, add a new one.

create table users (
  id uuid primary key default gen_random_uuid(),
  -- stored as typed; uniqueness and look-up are on the lower-cased form
  username text not null,
  password_hash text,
  full_name text not null,
  email text,
  tax_id text,
  student_id text,
  employee_id text,
  status text not null default 'active' check (status in ('active', 'disabled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_username_key on users (lower(username));
create index users_email_idx on users (lower(email)) where email is not null;
create unique index users_tax_id_key on users (tax_id) where tax_id is not null;

create table external_identities (
  provider text not null check (provider in ('google')),
  subject text not null,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (provider, subject)
);
create index external_identities_user_idx on external_identities (user_id);

create table applications (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  title text not null,
  description text not null default '',
  callback_url text not null,
  secret_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index applications_name_key on applications (lower(name));

create table user_applications (
  user_id uuid not null references users (id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  granted_at timestamptz not null default now(),
  primary key (user_id, application_id)
);
create index user_applications_application_idx on user_applications (application_id);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  token_hash bytea not null unique,
  user_id uuid not null references users (id) on delete cascade,
  auth_method text not null check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA')),
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  idle_expires_at timestamptz not null,
  absolute_expires_at timestamptz not null,
  ip text,
  user_agent text
);
create index sessions_user_idx on sessions (user_id);
create index sessions_absolute_expiry_idx on sessions (absolute_expires_at);

-- One-time grants handed out by a credential check and consumed to make a session.
create table login_grants (
  grant_hash bytea primary key,
  user_id uuid not null references users (id) on delete cascade,
  auth_method text not null check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index login_grants_expiry_idx on login_grants (expires_at);

create table tickets (
  id uuid primary key default gen_random_uuid(),
  ticket_hash bytea not null unique,
  application_id uuid not null references applications (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  auth_method text not null check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA')),
  trace_id uuid not null default gen_random_uuid(),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index tickets_expiry_idx on tickets (expires_at);

create table diia_requests (
  id uuid primary key default gen_random_uuid(),
  -- what Diia echoes back: base64 of the GOST 34.311 hash of id
  hashed_request_id text not null unique,
  deep_link text not null,
  status text not null default 'Processing' check (status in ('Processing', 'Finished', 'Expired', 'Failed')),
  user_id uuid references users (id) on delete cascade,
  failure_code text,
  grant_hash bytea,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  finished_at timestamptz
);
create index diia_requests_expiry_idx on diia_requests (expires_at);

create table throttle_counters (
  key text primary key,
  failures integer not null default 0,
  first_failure_at timestamptz not null default now(),
  last_failure_at timestamptz not null default now(),
  blocked_until timestamptz
);
create index throttle_counters_last_failure_idx on throttle_counters (last_failure_at);

create table audit_events (
  id bigint generated always as identity primary key,
  occurred_at timestamptz not null default now(),
  event_type text not null,
  result text not null check (result in ('success', 'failure')),
  auth_method text,
  user_id uuid references users (id) on delete set null,
  application_id uuid references applications (id) on delete set null,
  reason text,
  ip text,
  user_agent text,
  details jsonb not null default '{}'::jsonb
);
create index audit_events_occurred_idx on audit_events (occurred_at);
create index audit_events_user_idx on audit_events (user_id, occurred_at);
