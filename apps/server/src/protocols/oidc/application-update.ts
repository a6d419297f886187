import { type ErrorCode, text } from "@kpi-id/contracts";
import { z } from "zod";
import { callbackUrlSchema } from "../../model/apps/service.ts";
import { MissingRedirectUriError, type OidcClientSettings, oidcScopes } from "../../model/apps/settings.ts";
import { changeApplicationSettings } from "../../model/oidc/application-settings.ts";
import type { ApplicationRow, Db } from "../../platform/db/schema.ts";

/**
 * Editing an application: what `app update` and the console's application screen both call. Here the edit's
 * form is checked and refusals get their codes; model/oidc/application-settings.ts writes it, ticket and OpenID
 * Connect sides together in one transaction, so an edit refused half way (say OpenID Connect turned on without a
 * redirect URI) changes nothing.
 */

export const applicationChangesSchema = z.object({
  title: text().trim().min(1).max(200).optional(),
  description: text().max(1000).optional(),
  titleEn: text().max(200).optional(),
  descriptionEn: text().max(1000).optional(),
  callbackUrls: z.array(callbackUrlSchema).min(1).max(11).optional(),
  releaseTaxId: z.boolean().optional(),
  requireMfa: z.boolean().optional(),
  oidcEnabled: z.boolean().optional(),
  redirectUris: z.array(callbackUrlSchema).max(20).optional(),
  postLogoutRedirectUris: z.array(callbackUrlSchema).max(20).optional(),
  scopes: z.array(z.enum(oidcScopes)).max(oidcScopes.length).optional(),
  publicClient: z.boolean().optional(),
  firstParty: z.boolean().optional(),
  backchannelLogoutUri: callbackUrlSchema.nullable().optional(),
  deviceFlow: z.boolean().optional(),
});
/** An edit as callers give it; scopes are checked against the known ones here (400 `app.unknown_scope`). */
export type ApplicationChanges = Omit<z.input<typeof applicationChangesSchema>, "scopes"> & { scopes?: string[] };

/** A refused edit: a stable code (the console's error code and i18n key) and the field it is about. */
export class ApplicationChangeError extends Error {
  override name = "ApplicationChangeError";
  readonly code: ErrorCode;
  readonly field: string;
  constructor(code: ErrorCode, field: string, message: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

const urlFields = new Set(["callbackUrls", "redirectUris", "postLogoutRedirectUris", "backchannelLogoutUri"]);

function codeOf(field: string, issue: z.core.$ZodIssue): ErrorCode {
  if (field === "callbackUrls" && issue.code === "too_small") return "app.callback_required";
  if (urlFields.has(field)) return "app.invalid_url";
  if (field === "scopes") return "app.unknown_scope";
  if (field === "title") return "app.title_required";
  return "request.validation_failed";
}

function changeErrorOf(error: z.ZodError): ApplicationChangeError {
  const issue = error.issues[0] as z.core.$ZodIssue;
  const field = issue.path.map(String).join(".");
  return new ApplicationChangeError(codeOf(String(issue.path[0] ?? ""), issue), field, issue.message);
}

/** The fields an edit changes, audited by name (never their values: a URL may carry a token). */
export function changedFields(changes: ApplicationChanges): string[] {
  return Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);
}

/**
 * Applies `changes` to the application (model/oidc/application-settings.ts: one transaction) and returns the row as
 * it is now.
 * Throws ApplicationChangeError for a refused value (nothing is written then).
 */
export async function updateApplicationSettings(
  db: Db,
  application: ApplicationRow,
  input: ApplicationChanges,
): Promise<ApplicationRow> {
  const parsed = applicationChangesSchema.safeParse(input);
  if (!parsed.success) throw changeErrorOf(parsed.error);
  const changes = parsed.data;
  const oidc: OidcClientSettings = {
    enabled: changes.oidcEnabled,
    // An empty list clears them: OpenID Connect then refuses to stay on without one.
    redirectUris: changes.redirectUris,
    postLogoutRedirectUris: changes.postLogoutRedirectUris,
    scopes: changes.scopes,
    public: changes.publicClient,
    firstParty: changes.firstParty,
    backchannelLogoutUri: changes.backchannelLogoutUri,
    deviceFlow: changes.deviceFlow,
  };
  const touchesOidc = Object.values(oidc).some((value) => value !== undefined);
  const [callbackUrl, ...extraCallbackUrls] = changes.callbackUrls ?? [];
  try {
    return await changeApplicationSettings(db, application, {
      title: changes.title,
      description: changes.description,
      titleEn: changes.titleEn,
      descriptionEn: changes.descriptionEn,
      callbackUrls: callbackUrl === undefined ? undefined : [callbackUrl, ...extraCallbackUrls],
      releaseTaxId: changes.releaseTaxId,
      requireMfa: changes.requireMfa,
      oidc: touchesOidc ? oidc : undefined,
    });
  } catch (error) {
    if (error instanceof MissingRedirectUriError) {
      throw new ApplicationChangeError("app.oidc_needs_redirect_uri", "redirectUris", error.message);
    }
    throw error;
  }
}
