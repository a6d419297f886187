-- Issue 78 (part 1): sponsored guests. A guest is a person (users) with the eduPerson affiliation `affiliate`,
-- a sponsor on record, an end, the units or applications they need and a reason. The guest's affiliation
-- comes from this table through the person_affiliations view, so access rules, SCIM, SAML, OpenID Connect,
-- CAS, nginx headers and the apps page release it exactly as they release the others.
create table guests (
  user_id uuid primary key references users (id) on delete cascade,
  -- Null once the sponsor left and nobody took the guest over yet; the console shows who holds them.
  sponsor_id uuid references users (id) on delete set null,
  -- Who looks after the guest: the sponsor, or the operators after the sponsor left (handed_over_at).
  handed_over_at timestamptz,
  reason text not null,
  ends_at timestamptz not null,
  created_at timestamptz not null default now(),
  -- The expiry reminders already sent (14 and 3 days before), so a run never mails twice.
  reminded_days integer[] not null default '{}',
  -- When the guest stopped (the end came, or the sponsor ended them); their affiliation goes with it.
  ended_at timestamptz
);
create index guests_sponsor_idx on guests (sponsor_id) where ended_at is null;
create index guests_ends_at_idx on guests (ends_at) where ended_at is null;

-- The units a guest is attached to (the view gives one `affiliate` row per unit, so unit rules hold).
create table guest_units (
  user_id uuid not null references guests (user_id) on delete cascade,
  unit_id uuid not null references units (id) on delete cascade,
  primary key (user_id, unit_id)
);
create index guest_units_unit_idx on guest_units (unit_id);

-- The applications the sponsor said the guest needs: shown to the operators, who let guests in by rule.
create table guest_applications (
  user_id uuid not null references guests (user_id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  primary key (user_id, application_id)
);

-- The invitation: a link that works once, only for the address it was sent to (the token is stored hashed).
create table guest_invitations (
  user_id uuid primary key references guests (user_id) on delete cascade,
  email text not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz
);

alter table access_rules drop constraint access_rules_affiliation_check;
alter table access_rules add constraint access_rules_affiliation_check
  check (affiliation in ('student', 'employee', 'faculty', 'staff', 'member', 'alum', 'affiliate'));

create or replace view person_affiliations as
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
) as a (affiliation)
union all
-- A current guest: `affiliate` in each of their units, or once without a unit.
select g.user_id, gu.unit_id, 'active'::text as status, 'affiliate'::text as affiliation
from guests g
left join guest_units gu on gu.user_id = g.user_id
where g.ended_at is null;

-- The apps list and GET /user are cached per person: a guest's rows change what they see.
do $$
declare
  person_table text;
begin
  foreach person_table in array array['guests', 'guest_units'] loop
    execute format('create trigger %1$s_added_cache after insert on %1$I referencing new table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_changed_cache after update on %1$I
      referencing old table as previous_rows new table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_removed_cache after delete on %1$I referencing old table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_truncated_cache after truncate on %1$I
      for each statement execute function notify_cache_all()', person_table);
  end loop;
end;
$$;
