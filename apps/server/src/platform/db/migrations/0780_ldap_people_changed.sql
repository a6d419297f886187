-- The LDAP sync updates one person's entry (and the groups they are in) for a change to that person, rather than
-- a full pass (protocols/ldap/service.ts). A person added was announced on kpi_id_ldap as 'users' without ids;
-- it now names them, 'person:<id>,…' as kpi_id_cache does for changes, or 'users' for more than 100 at once (an
-- import), which still makes a full pass.
create function notify_ldap_people_added() returns trigger
language plpgsql
as $$
declare
  picked integer;
  ids text[];
begin
  select count(*), array_agg(id::text) into picked, ids from (select id from changed_rows limit 101) some_rows;
  if picked = 0 then
    return null;
  elsif picked > 100 then
    perform pg_notify('kpi_id_ldap', 'users');
  else
    perform pg_notify('kpi_id_ldap', 'person:' || array_to_string(ids, ','));
  end if;
  return null;
end;
$$;
drop trigger users_added_ldap on users;
create trigger users_added_ldap after insert on users referencing new table as changed_rows
  for each statement execute function notify_ldap_people_added();
