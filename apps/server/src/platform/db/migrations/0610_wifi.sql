-- Wi-Fi through FreeRADIUS (issue 61): per-device network passwords, their uses, and the person's Wi-Fi switch.
-- model/wifi owns these tables.

-- A network password: generated, shown once. secret_hash is HMAC-SHA256 under a key derived from the session
-- secret (the values are random, 120 bits: no dictionary to slow down, so a keyed fast hash is as strong as
-- argon2 and lets FreeRADIUS's check be one index lookup). nt_hash_sealed is the MD4 NT hash PEAP-MSCHAPv2
-- needs, sealed (AES-GCM, crypto/seal.ts) like authenticator seeds; only ever for these random passwords.
create table wifi_passwords (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  -- The device part of the PEAP identity: username+device@realm.
  device text not null,
  secret_hash text not null,
  nt_hash_sealed text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  unique (user_id, device)
);
create unique index wifi_passwords_secret_hash_idx on wifi_passwords (secret_hash);

-- Each accepted Wi-Fi sign-in: when, which access point (Called-Station-Id, NAS-Identifier) and which password.
-- The device's own address (Calling-Station-Id) is kept only as a keyed hash, to know a returning device.
create table wifi_uses (
  id bigint generated always as identity primary key,
  password_id uuid not null references wifi_passwords (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  used_at timestamptz not null,
  method text not null,
  access_point text,
  nas_identifier text,
  station_hash text
);
create index wifi_uses_password_idx on wifi_uses (password_id, used_at desc);
create index wifi_uses_user_station_idx on wifi_uses (user_id, station_hash);
create index wifi_uses_used_at_idx on wifi_uses (used_at);

-- A person whose Wi-Fi an operator turned off: no network password of theirs works until it is turned on.
create table wifi_blocks (
  user_id uuid primary key references users (id) on delete cascade,
  blocked_at timestamptz not null,
  blocked_by uuid references users (id) on delete set null
);
