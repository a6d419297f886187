-- The units a person has a record in, on the person's own row (issue 79): a unit admin's people search filters by
-- it. Through student_records and employee_positions the filter was a join the planner sized from a guessed count
-- of the typed pattern (one row where 442 matched) and ran as a nested loop over the unit's 5,000 people for each
-- of them (p99 449 ms at 100,000 people); on the row it is a test of the row itself, and its GIN index lets a count
-- of "ко" read the 421 people of the unit among its 8,502 matches (a BitmapAnd with the trigram index) rather than
-- all of them. Kept by the database, so every writer of records (imports, SCIM, the console, an older release
-- during a rolling upgrade) keeps it; the records stay the truth.
alter table users add column unit_ids uuid[] not null default '{}';

-- The people whose records a statement changed: their units read again in one statement, written only where they
-- differ (an import that rewrites a person's records as they were changes no row of users), in one order so that
-- equal sets compare equal. An update names the rows before it too: a record moved to another person changes both
-- people's units. Planned at each statement (execute), from the number of rows it changed: a batch of 10,000
-- records is one hash join, not 10,000 lookups in a table whose statistics are those of an empty one.
create function refresh_person_units() returns trigger
language plpgsql
as $$
begin
  execute format(
    'update users set unit_ids = held.unit_ids
    from (
      select person.user_id,
        coalesce(array_agg(distinct record.unit_id order by record.unit_id) filter (where record.unit_id is not null),
          ''{}'') as unit_ids
      from (%s) person
      left join (
        select user_id, unit_id from student_records
        union all
        select user_id, unit_id from employee_positions) record on record.user_id = person.user_id
      group by person.user_id) held
    where users.id = held.user_id and users.unit_ids <> held.unit_ids',
    case tg_op
      when 'UPDATE' then 'select user_id from changed_rows union select user_id from previous_rows'
      when 'TRUNCATE' then 'select id as user_id from users where unit_ids <> ''{}'''
      else 'select distinct user_id from changed_rows'
    end);
  return null;
end;
$$;

-- The same four triggers on both tables of records.
do $$
declare
  records text;
begin
  foreach records in array array['student_records', 'employee_positions'] loop
    execute format('create trigger %1$s_added_units after insert on %1$I
      referencing new table as changed_rows for each statement execute function refresh_person_units()', records);
    execute format('create trigger %1$s_changed_units after update on %1$I
      referencing old table as previous_rows new table as changed_rows for each statement
      execute function refresh_person_units()', records);
    execute format('create trigger %1$s_removed_units after delete on %1$I
      referencing old table as changed_rows for each statement execute function refresh_person_units()', records);
    execute format('create trigger %1$s_truncated_units after truncate on %1$I
      for each statement execute function refresh_person_units()', records);
  end loop;
end;
$$;

update users set unit_ids = held.unit_ids
from (
  select user_id, array_agg(distinct unit_id order by unit_id) as unit_ids
  from (
    select user_id, unit_id from student_records where unit_id is not null
    union all
    select user_id, unit_id from employee_positions where unit_id is not null) record
  group by user_id) held
where users.id = held.user_id;

create index users_unit_ids_idx on users using gin (unit_ids);
