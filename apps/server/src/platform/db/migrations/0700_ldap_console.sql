-- LDAP's console (issue 77): the KPI ID password allowed for named clients that cannot do better, and LDAP binds
-- in an application's integration health.

-- A lab's login machines (sssd) may let people bind with their KPI ID password instead of an application
-- password, when an operator says so for that client: only people without a console role or a second factor,
-- only over TLS (model/ldap/binds.ts). Off unless chosen.
alter table ldap_clients add column kpi_password_allowed boolean not null default false;

-- The owners' health view names LDAP failures (a person without access binding through the application's client).
alter table integration_failures drop constraint integration_failures_protocol_check;
alter table integration_failures add constraint integration_failures_protocol_check
  check (protocol in ('ticket', 'oidc', 'cas', 'ldap'));
