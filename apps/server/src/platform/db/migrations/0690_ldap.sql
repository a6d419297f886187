-- LDAP through OpenLDAP slapd (issue 77): registered LDAP clients, people's application passwords and their uses,
-- and the POSIX numbers the directory gives people and groups. model/ldap owns these tables.

-- A system that binds and searches the directory (Nextcloud, sssd on lab machines, a VPN appliance), as the
-- service account cn=<name>,ou=clients. Its secret is kept as SHA-256 (random, 256 bits: no dictionary).
-- application_id: it sees (and people may bind through it) only people with access to that application;
-- null: everyone in the directory. addresses: where its connections come from, to know a person's bind is its.
create table ldap_clients (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  title text not null,
  application_id uuid references applications (id) on delete set null,
  subtree text not null default 'people',
  attributes text[] not null,
  addresses text[] not null default '{}',
  secret_hash text not null,
  created_at timestamptz not null
);

-- An application password: generated, shown once, revocable; kept as the Wi-Fi network passwords are (a keyed
-- HMAC under SESSION_SECRET's key ring, model/wifi/secrets.ts). client_id: usable only through that client.
create table ldap_passwords (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  client_id uuid references ldap_clients (id) on delete cascade,
  name text not null,
  secret_hash text not null,
  created_at timestamptz not null,
  last_used_at timestamptz
);
create unique index ldap_passwords_secret_hash_idx on ldap_passwords (secret_hash);
create index ldap_passwords_user_idx on ldap_passwords (user_id);

-- Each accepted bind with an application password: when, through which client, from which address.
create table ldap_uses (
  id bigint generated always as identity primary key,
  password_id uuid not null references ldap_passwords (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  client_id uuid references ldap_clients (id) on delete set null,
  used_at timestamptz not null,
  peer text
);
create index ldap_uses_password_idx on ldap_uses (password_id, used_at desc);
create index ldap_uses_user_peer_idx on ldap_uses (user_id, peer);

-- uidNumber and gidNumber: given once per person or group from one sequence and never given again. No foreign
-- key on purpose: a row outlives its person or unit, so a number is never reused for someone else (a reused
-- number would hand the old owner's files on every lab machine to the new one).
create sequence ldap_posix_numbers_seq start with 100000;
create table ldap_posix_numbers (
  subject_kind text not null check (subject_kind in ('person', 'unit', 'client')),
  subject_id uuid not null,
  number integer not null unique default nextval('ldap_posix_numbers_seq'),
  primary key (subject_kind, subject_id)
);

-- The directory follows KPI ID within seconds: the LDAP sync listens on kpi_id_cache (migration 0310: people,
-- records, grants, units, rules, applications) and on kpi_id_ldap for what that channel does not announce
-- because no cache holds it: a person added, a client registered, changed or removed.
create function notify_ldap_change() returns trigger
language plpgsql
as $$
begin
  perform pg_notify('kpi_id_ldap', tg_table_name);
  return null;
end;
$$;
create trigger users_added_ldap after insert on users for each statement execute function notify_ldap_change();
create trigger ldap_clients_changed_ldap after insert or update or delete on ldap_clients
  for each statement execute function notify_ldap_change();
