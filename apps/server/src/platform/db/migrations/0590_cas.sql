-- CAS Protocol 3.0 under /cas (issue 59, point 1). Expand only: an older release ignores every table and column here.

-- An application's CAS services: the addresses its CAS client sends as `service`. Each is one exact URL or a
-- prefix ending in "/" on one origin (model/cas/services.ts checks it; never a pattern). A service URL belongs to
-- one application. `attributes` names what its validations release (model/cas/attributes.ts); `single_logout`:
-- KPI ID posts a SAML LogoutRequest to the service when the person's session ends; `proxy`: the service may
-- receive proxy-granting tickets (at an https callback on its own host).
create table cas_services (
  url text primary key,
  application_id uuid not null references applications (id) on delete cascade,
  match text not null check (match in ('exact', 'prefix')),
  attributes text[] not null default '{}',
  single_logout boolean not null default false,
  proxy boolean not null default false,
  created_at timestamptz not null default now()
);
create index cas_services_application_idx on cas_services (application_id);

-- Service, proxy and proxy-granting tickets: only their SHA-256 is stored (design §7). A service or proxy ticket
-- works once, for the exact service it was issued for, for seconds; a proxy-granting ticket lasts while its KPI ID
-- session does. session_id is not a reference: the single logout reads the rows while the session is ending.
create table cas_tickets (
  ticket_hash bytea primary key,
  kind text not null check (kind in ('ST', 'PT', 'PGT')),
  application_id uuid not null references applications (id) on delete cascade,
  service text not null,
  user_id uuid not null references users (id) on delete cascade,
  session_id uuid,
  auth_method text not null,
  amr text[] not null default '{}',
  authenticated_at timestamptz not null,
  from_new_login boolean not null default false,
  proxies text[] not null default '{}',
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index cas_tickets_session_idx on cas_tickets (session_id);
create index cas_tickets_expires_idx on cas_tickets (expires_at);

-- A /cas/login waiting for the person to sign in, step up or answer the consent screen; the browser carries its id.
create table cas_pending_logins (
  id text primary key,
  application_id uuid not null references applications (id) on delete cascade,
  service text not null,
  renew boolean not null default false,
  post boolean not null default false,
  created_at timestamptz not null,
  expires_at timestamptz not null
);

-- The validated service tickets of services that asked for single logout: a spent ticket is no credential, and the
-- LogoutRequest names it (SessionIndex), so it is kept here until the KPI ID session it came from ends.
create table cas_sign_ins (
  id bigint generated always as identity primary key,
  session_id uuid not null,
  user_id uuid not null references users (id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  service text not null,
  spent_ticket text not null,
  created_at timestamptz not null
);
create index cas_sign_ins_session_idx on cas_sign_ins (session_id);
create index cas_sign_ins_user_idx on cas_sign_ins (user_id);

-- The consent screen answers a CAS login too: after "allow", the browser continues at this KPI ID path.
alter table ticket_consent_requests add column continue_path text;

-- The owners' health view names CAS failures.
alter table integration_failures drop constraint integration_failures_protocol_check;
alter table integration_failures add constraint integration_failures_protocol_check
  check (protocol in ('ticket', 'oidc', 'cas'));
