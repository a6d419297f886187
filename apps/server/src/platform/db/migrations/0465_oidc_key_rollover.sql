-- Issue 40: OpenID Connect signing keys roll over in stages. A key signs from activates_at; a key
-- without one is the next key: published in the JWKS (applications that cache it have it) but
-- signing only once `kpi-id keys promote` sets the time. retired_at is when a key stopped signing;
-- it stays published for the overlap (the ID tokens' lifetime and a margin) and is then removed.
-- Expand only: 0.3.0 reads none of this column and keeps working beside this release.
alter table oidc_signing_keys add column activates_at timestamptz;

-- 0.3.0's rule: a key signed from 120 s after it was made (the oldest one when none had reached it).
update oidc_signing_keys set activates_at = created_at + interval '120 seconds';
