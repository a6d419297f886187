-- Issue 60: the developers' page, second round. Expand only: an older release ignores every column and table here.
--
-- Two secrets at once: replacing one keeps the old working until `previous_secret_ends_at` (at most 7 days later,
-- the owner's choice), so a site can roll its configuration over without a minute of failed sign-ins.
--
-- The kind of application its owner chose first at registration (web with a server, public single-page or mobile,
-- device or command-line tool); applications made before are web applications.
alter table applications
  add column client_type text not null default 'web' check (client_type in ('web', 'public', 'device')),
  add column previous_secret_hash text,
  add column previous_secret_ends_at timestamptz,
  add column secret_created_at timestamptz not null default now();

-- When each secret was last presented and accepted, by its hash (so a replaced secret keeps its own row). Kept apart
-- from `applications`: every change to that table empties the application caches, and a sign-in must not.
create table application_secret_uses (
  application_id uuid not null references applications (id) on delete cascade,
  secret_hash text not null,
  last_used_at timestamptz not null,
  primary key (application_id, secret_hash)
);

-- The return address an integration sent and KPI ID did not know, so its owners see which one (never a person's data).
alter table integration_failures add column address text not null default '';
