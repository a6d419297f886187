-- Issue 36: a CSV import runs as a job that outlives the request that started it. The row is its
-- progress, read by whichever instance the console's next poll reaches; the file itself is not
-- kept (it holds personal data), only its SHA-256, so a second submit of the same file joins the
-- running job instead of starting another.
create table import_jobs (
  id uuid primary key default gen_random_uuid(),
  mode text not null check (mode in ('dry-run', 'apply')),
  file_sha256 text not null,
  file_name text not null,
  started_by uuid references users (id) on delete set null,
  status text not null default 'running' check (status in ('running', 'done', 'cancelled', 'failed', 'interrupted')),
  cancel_requested boolean not null default false,
  total integer not null default 0,
  processed integer not null default 0,
  created integer not null default 0,
  updated integer not null default 0,
  unchanged integer not null default 0,
  rejected integer not null default 0,
  -- Every line's outcome once the job has ended (the console shows the problem lines by default).
  lines jsonb,
  started_at timestamptz not null default now(),
  -- Written with every progress step; a running job whose heartbeat stopped is shown as interrupted.
  heartbeat_at timestamptz not null default now(),
  finished_at timestamptz
);
-- One running job per file and mode: the database, not a check-then-insert, turns a re-sent POST away.
create unique index import_jobs_one_running on import_jobs (file_sha256, mode) where status = 'running';
create index import_jobs_started_by on import_jobs (started_by, started_at desc);
