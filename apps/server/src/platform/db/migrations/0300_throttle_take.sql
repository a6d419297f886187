-- A credential check's throttle take in one round trip (issue 20): what takeAttempt did in six statements
-- (begin, insert the counters, lock them in key order, read, one update per key, commit) runs here in one
-- function call, with the same row locks in the same order, so concurrent guesses are still counted one
-- after the other. The rules come from throttle/policy.ts with each call: the numbers live in one place.
-- Returns the seconds to wait when a key is blocked (nothing counted), 0 when the attempt was counted.
create or replace function throttle_take(
  p_keys text[],
  p_free_failures integer[],
  p_first_delay_seconds double precision[],
  p_max_delay_seconds double precision[],
  p_lock_after integer[],
  p_lock_seconds double precision[],
  p_forget_after_seconds double precision[],
  p_forget_from_first boolean[],
  p_now timestamptz
) returns double precision
language plpgsql
as $$
declare
  latest timestamptz;
  counter record;
  i integer;
  forgotten boolean;
  counted integer;
  delay double precision;
begin
  insert into throttle_counters (key, failures, first_failure_at, last_failure_at)
  select key, 0, p_now, p_now from unnest(p_keys) as key
  on conflict (key) do nothing;
  -- Locked in key order: two checks sharing keys never wait on each other in a cycle.
  perform 1 from throttle_counters where key = any(p_keys) order by key for update;
  select max(blocked_until) into latest from throttle_counters where key = any(p_keys);
  if latest is not null and latest > p_now then
    return extract(epoch from (latest - p_now))::double precision;
  end if;
  for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
    select * into counter from throttle_counters where key = p_keys[i];
    forgotten := p_now - (case when p_forget_from_first[i] then counter.first_failure_at else counter.last_failure_at end)
      > make_interval(secs => p_forget_after_seconds[i]);
    counted := case when forgotten then 1 else counter.failures + 1 end;
    -- policy.ts's delayAfterFailures: the lock, then the free failures, then a doubling delay up to the cap.
    delay := case
      when p_lock_after[i] is not null and counted >= p_lock_after[i] then p_lock_seconds[i]
      when counted <= p_free_failures[i] then 0
      else least(p_first_delay_seconds[i] * power(2, counted - p_free_failures[i] - 1), p_max_delay_seconds[i])
    end;
    update throttle_counters set
      failures = counted,
      -- The attempt is not yet known to fail: last_failure_at moves only when it does (confirmFailure).
      first_failure_at = case when forgotten then p_now else first_failure_at end,
      last_failure_at = case when forgotten then p_now else last_failure_at end,
      blocked_until = case when delay > 0 then p_now + make_interval(secs => delay) else blocked_until end
    where key = p_keys[i];
  end loop;
  return 0;
end
$$;
