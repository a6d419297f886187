-- Issue 56, point 2: the ticket path asks before identity leaves for an application that is not first-party.

-- An application registered on the developers' page (issue 39) is a community application: never first-party,
-- whatever its OpenID Connect first_party flag says, so every protocol asks the person before it learns who they are.
-- Operators' own applications keep their flow. Those registered before this migration are the ones that ever
-- had an owner, a review or a lifecycle other than live, or carry the name the developers' page gives.
alter table applications add column community boolean not null default false;
update applications set community = true
where lifecycle <> 'live'
  or name ~ '^dev-[0-9a-f]{12}$'
  or exists (select 1 from application_owners owner where owner.application_id = applications.id)
  or exists (select 1 from application_reviews review where review.application_id = applications.id);

-- What a person allowed a community application to receive through the ticket exchange: the kinds of data
-- (ticket-consents.ts) at the time they agreed. When the application comes to receive more (the tax id, say),
-- the consent no longer covers it and the person is asked again. Revoked on the account page.
create table ticket_consents (
  user_id uuid not null references users (id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  data text[] not null,
  consented_at timestamptz not null default now(),
  primary key (user_id, application_id)
);
create index ticket_consents_application_idx on ticket_consents (application_id);

-- A sign-in link waiting for the person's answer on the consent screen: the application, its state and the
-- callback chosen, kept here so the screen and the answer cannot be pointed at another application or address.
-- Answered once; a few minutes to answer.
create table ticket_consent_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  state text,
  redirect_uri text,
  callback_url text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index ticket_consent_requests_user_idx on ticket_consent_requests (user_id);
create index ticket_consent_requests_expiry_idx on ticket_consent_requests (expires_at);
