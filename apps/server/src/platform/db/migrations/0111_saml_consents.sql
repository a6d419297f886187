-- Issue 22: what a person allowed a SAML service provider that is not first-party to receive
-- (the attribute friendly names shown on the consent screen), and a declined request.
create table saml_consents (
  user_id uuid not null references users (id) on delete cascade,
  sp_entity_id text not null references saml_service_providers (entity_id) on delete cascade,
  attributes text[] not null,
  created_at timestamptz not null default now(),
  primary key (user_id, sp_entity_id)
);

-- The person said no on the consent screen: the SP is answered RequestDenied.
alter table saml_pending_requests add column declined boolean not null default false;
