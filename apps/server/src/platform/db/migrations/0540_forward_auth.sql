-- nginx auth_request (issue 59, point 2): a site that speaks no protocol, protected by nginx asking KPI ID.
-- An application with forward_auth_headers (not null) is such a site: the headers named are what nginx passes on.
alter table applications add column forward_auth_headers text[];

-- A ticket remembers the KPI ID session it came from, so the protected host's own cookie can be bound to it. A ticket
-- outlives its session as before (set null): the ticket exchange's answers do not change, and the protected host's
-- callback refuses a ticket whose session is gone (protocols/forward-auth/store.ts joins the live session).
alter table tickets add column session_id uuid references sessions (id) on delete set null;

-- The protected host's cookie: only its hash is kept. Ending the KPI ID session deletes it (cascade).
create table forward_auth_sessions (
  token_hash bytea primary key,
  application_id uuid not null references applications (id) on delete cascade,
  session_id uuid not null references sessions (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index forward_auth_sessions_session_idx on forward_auth_sessions (session_id);
create index forward_auth_sessions_application_idx on forward_auth_sessions (application_id);
create index forward_auth_sessions_user_idx on forward_auth_sessions (user_id);
