import type { ErrorCode } from "./errors.ts";

// English satisfies the same shape as Ukrainian: a code without its English message is a type error.
export const enErrorMessages = {
  "request.invalid_json": "The request body is not valid JSON.",
  "request.validation_failed": "The request has invalid or missing fields.",
  "request.unstorable_text": "The request contains a character that is not allowed (U+0000).",
  "request.payload_too_large": "The request is too large.",
  "scim.unauthorized": "A valid SCIM token is required.",
  "scim.invalid_request": "The SCIM request is not valid.",
  "scim.forbidden": "This SCIM operation is not allowed.",
  "scim.conflict": "Such a SCIM resource exists already.",
  "scim.version_mismatch": "The SCIM resource has changed: read it again.",
  "scim.not_implemented": "KPI ID does not serve this SCIM request.",
  "request.unsupported_media_type": "Unsupported content type: send application/json.",
  "request.csrf_rejected": "Request refused: it did not come from the KPI ID site.",
  "request.not_found": "The page or resource was not found.",
  "request.rate_limited": "Too many requests. Try again later.",
  "auth.invalid_credentials": "Wrong username or password.",
  "auth.too_many_attempts": "Too many failed sign-in attempts. Try again later.",
  "auth.grant_invalid": "The sign-in session is invalid or has expired. Sign in again.",
  "auth.not_authenticated": "You need to sign in.",
  "auth.reauth_required": "To make this change, confirm it is you: sign in again.",
  "auth.reauth_second_factor_required":
    "To make this change, sign in again with your second factor: your password and a code from your app, or a passkey.",
  "auth.step_up_required": "This needs a stronger sign-in: confirm it with your second factor or a passkey.",
  "auth.code_invalid": "The code is wrong or was already used. Try the next code.",
  "mfa.already_set_up": "An authenticator app is already set up. To replace it, turn the current one off first.",
  "mfa.not_set_up": "No second factor is set up.",
  "passkey.failed": "This passkey did not work. Try another way to sign in.",
  "passkey.challenge_invalid": "The passkey request expired or was already used. Try again.",
  "passkey.counter_regressed":
    "Passkey refused: it looks copied from another device. Sign in another way and remove this passkey.",
  "passkey.already_registered": "This passkey is already added.",
  "passkey.not_found": "There is no such passkey: it may have been removed already.",
  "account.session_not_found": "There is no such session: it may have ended already.",
  "account.application_not_found": "This application has no access to your data: it may have been revoked already.",
  "account.last_sign_in_method":
    "This is your only way to sign in: without it you could not sign in. You need a password or Diia first.",
  "password.too_short": "The password is too short: at least 8 characters are needed (15 or more advised).",
  "password.too_long": "The password is too long: 128 characters at most.",
  "password.blocklisted":
    "This password is easy to guess: it is common or contains your name, username or the university's name. Choose another.",
  "password.current_wrong": "The current password is wrong.",
  "recovery.link_invalid":
    "The recovery link is not valid: it has expired, was already used or was replaced by a newer one. Ask for a new one.",
  "recovery.not_available": "This service does not offer recovery by e-mail. Use Diia or contact support.",
  "app.not_found": "Application not found.",
  "app.access_denied": "You do not have access to this application.",
  "oidc.interaction_not_found":
    "The application's sign-in request was not found or has expired. Start signing in from the application again.",
  "saml.request_refused":
    "The service's sign-in request was refused: the service is unknown, its signature or address is wrong, or the request was already used. Start signing in from the service again.",
  "saml.weak_signature":
    "The service signed its sign-in request with SHA-1, which KPI ID does not accept. Tell the service's administrator: load KPI ID's metadata again (it advertises RSA-SHA256) or set signingAlg=\"rsa-sha256\" in shibboleth2.xml.",
  "device.code_not_found": "There is no such code. Check the digits on the device's screen and enter them again.",
  "device.code_expired": "The code has expired. Ask the device to show a new one.",
  "device.code_used": "This code has already been used. Ask the device to show a new one.",
  "device.too_many_attempts": "Too many wrong codes. Try again later.",
  "device.form_expired": "The page has expired. Enter the code again.",
  "saml.request_not_found":
    "The service's sign-in request was not found or has expired. Start signing in from the service again.",
  "consent.request_not_found":
    "The application's request for your data was not found, has expired or was already answered. Open the application again.",
  "ticket.invalid": "The ticket is invalid, already used or expired, or the application credentials are wrong.",
  "forward_auth.not_configured": "This site is not set up for sign-in with KPI ID. Contact its administrator.",
  "forward_auth.sign_in_required": "Sign in with KPI ID to open this site.",
  "forward_auth.no_access": "You do not have access to this site. If you need it, contact its administrator.",
  "cas.service_not_registered":
    "The service's address is not registered with KPI ID, so the sign-in cannot continue. Tell the service's administrator.",
  "cas.request_not_found":
    "The service's sign-in request was not found or has expired. Start signing in from the service again.",
  "cas.service_invalid":
    'A CAS service address must be a full https address as the browser writes it, with no name, password, fragment or asterisk; a prefix ends in "/".',
  "cas.service_taken": "This address belongs to, or overlaps, another application's CAS service.",
  "cas.rename_invalid":
    'A renamed attribute must be one the service releases, under a name that starts with a letter and holds only letters, digits, "_", "." or "-" (at most 64), is not one of CAS\'s own (authenticationDate, isFromNewLogin, longTermAuthenticationRequestTokenUsed) and is no other released attribute\'s name.',
  "cas.mail_not_consented":
    "The e-mail is not released to an application registered on the developers' page: the consent its users gave does not include it.",
  "radius.unauthorized": "Only the university's RADIUS server may call this.",
  "wifi.limit_reached":
    "You already have 10 Wi-Fi passwords. Revoke the one of a device you no longer use, then create a new one.",
  "wifi.password_not_found": "There is no such Wi-Fi password: it has already been revoked.",
  "wifi.not_configured": "Wi-Fi through KPI ID is not set up.",
  "institution.not_allowed": "Visitors cannot sign in from this institution here.",
  "institution.answer_refused": "Your institution's answer could not be accepted. Try signing in again.",
  "institution.request_expired": "The sign-in through your institution took too long or was already used. Start again.",
  "institution.identity_reassigned":
    "Your institution now gives your identifier to another person. Ask the KPI ID helpdesk to check your account.",
  "institution.name_missing":
    "Your institution did not release your name, so an account cannot be made. Ask your institution to release it to KPI ID.",
  "institution.already_linked": "This institution account is already linked to a KPI ID account.",
  "ldap.limit_reached":
    "You already have 10 application passwords. Revoke one you no longer use, then create a new one.",
  "ldap.password_not_found": "There is no such application password: it has already been revoked.",
  "ldap.not_configured": "LDAP through KPI ID is not set up.",
  "ldap.client_taken": "An LDAP client with this name is already registered.",
  "ldap.client_not_found": "There is no such LDAP client.",
  "ldap.client_invalid": "The LDAP client's name, subtree, attributes or addresses are not valid.",
  "google.failed": "Signing in with Google failed.",
  "google.not_configured": "Sign-in with Google is not configured.",
  "diia.failed": "Signing in with Diia failed.",
  "diia.request_not_found": "The Diia request was not found or has expired.",
  "diia.not_configured": "Sign-in with Diia is not configured.",
  "diia.unavailable": "Diia is not reachable right now. Please try again a little later.",
  "bankid.failed": "Signing in with BankID NBU failed.",
  "bankid.not_configured": "Sign-in with BankID NBU is not configured.",
  "bankid.unavailable": "BankID NBU or your bank is not reachable right now. Please try again a little later.",
  "admin.forbidden": "You may not do this in the console: it needs the admin or helpdesk role.",
  "admin.person_beyond_reach": "This person also belongs to a unit outside yours: only central IT may do this to them.",
  "admin.unit_not_found": "There is no such unit.",
  "admin.person_outranks_operator": "This person holds a role above yours: only an admin may do this to them.",
  "admin.person_not_found": "There is no such person.",
  "admin.no_verified_address":
    "This person has no confirmed e-mail address: there is nowhere to send a recovery mail. Help them through Diia or in person.",
  "admin.person_disabled": "The account is disabled: enable it first.",
  "admin.person_erased": "This person's data has already been erased.",
  "admin.erase_self": "You cannot erase your own data: ask another admin.",
  "admin.erase_last_admin": "This is the only admin: give the admin role to someone else first.",
  "admin.erase_not_confirmed": "Type this person's username to confirm.",
  "admin.username_taken": "Another person already has this username or tax id.",
  "admin.import_not_csv": "This is not a CSV file: send a text file with a header row and comma-separated values.",
  "admin.import_wrong_encoding": "The file is not UTF-8. Save it as “CSV UTF-8” and upload it again.",
  "admin.import_unknown_columns":
    "The file has unknown columns. Allowed: username, full-name, email, tax-id, student-id, employee-id, password, apps.",
  "admin.import_too_large": "The file is too large for the console's import: split it or use the user import command.",
  "admin.import_job_not_found": "There is no such import. It may have been removed after 30 days; start it again.",
  "app.oidc_needs_redirect_uri": "To turn OpenID Connect on, add at least one redirect URI.",
  "app.invalid_url":
    "The address must be an absolute https URL without a fragment (#); http is allowed on localhost only.",
  "app.callback_required": "At least one ticket callback URL is needed.",
  "app.title_required": "The application's Ukrainian title is required.",
  "app.invalid_name":
    "The name (identifier) may hold only Latin letters, digits, '-' and '_', and starts with a letter or digit.",
  "app.unknown_scope": "Unknown scope. Allowed: openid, profile, email, kpi, offline_access, tax_id.",
  "app.rule_empty": "A rule needs an affiliation, a unit or a status.",
  "app.unknown_unit": "There is no unit with this code.",
  "app.rule_exists": "The application has this rule already.",
  "app.rule_not_found": "The application has no such rule (it may have been removed already).",
  "app.unknown_person": "There is no person with this username.",
  "app.bulk_grant_too_long": "The list is too long: at most 5,000 lines at a time. Split it.",
  "developer.not_allowed": "Students and employees of the university may register applications.",
  "developer.limit_reached":
    "You already have as many applications as one person may. Remove one you no longer need or ask the operators.",
  "developer.application_not_found": "This application is not among yours.",
  "developer.tester_limit": "An application in testing may have at most 25 testers.",
  "developer.invitation_not_found": "No such invitation: it was withdrawn, it expired or it has been answered.",
  "developer.too_many_invitations": "Too many invitations in a row. Wait a little and try again.",
  "guest.not_sponsor": "Only staff of the university may sponsor guests.",
  "guest.end_too_late": "A guest's end may be at most as far away as the operators allow.",
  "guest.end_in_past": "A guest's end must be after today.",
  "guest.sponsor_limit": "You already sponsor as many guests as allowed. End a guest who has left, then invite again.",
  "guest.unit_limit": "This unit already has as many guests as allowed.",
  "guest.too_many_invitations": "Too many guest invitations in an hour. Wait and try again.",
  "guest.unit_not_allowed": "You may name only the units you work in.",
  "guest.application_not_allowed": "You may name only applications you can open yourself.",
  "guest.not_found": "There is no such guest of yours.",
  "guest.ended": "This guest's stay has already ended.",
  "guest.invitation_invalid":
    "This invitation link does not work: it was used, it expired, or it was sent to another address.",
  "developer.last_owner": "An application needs at least one owner.",
  "developer.review_not_possible":
    "The application cannot be sent for review now: it is already in review, already live, or suspended.",
  "developer.invalid_uri":
    "This address is not allowed: give a full https address (plain http only for http://localhost or http://127.0.0.1, your own computer), with no *, no name or password before the host and no # part.",
  "developer.insecure_uri":
    "Only https addresses, or http://localhost and http://127.0.0.1 for development, are allowed. Change this one.",
  "developer.uri_required": "Give at least one ticket callback or OpenID Connect redirect URI.",
  "developer.reserved_name":
    "An official university application has this name (or one that looks the same). Choose another.",
  "developer.invalid_characters":
    "Names and descriptions cannot hold control or invisible characters (line breaks, text direction overrides, zero-width characters).",
  "developer.under_review":
    "The application is under review: change it after the operators decide, so that they approve what they saw.",
  "developer.change_not_pending": "This change no longer waits for a decision: reload the page.",
  "developer.invalid_icon":
    "The icon must be a PNG or a plain SVG file of at most 64 KiB: shapes, gradients and text only, with no scripts, no styles beyond colours and no outside references (export as “plain SVG”).",
  "developer.callbacks_need_secret":
    "Ticket callbacks need a server that keeps the secret: a single-page, mobile or command-line application uses OpenID Connect with PKCE instead.",
  "developer.confirmation_mismatch": "Type the application's name exactly as shown to delete it.",
  "developer.no_secret":
    "A single-page, mobile or command-line application is a public client: it has no secret to replace.",
  "admin.review_outdated": "The request changed while you were reading it: look at it again.",
  "admin.review_not_pending": "This review request has already been decided.",
  "admin.review_awaits_central": "Your unit has approved this request already: it waits for central IT.",
  "admin.application_name_taken": "An application with this name exists already.",
  "service.database_unavailable": "The service is temporarily unavailable. Try again in a minute.",
  "service.internal_error": "An internal error occurred. Try again later.",
} as const satisfies Record<ErrorCode, string>;
