-- Issue 57: the last good CRL of each DIIA_CRLS source, shared by every instance. A CRL is signed by
-- its CA, so a copy read back is verified again before it counts; an instance that cannot reach the
-- CA (or has just started) uses the copy another instance fetched, and `kpi-id doctor` reads it to
-- warn when a list is past its nextUpdate. Expand only: an older release ignores the table.
create table diia_revocation_lists (
  source text primary key,
  der bytea not null,
  this_update timestamptz not null,
  next_update timestamptz,
  fetched_at timestamptz not null
);
