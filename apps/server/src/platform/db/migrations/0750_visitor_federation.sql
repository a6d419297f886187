-- Researchers from other universities (issue 78, part 2): KPI ID is also a SAML service provider of the federations
-- it reads. The identity providers an aggregate lists (model/saml), a visitor's home identity (model/visitors), the
-- sign-ins in flight between KPI ID and a home institution, and the assertions already used.

-- An identity provider from a federation's aggregate: what the discovery screen searches and what an answer is
-- verified against. scopes: shibmd:Scope, the only suffixes its scoped attributes may carry.
create table saml_identity_providers (
  entity_id text primary key,
  source text not null,
  display_name_en text not null,
  display_name_uk text not null,
  scopes text[] not null default '{}',
  metadata_xml text not null,
  valid_until timestamptz,
  updated_at timestamptz not null default now()
);
create index saml_identity_providers_source_idx on saml_identity_providers (source);

-- A person's identity at their home institution. subject_kind: subject-id, pairwise-id or eppn; an eppn may be
-- reassigned by its institution, so the persistent NameID seen with it is kept and a different one refuses.
create table federated_identities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  institution text not null,
  subject_kind text not null check (subject_kind in ('subject-id', 'pairwise-id', 'eppn')),
  subject text not null,
  name_id text,
  scoped_affiliations text[] not null default '{}',
  assurance text[] not null default '{}',
  visitor boolean not null default false,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  unique (institution, subject_kind, subject)
);
create index federated_identities_user_idx on federated_identities (user_id);

-- A sign-in sent to a home institution: the AuthnRequest's ID (InResponseTo), the browser that started it (the
-- SHA-256 of a cookie value), and, once answered, what the institution said (until the person agrees or it lapses).
create table visitor_sign_in_requests (
  id text primary key,
  browser_hash text not null,
  institution text not null,
  purpose text not null check (purpose in ('sign-in', 'link')),
  user_id uuid references users (id) on delete cascade,
  answer jsonb,
  expires_at timestamptz not null
);

-- Assertion IDs already used, until their NotOnOrAfter: a replayed answer is refused.
create table visitor_seen_assertions (
  institution text not null,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (institution, assertion_id)
);

-- A federated visitor is an affiliate: access rules, claims and attributes treat them by it.
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
-- A current guest (migration 0730): `affiliate` in each of their units, or once without a unit.
select g.user_id, gu.unit_id, 'active'::text as status, 'affiliate'::text as affiliation
from guests g
left join guest_units gu on gu.user_id = g.user_id
where g.ended_at is null
union all
-- A researcher's own visitor account (not a campus person's linked home identity).
select f.user_id, null::uuid, 'active'::text, 'affiliate'::text
from federated_identities f
where f.visitor;

-- The apps list and GET /user are cached per person: a visitor's home identity changes what they see.
create trigger federated_identities_added_cache after insert on federated_identities
  referencing new table as changed_rows
  for each statement execute function notify_cache_rows('person', 'user_id');
create trigger federated_identities_changed_cache after update on federated_identities
  referencing old table as previous_rows new table as changed_rows
  for each statement execute function notify_cache_rows('person', 'user_id');
create trigger federated_identities_removed_cache after delete on federated_identities
  referencing old table as changed_rows
  for each statement execute function notify_cache_rows('person', 'user_id');
create trigger federated_identities_truncated_cache after truncate on federated_identities
  for each statement execute function notify_cache_all();

-- A sign-in at a home institution is a method of its own in sessions, grants and tickets.
alter table sessions drop constraint sessions_auth_method_check;
alter table sessions add constraint sessions_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY', 'BANK_ID', 'INSTITUTION'));
alter table login_grants drop constraint login_grants_auth_method_check;
alter table login_grants add constraint login_grants_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY', 'BANK_ID', 'INSTITUTION'));
alter table tickets drop constraint tickets_auth_method_check;
alter table tickets add constraint tickets_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY', 'BANK_ID', 'INSTITUTION'));
