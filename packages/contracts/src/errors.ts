/**
 * Every error the service answers with. The code is a stable string that
 * integrators may match on, and it is also the i18n key of its message.
 * HTTP status lives here too, in one place, so server and web agree.
 */
export const errorStatus = {
  "request.invalid_json": 400,
  "request.validation_failed": 400,
  "request.unstorable_text": 400,
  "request.payload_too_large": 413,
  "request.unsupported_media_type": 415,
  "request.csrf_rejected": 403,
  "request.not_found": 404,
  "request.rate_limited": 429,
  "scim.unauthorized": 401,
  "scim.invalid_request": 400,
  "scim.forbidden": 403,
  "scim.conflict": 409,
  "scim.version_mismatch": 412,
  "auth.invalid_credentials": 401,
  "auth.too_many_attempts": 429,
  "auth.grant_invalid": 401,
  "auth.not_authenticated": 401,
  "auth.reauth_required": 403,
  "auth.step_up_required": 403,
  "auth.code_invalid": 401,
  "mfa.already_set_up": 409,
  "mfa.not_set_up": 404,
  "passkey.failed": 401,
  "passkey.challenge_invalid": 401,
  "passkey.counter_regressed": 401,
  "passkey.already_registered": 409,
  "passkey.not_found": 404,
  "account.session_not_found": 404,
  "account.application_not_found": 404,
  "account.last_sign_in_method": 409,
  "password.too_short": 400,
  "password.too_long": 400,
  "password.blocklisted": 400,
  "password.current_wrong": 400,
  "recovery.link_invalid": 400,
  "recovery.not_available": 404,
  "app.not_found": 404,
  "app.access_denied": 403,
  "oidc.interaction_not_found": 404,
  "saml.request_refused": 400,
  "saml.request_not_found": 404,
  "ticket.invalid": 401,
  "google.failed": 401,
  "google.not_configured": 503,
  "diia.failed": 400,
  "diia.request_not_found": 404,
  "diia.not_configured": 503,
  "diia.unavailable": 502,
  "admin.forbidden": 403,
  "admin.person_not_found": 404,
  "admin.no_verified_address": 409,
  "admin.person_disabled": 409,
  "admin.username_taken": 409,
  "admin.import_not_csv": 400,
  "admin.import_wrong_encoding": 400,
  "admin.import_unknown_columns": 400,
  "admin.import_too_large": 413,
  "admin.application_name_taken": 409,
  "service.database_unavailable": 503,
  "service.internal_error": 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorStatus, value);
}
