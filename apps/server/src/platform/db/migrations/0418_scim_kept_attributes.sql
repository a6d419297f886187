-- Issue 36: SCIM clients (Entra ID's default mapping, Okta) send core User attributes KPI ID does not act on
-- (title, phone numbers, addresses, locale, the name's parts) and the enterprise extension (employeeNumber,
-- department, manager). They are kept as sent and answered back, so a client comparing what it sent with
-- what it reads sees no difference and does not send the change again on every cycle.
alter table users add column scim_attributes jsonb;
-- The order a SCIM list (and a filtered one, now paged by the database) walks when no sortBy is given.
create index users_created_at_idx on users (created_at, id);
