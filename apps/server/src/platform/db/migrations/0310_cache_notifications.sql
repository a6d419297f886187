-- Every instance keeps the sessions it answered GET /user for in memory (sessions/cache.ts). A change made
-- anywhere (another instance, the CLI, psql) that alters what such an answer holds is announced on the
-- channel kpi_id_cache, and each instance drops what it holds of it before answering again:
--   'session:<id>,…'  those sessions ended or changed strength
--   'person:<id>,…'   those people, their records, grants or exclusions changed
--   'all'             applications, units or access rules changed, or more than 100 rows at once
-- Nothing is sent for a statement that changed no row (a sign-in's no-op updates, say).

create function notify_cache_rows() returns trigger
language plpgsql
as $$
declare
  picked integer;
  ids text[];
begin
  -- tg_argv[0]: what the ids name ('session' or 'person'); tg_argv[1]: the column holding them. An update
  -- names the rows before and after it: a record moved to another person changes both people's lists.
  execute format(
    case when tg_op = 'UPDATE'
      then 'select count(*), array_agg(distinct %1$I::text) from (select %1$I from changed_rows union all select %1$I from previous_rows limit 101) some_rows'
      else 'select count(*), array_agg(distinct %1$I::text) from (select %1$I from changed_rows limit 101) some_rows'
    end,
    tg_argv[1]
  ) into picked, ids;
  if picked = 0 then
    return null;
  elsif picked > 100 then
    perform pg_notify('kpi_id_cache', 'all');
  else
    perform pg_notify('kpi_id_cache', tg_argv[0] || ':' || array_to_string(ids, ','));
  end if;
  return null;
end;
$$;

create function notify_cache_all() returns trigger
language plpgsql
as $$
begin
  perform pg_notify('kpi_id_cache', 'all');
  return null;
end;
$$;

-- A session changed in place: a step-up, or an end brought forward (an operator's update). Its last use,
-- noted once a minute, only moves its idle end later and is not announced.
create function notify_cache_session() returns trigger
language plpgsql
as $$
begin
  perform pg_notify('kpi_id_cache', 'session:' || old.id::text);
  return null;
end;
$$;

create trigger sessions_ended_cache after delete on sessions
  referencing old table as changed_rows for each statement execute function notify_cache_rows('session', 'id');
create trigger sessions_changed_cache after update on sessions
  for each row when (
    old.amr is distinct from new.amr
    or old.strong_at is distinct from new.strong_at
    or old.auth_method is distinct from new.auth_method
    or old.user_id is distinct from new.user_id
    or old.token_hash is distinct from new.token_hash
    or new.idle_expires_at < old.idle_expires_at
    or old.absolute_expires_at is distinct from new.absolute_expires_at
  ) execute function notify_cache_session();

create trigger users_updated_cache after update on users
  referencing old table as previous_rows new table as changed_rows for each statement execute function notify_cache_rows('person', 'id');
create trigger users_deleted_cache after delete on users
  referencing old table as changed_rows for each statement execute function notify_cache_rows('person', 'id');

-- The tables the apps list is read from, per person (student_records and employee_positions make the
-- person_affiliations view), and those that change it for everyone.
do $$
declare
  person_table text;
  shared_table text;
begin
  foreach person_table in array array['user_applications', 'access_exclusions', 'student_records', 'employee_positions'] loop
    execute format('create trigger %1$s_added_cache after insert on %1$I referencing new table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_changed_cache after update on %1$I
      referencing old table as previous_rows new table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
    execute format('create trigger %1$s_removed_cache after delete on %1$I referencing old table as changed_rows
      for each statement execute function notify_cache_rows(''person'', ''user_id'')', person_table);
  end loop;
  foreach shared_table in array array['applications', 'units', 'access_rules'] loop
    execute format('create trigger %1$s_cache after insert or update or delete on %1$I
      for each statement execute function notify_cache_all()', shared_table);
  end loop;
  -- A truncate names no rows: everything any instance holds goes.
  foreach shared_table in array array['sessions', 'users', 'applications', 'units', 'access_rules',
    'user_applications', 'access_exclusions', 'student_records', 'employee_positions'] loop
    execute format('create trigger %1$s_truncated_cache after truncate on %1$I
      for each statement execute function notify_cache_all()', shared_table);
  end loop;
end;
$$;
