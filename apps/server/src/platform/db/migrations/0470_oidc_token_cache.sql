-- Userinfo answers from each instance's memory of the access tokens it read (oidc/token-cache.ts), each kept
-- with its grant. A change to either, made anywhere (a revocation at another instance, a grant revoked by the
-- person or an operator, psql), is announced on kpi_id_cache (0310) so every instance drops it at once:
--   'grant:<grant id>,…'   those grants, or an access token of theirs, changed or went
-- A row past its expiry names nothing (no instance serves it; the sweeper removes thousands at once). Over 100
-- grants in one statement, or ids too long for one notification: 'all', as 0310 does.
-- Expand only. An instance of 0.2.0 reads 'grant:…' as 'all' and drops its caches: still correct, only slower, while
-- both releases run.

create function notify_cache_grants() returns trigger
language plpgsql
as $$
declare
  picked integer;
  ids text[];
begin
  -- Grants, not rows: revoking one grant removes all its access tokens (one for each refresh) in one statement.
  select count(*), array_agg(grant_ref) into picked, ids from (
    select distinct case when type = 'Grant' then id else grant_id end as grant_ref
    from changed_rows
    where type in ('AccessToken', 'Grant') and (expires_at is null or expires_at > now())
      and (type = 'Grant' or grant_id is not null)
    limit 101
  ) some_grants;
  if picked = 0 then
    return null;
  -- A payload past NOTIFY's 8000 bytes would fail the statement (a revocation refused), and a comma would split
  -- an id: ids written by hand may be longer than the provider's 21 characters, or hold one.
  elsif picked > 100 or octet_length(array_to_string(ids, ',')) > 7900
    or exists (select from unnest(ids) as listed(id) where position(',' in listed.id) > 0) then
    perform pg_notify('kpi_id_cache', 'all');
  else
    perform pg_notify('kpi_id_cache', 'grant:' || array_to_string(ids, ','));
  end if;
  return null;
end;
$$;

-- An update (a grant saved again with more scopes, a token's row replaced) names the row as it was before: its
-- grant id is the one cached.
create trigger oidc_payloads_changed_cache after update on oidc_payloads
  referencing old table as changed_rows for each statement execute function notify_cache_grants();
create trigger oidc_payloads_removed_cache after delete on oidc_payloads
  referencing old table as changed_rows for each statement execute function notify_cache_grants();
create trigger oidc_payloads_truncated_cache after truncate on oidc_payloads
  for each statement execute function notify_cache_all();
