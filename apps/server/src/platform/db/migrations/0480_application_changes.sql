-- Issue 56: what the operators' review approved is what runs. On a live application, a change of its names,
-- descriptions, icon, addresses or scopes waits here until an operator approves it; the live values in
-- applications keep working meanwhile. One pending change per application: a newer request replaces it.
create table application_changes (
  id uuid primary key default gen_random_uuid(),
  application_id uuid not null references applications (id) on delete cascade,
  requested_by uuid references users (id) on delete set null,
  requested_at timestamptz not null default now(),
  -- The new values, named as the developers' API names them (title, titleEn, callbackUrls…), only those changed.
  changes jsonb not null,
  status text not null default 'pending'
    check (status in ('pending', 'approved', 'rejected', 'withdrawn', 'replaced')),
  decision_reason text not null default '',
  decided_by uuid references users (id) on delete set null,
  decided_at timestamptz
);
create unique index application_changes_pending_idx on application_changes (application_id) where status = 'pending';
create index application_changes_application_idx on application_changes (application_id, requested_at desc);

-- Icons of applications registered on the developers' page, uploaded to and served by KPI ID (never loaded from
-- the owner's host): PNG or sanitised SVG, at most 64 KiB, addressed by the SHA-256 of their bytes.
create table application_icons (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  application_id uuid not null references applications (id) on delete cascade,
  content_type text not null check (content_type in ('image/png', 'image/svg+xml')),
  bytes bytea not null check (octet_length(bytes) <= 65536),
  created_at timestamptz not null default now()
);
create index application_icons_application_idx on application_icons (application_id, created_at desc);
