-- Issue 12: what a person consented to, per application, recorded when they answer the consent
-- screen. A later sign-in finds it by its key instead of scanning the provider's grant payloads.
create table oidc_consents (
  user_id uuid not null references users (id) on delete cascade,
  application_id uuid not null references applications (id) on delete cascade,
  scopes text[] not null,
  expires_at timestamptz not null,
  primary key (user_id, application_id)
);

-- Consent given before this table existed lives on in the grants the provider stored.
insert into oidc_consents (user_id, application_id, scopes, expires_at)
select distinct on (u.id, a.id) u.id, a.id, string_to_array(p.payload #>> '{openid,scope}', ' '), p.expires_at
from oidc_payloads p
join users u on u.id::text = p.payload ->> 'accountId'
join applications a on a.id::text = p.payload ->> 'clientId'
where p.type = 'Grant' and p.expires_at is not null and p.payload #>> '{openid,scope}' is not null
order by u.id, a.id, p.expires_at desc;
