-- Issue 56 (review): a waiting ticket consent request keeps the kinds of data its screen named, so the answer
-- records what the person saw; when operators change what the application receives between the screen and the
-- answer, nothing is recorded and the person is asked again. Requests saved before this migration have none
-- and are asked again (they last ten minutes). Expand only: an older release ignores the column.
alter table ticket_consent_requests add column data text[] not null default '{}';
