-- Issue 59 (point 3, group push): Entra ID and Okta push a group's membership (PATCH members add/remove,
-- PUT with members). A group created over SCIM without KPI ID's unit extension is such a pushed group: its
-- members are the ones the client pushes, kept here. Every other unit's members follow from the people's
-- student records and employee positions and stay read-only over SCIM.
create table scim_pushed_groups (
  unit_id uuid primary key references units (id) on delete cascade,
  -- The SCIM token's name that created it, for the operator reading the table.
  pushed_by text not null,
  created_at timestamptz not null default now()
);
create table scim_group_members (
  unit_id uuid not null references scim_pushed_groups (unit_id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (unit_id, user_id)
);
create index scim_group_members_user_idx on scim_group_members (user_id);
-- Groups Okta pushed before (only a displayName, so a code of their own, "scim-" and 12 hex digits) become
-- pushed groups: Okta can now push their members.
insert into scim_pushed_groups (unit_id, pushed_by)
  select id, 'before migration 0530' from units where code ~ '^scim-[0-9a-f]{12}$';
