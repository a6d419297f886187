/** A mistake in how the command was called: print usage, exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The command was understood but cannot be done (unknown user, bad row): exit 1. */
export class CommandFailedError extends Error {
  override name = "CommandFailedError";
}

export const usage = `Usage: kpi-id <command> [options]     (also: npm run admin -- <command>)

Release and health
  --version                                 print this release's version (also GET /health)
  doctor                                    check the configuration, the database and its migrations,
                                            the keys, certificates' expiry (30 days' warning), stand-ins
                                            off in production and the clock; prints what to fix;
                                            exit 0 all ok, 1 a problem, 3 warnings only; never changes
                                            anything

Database
  migrate                                   apply pending migrations
  backup --to FILE                          copy the embedded database (DATA_DIR) into FILE (0600) with a
    [--passphrase-stdin | --passphrase-file F | --recipient age1...]
                                            manifest of SHA-256 checksums, consistent; encrypted with age
                                            when a passphrase or recipients are given; the server must be
                                            stopped meanwhile (one process at a time); a session secret
    [--without-secret]                      generated into DATA_DIR is carried unless --without-secret;
                                            PostgreSQL: pg_dump or base backups (docs/operations.md)
  restore --from FILE [--replace]           check the whole backup against its manifest, then put it back
    [--passphrase-stdin | --passphrase-file F | --identity-file F]
                                            into DATA_DIR (0700/0600) through a folder beside it, the server
                                            stopped; --replace moves a database already there aside;
                                            refused unless the session secret it will run with (SESSION_SECRET,
                                            the carried one, DATA_DIR/session.secret) opens its sealed keys

Secrets (docs/operations.md, "Rotating SESSION_SECRET")
  secrets reseal                            after a new key was put first in SESSION_SECRET: seal the
                                            authenticator-app secrets and signing keys again under it,
                                            so the older keys can be removed
  secrets pairwise-salt                     print SAML_PAIRWISE_SALT as it is now (set it before adding
                                            a second key to SESSION_SECRET, so SAML pairwise ids stay)

Applications
  app create --name NAME --title T --description D --callback-url URL [--callback-url URL ...]
             [--title-en T] [--description-en D] [--release-tax-id]
                                            register an application; prints its id and secret (once);
                                            the English title and description show to English readers
                                            (the Ukrainian ones when they are not given); the first
                                            callback is the default, a sign-in link names another with
                                            redirectUri; tickets carry TAX_ID only with --release-tax-id
  app list                                  list applications
  app cas --app ID|NAME [--service URL [--prefix] [--attributes a,b,…] [--rename a=NAME …] [--single-logout]
          [--proxy]] [--remove URL]
                                            the application's CAS services (docs/cas.md): an exact URL, or with
                                            --prefix every address under a path ending in "/"; the attributes its
                                            validations release (all but taxId, mail, givenName and sn when not
                                            given), --rename mail=email releases one under the name its plugin
                                            expects; without --service or --remove, lists them
  app nginx --app ID|NAME [--headers user-id,username,name,email,affiliations] [--off]
                                            a site behind nginx auth_request (docs/nginx-auth-request.md):
                                            the person headers it receives (all when not given);
                                            --off: an ordinary application again, its cookies end
  app rotate-secret --app ID|NAME           issue a new secret; the old one stops working
  app update --app ID|NAME [--title T] [--description D] [--title-en T] [--description-en D]
             [--callback-url URL ...] [--release-tax-id|--withhold-tax-id]
             [OpenID Connect flags] [--disable-oidc] [--require-mfa|--no-require-mfa]
                                            --require-mfa: tickets and OpenID Connect sign-ins only after
                                            a second factor (a one-factor session is asked for it)
    OpenID Connect flags (app create and app update):
      --oidc --redirect-uri URI [--redirect-uri URI ...] [--post-logout-redirect-uri URI ...]
      [--scope "profile email kpi offline_access tax_id"] [--public|--confidential]
      [--first-party|--third-party] [--backchannel-logout-uri URI] [--device-flow|--no-device-flow]
                                            default scopes: openid profile email kpi offline_access;
                                            tax_id only when given; first-party skips consent
                                            --device-flow: the device authorization grant (RFC 8628):
                                            bots and terminals show a code people confirm at /{lang}/device

OpenID Connect signing keys
  keys prepare                              a next key: in the JWKS now, not signing yet
  keys promote                              the next key signs; the old one stays in the JWKS until
                                            the ID tokens it signed expire (the overlap)
  keys retire [--kid KID] [--force]         previous keys out of the JWKS (--force: inside the
                                            overlap, for a leaked key)
  keys rotate                               the three in one: new key signing in 2 minutes
  keys list                                 keys and their state (next, current, previous)

SAML 2.0 identity provider (docs/saml.md)
  saml sp add --metadata FILE|URL [--attribute NAME ...] [--app ID|NAME] [--first-party] [--encrypt] [--sign-response]
                                            register or refresh a service provider from its metadata;
                                            --attribute adds to what it is released (see docs/saml.md)
  saml sp list                              registered service providers
  saml sp remove --entity-id ID
  saml keys list                            SAML signing keys in the metadata, which signs
  saml keys rollover [--activate-in-hours 48]
                                            new key in the metadata now, signing later
  saml keys promote                         the next key signs now (SPs have its metadata)
  saml keys remove --kid KID                take an old key out of the metadata
  saml federation add --name NAME --metadata FILE|URL --certificate FILE [--entity-category URI ...]
                                            a federation's signed aggregate: its SPs, refreshed on a schedule
  saml federation refresh --name NAME       read the aggregate again now
  saml federation list                      federations, validUntil, last refresh and error
  saml federation remove --name NAME        the federation and its SPs
  app rule add --app ID|NAME [--affiliation A] [--unit CODE [--without-subunits]] [--status S]
                                            access by rule: A is student, employee, faculty, staff,
                                            member, alum or affiliate (a guest); S a status (studying,
                                            academic_leave, graduated, dismissed, active, on_leave,
                                            terminated); every condition given must hold for one
                                            of the person's records; takes effect at once, audited
  app rule list --app ID|NAME
  app rule remove --app ID|NAME --id RULE
  app exclude --app ID|NAME --username U    U loses the application whatever the rules say

Provisioning (SCIM 2.0, docs/scim.md)
  scim token create --name SYSTEM           a bearer token for one source system, shown once
  scim token list
  scim token revoke --name SYSTEM           the system's requests are refused at once

Units
  unit set --code C --kind K --name-uk N [--name-en N] [--parent CODE]
                                            create or change a faculty, department, group... (K is
                                            university, faculty, institute, department, group, office)
  unit list
  unit remove --code C                      only a unit no record, rule or sub-unit names
  unit reviews --code C --final yes|no      a unit admin's review approval makes the unit's (and
                                            its sub-units') applications live; no: central IT confirms

People
  user create --username U --full-name F [--email E] [--tax-id T] [--student-id S]
              [--employee-id E] [--password-stdin]
  user set-password --username U --password-stdin
  user disable --username U                 block sign-in and end every session
  user enable --username U
  user unlock --username U                  forget strangers' failed guesses on U (sign-in, Wi-Fi, LDAP)
                                            (lifts the lock for browsers new to U; audited)
  user require-mfa --username U [--off]     U must give a second factor after the password
                                            (led to set one up when U has none)
  user reset-mfa --username U               remove U's authenticator app, recovery codes and passkeys
                                            (lost phone) and end U's sessions; audited, U told by
                                            mail in the language of their last sign-in
  user list
  user grant --username U --app ID|NAME     give access to an application (lifts an exclusion)
  user revoke --username U --app ID|NAME    end access; excludes U when a rule would let them in
  user link-google --username U --subject SUB
                                            let a Google account (its ID token "sub") sign in as U
  user unlink-google --username U           remove U's Google links
  user erase --username U --confirm U       erase U's personal data on request: sign-in methods,
                                            sessions, records, consents go; the audit trail stays
                                            without them; U's username is never given again; audited
  user import --file people.csv [--dry-run] header row; columns as the create flags
                                            (username, full-name, email, tax-id, student-id,
                                            employee-id, password, apps; and student-unit,
                                            student-status, employee-unit, employee-status for
                                            the primary records); idempotent on username;
                                            a blank cell leaves the field as it is, a cell
                                            (clear) empties it; one person per line;
                                            --dry-run reports and keeps nothing; lines are
                                            committed 200 at a time, each whole

Wi-Fi (eduroam through FreeRADIUS, docs/eduroam.md)
  wifi list --username U                    U's Wi-Fi passwords (names, identities, last use; never
                                            a password) and whether U's Wi-Fi is off
  wifi revoke --username U --id ID|--all    revoke one (or every) Wi-Fi password of U; audited
  wifi off --username U                     no Wi-Fi password of U works until "wifi on"; audited
  wifi on --username U
  wifi stats                                Wi-Fi sign-ins per day and refusals by reason (14 days)

LDAP (OpenLDAP slapd kept by KPI ID, docs/ldap.md)
  ldap sync                                 make slapd's directory KPI ID's truth now (idempotent)
  ldap client add --name N --title T --attributes a,b [--subtree people|groups|directory]
      [--application APP] [--addresses IP,IP] [--allow-kpi-password]
                                            register an LDAP client: its bind DN and secret
                                            (shown once); with --application it sees, and lets
                                            bind from its addresses, only people with access;
                                            --allow-kpi-password: people without a console role
                                            or second factor may bind through it (from its
                                            addresses, over TLS) with their KPI ID password
  ldap client list                          the registered LDAP clients (never a secret)
  ldap client remove --name N               its service account and access rules go

Operators' console (/{lang}/admin; docs/console.md)
  role grant --username U --role admin|helpdesk
                                            admin: everything in the console; helpdesk: people
                                            (view, unlock, end sessions, reset a second factor,
                                            start a recovery); the first admin is made here
  role grant --username U --role unit_admin|unit_helpdesk --unit CODE
                                            the same within a unit and every unit below it
                                            (a faculty's IT staff; docs/console.md)
  role revoke --username U --role admin|helpdesk|unit_admin|unit_helpdesk [--unit CODE]
  role list                                 who holds which role

Audit
  audit list [--user U] [--since 2026-03-01|30m|12h|7d] [--type T] [--limit N]
                                            sign-ins, logouts, app redirects and ticket exchanges,
                                            newest first (types: sign_in, session_start, logout,
                                            app_redirect, ticket_exchange)

Diia
  diia setup [--name N] [--full-name F] [--address A] [--email E] [--offer-name O] [--branch ID]
                                            create the branch (scope diiaId: auth) and its offer;
                                            prints DIIA_BRANCH_ID and DIIA_OFFER_ID to configure
  diia status                               reach Diia, check branch, offer and trust anchors;
                                            counts of sign-in requests in the last 24 h
  diia check-callback FILE [--trust F]... [--intermediate F]... [--certificate F]... [--crl F]...
        [--ocsp URL]... [--request-id ID] [--at DATE]
                                            check a captured callback (multipart body, encodeData
                                            base64 or JSON) step by step with the configured CAs or
                                            these files (asks the OCSP responders when given or
                                            configured); exit status 0 when it opened

BankID NBU
  bankid status                             check the configuration, the encryption certificate
                                            (validity, keyAgreement only, matches the key), the
                                            qualified CAs, and that NBU's node answers its bank list
  bankid check-answer FILE [--key F] [--key-password-stdin] [--certificate F] [--trust F]...
        [--originator F] [--member-id ID] [--at DATE]
                                            open a captured resource answer (its JSON or the base64
                                            customerCrypto) step by step with the configured key and
                                            CAs, or these files; exit status 0 when it opened

Every command takes --json for machine-readable output. Configuration comes from
the environment (DATABASE_URL or DATA_DIR), as for the server.`;
