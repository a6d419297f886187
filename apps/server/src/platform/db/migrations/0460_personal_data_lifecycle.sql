-- Issue 40: the personal-data lifecycle. A person anonymised (left long ago, or erased on request) keeps their
-- row, so audit rows and applications' subject ids keep pointing at one stable, now nameless, id; the row says
-- when it was emptied. Their former username is kept only as a SHA-256 digest, so no one is given it again
-- (an application's account keyed by the username would otherwise pass to a stranger) and no SCIM or CSV
-- write brings the person back by accident.
alter table users add column anonymised_at timestamptz;

create table retired_usernames (
  username_sha256 bytea primary key,
  retired_at timestamptz not null default now()
);
