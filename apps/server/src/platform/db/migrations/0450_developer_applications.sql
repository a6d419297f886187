-- Issue 39: people register their own applications on /{lang}/developers. A new one is in testing
-- (only its owners and up to 25 named testers sign in), its owner asks for a review, an operator
-- approves (live: the access rules decide, as for every operator-made application) or rejects it.
-- Every application that exists already is live, so no existing integration's sign-ins change.
alter table applications add column lifecycle text not null default 'live'
  check (lifecycle in ('testing', 'in_review', 'live', 'rejected'));
-- An operator's stop, apart from the lifecycle so lifting it returns the application where it was.
alter table applications add column suspended_at timestamptz;
alter table applications add column suspension_reason text not null default '';
-- What the developers' page shows about the application (empty for operator-made ones).
alter table applications add column icon_url text not null default '';
alter table applications add column home_page_url text not null default '';
alter table applications add column privacy_policy_url text not null default '';

-- The people who manage an application from the developers' page; the creator is the first.
create table application_owners (
  application_id uuid not null references applications (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (application_id, user_id)
);
create index application_owners_user_idx on application_owners (user_id);

-- People besides the owners who may sign in to an application in testing (at most 25, developers/limits.ts).
create table application_testers (
  application_id uuid not null references applications (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (application_id, user_id)
);
create index application_testers_user_idx on application_testers (user_id);

-- An owner's request to go live and the operator's answer; the newest row is the current one.
create table application_reviews (
  id uuid primary key default gen_random_uuid(),
  application_id uuid not null references applications (id) on delete cascade,
  requested_by uuid references users (id) on delete set null,
  purpose text not null,
  data_needed text not null,
  requested_at timestamptz not null default now(),
  decision text check (decision in ('approved', 'rejected')),
  decision_reason text not null default '',
  decided_by uuid references users (id) on delete set null,
  decided_at timestamptz
);
create index application_reviews_application_idx on application_reviews (application_id, requested_at desc);
create index application_reviews_pending_idx on application_reviews (requested_at) where decision is null;

-- What an application's integration got wrong (wrong secret, reused ticket, unregistered redirect URI…),
-- for its owners' health view: the reason only, never the person or the values sent; the last 50 kept.
create table integration_failures (
  id bigint generated always as identity primary key,
  application_id uuid not null references applications (id) on delete cascade,
  occurred_at timestamptz not null default now(),
  protocol text not null check (protocol in ('ticket', 'oidc')),
  reason text not null
);
create index integration_failures_application_idx on integration_failures (application_id, id desc);

-- Owners and testers decide who sees an application in testing on their apps list (as user_applications
-- does, migration 0310): a change drops the lists the instances keep.
do $$
declare
  person_table text;
begin
  foreach person_table in array array['application_owners', 'application_testers'] loop
    execute format('create trigger %1$s_added_cache after insert on %1$I referencing new table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_removed_cache after delete on %1$I referencing old table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_truncated_cache after truncate on %1$I
      for each statement execute function notify_cache_all()', person_table);
  end loop;
end;
$$;

-- The health view counts an application's sign-ins per day from the audit log.
create index audit_events_application_idx on audit_events (application_id, occurred_at)
  where application_id is not null;
