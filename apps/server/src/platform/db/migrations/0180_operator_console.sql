-- The operators' console (issue 18): operator roles, the acting operator on audit rows, and
-- people search that stays fast with every person of the university in the table.

create table operator_roles (
  user_id uuid not null references users (id) on delete cascade,
  role text not null check (role in ('admin', 'helpdesk')),
  granted_at timestamptz not null default now(),
  primary key (user_id, role)
);

-- Who did it, when an operator acted on someone (user_id stays the person acted on).
alter table audit_events add column actor_id uuid references users (id) on delete set null;
create index audit_events_actor_idx on audit_events (actor_id, occurred_at) where actor_id is not null;
create index audit_events_type_idx on audit_events (event_type, occurred_at);

-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it; PGlite loads it.
create extension if not exists pg_trgm;

-- Search as you type matches any part of the name, username, e-mail, student or employee id: one
-- lower-cased text of them all under a trigram index, so '%term%' is an index scan, not a table scan.
create index users_search_trgm_idx on users using gin (
  (lower(full_name || ' ' || username || ' ' || coalesce(email, '') || ' ' || coalesce(student_id, '') || ' ' ||
    coalesce(employee_id, ''))) gin_trgm_ops
);
-- The people list's order (by name), so a page of an unfiltered list reads a few index entries.
create index users_full_name_idx on users (lower(full_name), id);
create index users_student_id_idx on users (student_id) where student_id is not null;
create index users_employee_id_idx on users (employee_id) where employee_id is not null;
