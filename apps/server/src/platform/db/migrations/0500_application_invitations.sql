-- Issue 56 (point 3): nobody becomes a co-owner or tester of an application without knowing. An owner's
-- "add" is an invitation the person accepts or declines on their developers' page; it expires after 14 days
-- (developerInvitationDays) and an owner may withdraw it. Rows already in application_owners and
-- application_testers stay: those memberships were made before and keep working.
create table application_invitations (
  id uuid primary key default gen_random_uuid(),
  application_id uuid not null references applications (id) on delete cascade,
  role text not null check (role in ('owner', 'tester')),
  -- What the owner typed (a username or an address), shown back to the owners; the invitation is listed the
  -- same whether or not anyone holds it (issue 56, point 4), so `user_id` is null for nobody, someone disabled,
  -- an address several people share, or someone who is already a member.
  named text not null,
  user_id uuid references users (id) on delete cascade,
  invited_by uuid references users (id) on delete set null,
  invited_at timestamptz not null default now(),
  expires_at timestamptz not null
);
-- One waiting invitation per application, role and typed name: inviting again renews it.
create unique index application_invitations_named_idx on application_invitations (application_id, role, lower(named));
create index application_invitations_user_idx on application_invitations (user_id) where user_id is not null;
