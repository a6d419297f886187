-- Administration delegated by unit (issue 79): a faculty's IT staff hold a role in their unit, which reaches that
-- unit and every unit below it (units.ancestry). model/users owns unit_roles beside operator_roles.
create table unit_roles (
  user_id uuid not null references users (id) on delete cascade,
  unit_id uuid not null references units (id) on delete cascade,
  role text not null check (role in ('unit_admin', 'unit_helpdesk')),
  granted_at timestamptz not null default now(),
  primary key (user_id, unit_id, role)
);
create index unit_roles_unit_idx on unit_roles (unit_id);

-- The unit an application belongs to (registered by a unit admin, or assigned by an operator); null: central IT's.
-- A unit that owns applications is in use and cannot be removed.
alter table applications add column unit_id uuid references units (id);
create index applications_unit_idx on applications (unit_id) where unit_id is not null;

-- The unit a unit-scoped console action was taken in, so a unit's audit names it; no foreign key: the audit outlives
-- the unit.
alter table audit_events add column unit_id uuid;
create index audit_events_unit_idx on audit_events (unit_id, occurred_at) where unit_id is not null;

-- A unit's people: the scoped people search and the person-in-reach checks look records up by unit.
create index student_records_unit_idx on student_records (unit_id, user_id);
create index employee_positions_unit_idx on employee_positions (unit_id, user_id);
