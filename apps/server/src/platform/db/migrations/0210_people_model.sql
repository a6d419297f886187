-- Issue 21: people as the campus knows them. Units (faculties, departments, groups) are entities with a
-- stable code and names in both languages; a person holds student records and employee positions, each
-- with its source and dates; eduPerson affiliations derive from them; users.student_id/employee_id stay
-- the primary record's ids, kept in step by the service (users/records.ts).
create table units (
  id uuid primary key default gen_random_uuid(),
  -- the university's stable identifier ("FIOT", "IP-21"); what imports and SCIM name a unit by
  code text not null,
  kind text not null check (kind in ('university', 'faculty', 'institute', 'department', 'group', 'office')),
  name_uk text not null,
  name_en text not null default '',
  parent_id uuid references units (id) on delete restrict,
  -- the unit itself and every unit above it, kept by the service when parents change; a rule "with
  -- sub-units" matches a record whose unit's ancestry holds the rule's unit
  ancestry uuid[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index units_code_key on units (lower(code));
create index units_parent_idx on units (parent_id);

create table student_records (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  student_id text not null,
  -- the most specific unit the student belongs to (a group, else a department or faculty)
  unit_id uuid references units (id) on delete set null,
  speciality text not null default '',
  study_form text not null default '',
  study_year integer,
  status text not null check (status in ('studying', 'academic_leave', 'graduated', 'dismissed')),
  -- who said so: 'csv', 'cli', 'scim'
  source text not null,
  -- ISO calendar dates as text (YYYY-MM-DD), so both drivers hand back what was stored
  starts_on text check (starts_on ~ '^\d{4}-\d{2}-\d{2}$'),
  ends_on text check (ends_on ~ '^\d{4}-\d{2}-\d{2}$'),
  is_primary boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index student_records_user_idx on student_records (user_id);
create unique index student_records_student_id_key on student_records (user_id, lower(student_id));

create table employee_positions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  employee_id text not null,
  position text not null default '',
  unit_id uuid references units (id) on delete set null,
  employment_type text not null default 'main' check (employment_type in ('main', 'secondary', 'contract')),
  -- eduPerson's split of employees: teaching and research staff ('faculty') or the rest ('staff')
  category text not null default 'staff' check (category in ('faculty', 'staff')),
  status text not null check (status in ('active', 'on_leave', 'terminated')),
  source text not null,
  -- ISO calendar dates as text (YYYY-MM-DD), so both drivers hand back what was stored
  starts_on text check (starts_on ~ '^\d{4}-\d{2}-\d{2}$'),
  ends_on text check (ends_on ~ '^\d{4}-\d{2}-\d{2}$'),
  is_primary boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index employee_positions_user_idx on employee_positions (user_id);
create unique index employee_positions_employee_id_key on employee_positions (
  user_id, lower(employee_id), coalesce(unit_id::text, '')
);

-- One row per record and the affiliation it gives: studying or on leave gives student and member,
-- graduated gives alum, an active or on-leave position gives employee, member and faculty or staff;
-- a dismissed student or a terminated position gives none. Access rules and claims read only this.
create view person_affiliations as
select s.user_id, s.unit_id, s.status, a.affiliation
from student_records s
cross join lateral unnest(
  case
    when s.status in ('studying', 'academic_leave') then array['student', 'member']
    when s.status = 'graduated' then array['alum']
    else array[]::text[]
  end
) as a (affiliation)
union all
select p.user_id, p.unit_id, p.status, a.affiliation
from employee_positions p
cross join lateral unnest(
  case when p.status in ('active', 'on_leave') then array['employee', 'member', p.category] else array[]::text[] end
) as a (affiliation);

-- An application's access: rules (every condition given must hold for one of the person's records),
-- individual grants (user_applications) and individual exclusions, which win over both.
create table access_rules (
  id uuid primary key default gen_random_uuid(),
  application_id uuid not null references applications (id) on delete cascade,
  affiliation text check (affiliation in ('student', 'employee', 'faculty', 'staff', 'member', 'alum')),
  unit_id uuid references units (id) on delete cascade,
  include_subunits boolean not null default true,
  status text check (
    status in ('studying', 'academic_leave', 'graduated', 'dismissed', 'active', 'on_leave', 'terminated')
  ),
  created_at timestamptz not null default now(),
  check (affiliation is not null or unit_id is not null or status is not null)
);
create index access_rules_application_idx on access_rules (application_id);
create unique index access_rules_condition_key on access_rules (
  application_id, coalesce(affiliation, ''), coalesce(unit_id::text, ''), include_subunits, coalesce(status, '')
);

create table access_exclusions (
  user_id uuid not null references users (id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, application_id)
);

-- Today's ids become records so nothing existing changes meaning: each is the person's primary record.
insert into student_records (user_id, student_id, status, source, is_primary)
select id, student_id, 'studying', 'migration', true from users where student_id is not null
on conflict do nothing;
insert into employee_positions (user_id, employee_id, status, source, is_primary)
select id, employee_id, 'active', 'migration', true from users where employee_id is not null
on conflict do nothing;
