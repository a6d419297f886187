-- Issue 35 point 3: OpenID Connect bearer values (access and refresh tokens, codes, device codes, client
-- credentials, registration tokens, CIBA requests) were the primary key of oidc_payloads in clear, so a
-- database copy, a backup or the WAL handed out working refresh tokens. The adapter now keeps the SHA-256 of
-- the id (base64url, as oidc/adapter.ts storedOidcId) and leaves the payload's own copy (jti) out; this
-- rewrites the rows already there, so tokens issued before the upgrade keep working after it.
-- Rolling upgrade: an instance of the previous release cannot find a token in the new form (it answers
-- invalid_token / invalid_grant, failing closed): upgrade the OIDC-serving instances together, or accept that
-- clients refresh again during the minutes both releases run.
update oidc_payloads
set id = rtrim(translate(encode(sha256(convert_to(id, 'UTF8')), 'base64'), '+/', '-_'), '='),
    payload = payload - 'jti'
where type in (
  'AccessToken', 'RefreshToken', 'AuthorizationCode', 'DeviceCode', 'ClientCredentials',
  'InitialAccessToken', 'RegistrationAccessToken', 'BackchannelAuthenticationRequest'
);
