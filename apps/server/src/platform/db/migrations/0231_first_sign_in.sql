-- When the person first signed in. The new-device mail is sent only to someone who has signed in
-- before; that used to be read from the audit log, which AUDIT_RETENTION_DAYS prunes, so a person
-- away longer than the retention got no mail from a stranger's browser. Filled from the audit log
-- that is still there.
alter table users add column first_signed_in_at timestamptz;
update users set first_signed_in_at = first.occurred_at
from (
  select user_id, min(occurred_at) as occurred_at
  from audit_events
  where event_type = 'session_start' and result = 'success' and user_id is not null
  group by user_id
) first
where first.user_id = users.id;
