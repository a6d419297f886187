-- Issue 13: the e-mail address KPI ID has seen proven (today: by a Google sign-in with a
-- verified address). The person's address counts as verified while it equals this one, so
-- changing the address un-verifies it without further bookkeeping.
alter table users add column verified_email text;
