-- The last list of banks NBU's node answered (GET /api/banks), shared by every instance: when the node's list
-- fails, sign-in goes on with this one (each sign-in checks the answer's memberId against it) and the picker
-- and `doctor` say how old it is. One row. Expand only: an older release never reads it.
create table bankid_bank_list (
  id smallint primary key default 1 check (id = 1),
  -- [{id, name, memberId, workable, logoUrl?, order}] as KPI ID read them (client.ts).
  banks jsonb not null,
  fetched_at timestamptz not null
);
