import { parseArgs } from "node:util";
import { z } from "zod";
import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import { isOidcScope, MissingRedirectUriError } from "../../../model/apps/settings.ts";
import type { ApplicationRow } from "../../../platform/db/schema.ts";
import { ApplicationChangeError, updateApplicationSettings } from "../../../protocols/oidc/application-update.ts";
import { applyOidcSettings, type OidcSettings, oidcSettingsSchema } from "../../../protocols/oidc/settings.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

/** The OpenID Connect flags `app create` and `app update` share. */
export const oidcOptionSpec = {
  oidc: { type: "boolean" },
  "redirect-uri": { type: "string", multiple: true },
  "post-logout-redirect-uri": { type: "string", multiple: true },
  scope: { type: "string", multiple: true },
  public: { type: "boolean" },
  confidential: { type: "boolean" },
  "first-party": { type: "boolean" },
  "third-party": { type: "boolean" },
  "backchannel-logout-uri": { type: "string" },
  "device-flow": { type: "boolean" },
  "no-device-flow": { type: "boolean" },
} as const;

type OidcOptionValues = {
  oidc?: boolean;
  "redirect-uri"?: string[];
  "post-logout-redirect-uri"?: string[];
  scope?: string[];
  public?: boolean;
  confidential?: boolean;
  "first-party"?: boolean;
  "third-party"?: boolean;
  "backchannel-logout-uri"?: string;
  "device-flow"?: boolean;
  "no-device-flow"?: boolean;
};

function either(yes: boolean | undefined, no: boolean | undefined, names: string): boolean | undefined {
  if (yes && no) throw new UsageError(`${names}: give one of them`);
  return yes ? true : no ? false : undefined;
}

/** `--scope` may repeat or list several: `--scope profile --scope "email kpi"`. */
function parseScopes(values: string[] | undefined) {
  if (!values) return undefined;
  const scopes = values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  const unknown = scopes.filter((scope) => !isOidcScope(scope));
  if (unknown.length) throw new UsageError(`--scope: unknown scope ${unknown.join(", ")}`);
  return scopes.filter(isOidcScope);
}

export function oidcSettingsFromOptions(values: OidcOptionValues, enabled?: boolean): OidcSettings {
  return {
    enabled,
    redirectUris: values["redirect-uri"],
    postLogoutRedirectUris: values["post-logout-redirect-uri"],
    scopes: parseScopes(values.scope),
    public: either(values.public, values.confidential, "--public/--confidential"),
    firstParty: either(values["first-party"], values["third-party"], "--first-party/--third-party"),
    backchannelLogoutUri:
      values["backchannel-logout-uri"] === undefined ? undefined : values["backchannel-logout-uri"] || null,
    deviceFlow: either(values["device-flow"], values["no-device-flow"], "--device-flow/--no-device-flow"),
  };
}

export function hasOidcOptions(values: OidcOptionValues): boolean {
  return Object.keys(oidcOptionSpec).some((name) => values[name as keyof OidcOptionValues] !== undefined);
}

/** Checks the flags before anything is written, so a bad one leaves no half-made application. */
export function validateOidcSettings(settings: OidcSettings): void {
  const parsed = oidcSettingsSchema.safeParse(settings);
  if (!parsed.success) throw usageErrorOf(parsed.error);
  if (settings.enabled && !settings.redirectUris?.length) {
    throw new UsageError("--oidc needs at least one --redirect-uri");
  }
}

/** `app update`'s flag for each field of the shared edit. */
const flagOfUpdate: Record<string, string> = {
  title: "--title",
  description: "--description",
  titleEn: "--title-en",
  descriptionEn: "--description-en",
  callbackUrls: "--callback-url",
  redirectUris: "--redirect-uri",
  postLogoutRedirectUris: "--post-logout-redirect-uri",
  backchannelLogoutUri: "--backchannel-logout-uri",
  scopes: "--scope",
};

const flagOfField: Record<string, string> = {
  redirectUris: "--redirect-uri",
  postLogoutRedirectUris: "--post-logout-redirect-uri",
  backchannelLogoutUri: "--backchannel-logout-uri",
  scopes: "--scope",
};

function usageErrorOf(error: z.ZodError): UsageError {
  return new UsageError(
    error.issues
      .map((issue) => `${flagOfField[String(issue.path[0])] ?? issue.path.join(".")}: ${issue.message}`)
      .join("; "),
  );
}

/** Applies the flags; a bad URL or scope is a usage error naming the flag. */
export async function applyOidcOptions(db: CliContext["db"], application: ApplicationRow, settings: OidcSettings) {
  try {
    return await applyOidcSettings(db, application, settings);
  } catch (error) {
    if (error instanceof MissingRedirectUriError) throw new UsageError(error.message);
    if (error instanceof z.ZodError) throw usageErrorOf(error);
    throw error;
  }
}

export function describeOidc(application: ApplicationRow, publicUrl: string): string {
  if (!application.oidc_enabled) return "  OpenID Connect: off";
  return [
    "  OpenID Connect: on",
    `  issuer:        ${publicUrl}/oidc`,
    `  client_id:     ${application.id}`,
    `  client auth:   ${application.token_endpoint_auth_method}${application.token_endpoint_auth_method === "none" ? " (public client, PKCE)" : " (the secret above)"}`,
    `  redirect URIs: ${application.redirect_uris.join(" ")}`,
    `  scopes:        ${application.allowed_scopes.join(" ")}`,
    `  consent:       ${application.first_party ? "not asked (first-party)" : "asked"}`,
    `  device flow:   ${application.oidc_device_flow ? "allowed (RFC 8628)" : "not allowed"}`,
  ].join("\n");
}

/** The ticket protocol's settings: where tickets go, and whether they carry the tax id. */
export function describeTickets(application: ApplicationRow): string {
  return [
    `  callbacks:     ${[application.callback_url, ...application.extra_callback_urls].join(" ")}`,
    `  TAX_ID:        ${application.release_tax_id ? "released" : "not released"}`,
  ].join("\n");
}

export function ticketJson(application: ApplicationRow) {
  return {
    callbackUrl: application.callback_url,
    extraCallbackUrls: application.extra_callback_urls,
    releaseTaxId: application.release_tax_id,
  };
}

export function oidcJson(application: ApplicationRow) {
  return {
    oidc: application.oidc_enabled,
    redirectUris: application.redirect_uris,
    postLogoutRedirectUris: application.post_logout_redirect_uris,
    scopes: application.allowed_scopes,
    tokenEndpointAuthMethod: application.token_endpoint_auth_method,
    firstParty: application.first_party,
    backchannelLogoutUri: application.backchannel_logout_uri,
    deviceFlow: application.oidc_device_flow,
  };
}

/**
 * `app update --app ID|NAME [--title T] [--description D] [--title-en T] [--description-en D]
 * [--callback-url URL ...] [--release-tax-id|--withhold-tax-id] [OIDC flags] [--disable-oidc]`
 */
export const updateApplication: CommandHandler = async ({ db, out, config }, args) => {
  let values: ReturnType<typeof parseUpdate>;
  try {
    values = parseUpdate(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!values.app) throw new UsageError("--app is required");
  if (values.oidc && values["disable-oidc"]) throw new UsageError("--oidc/--disable-oidc: give one of them");
  if (values["release-tax-id"] && values["withhold-tax-id"])
    throw new UsageError("--release-tax-id/--withhold-tax-id: give one of them");
  if (values["require-mfa"] && values["no-require-mfa"])
    throw new UsageError("--require-mfa/--no-require-mfa: give one of them");
  let application = await findApplicationByIdOrName(db, values.app);
  if (!application) throw new CommandFailedError(`no application '${values.app}'`);
  const oidc = oidcSettingsFromOptions(values);
  try {
    application = await updateApplicationSettings(db, application, {
      title: values.title,
      description: values.description,
      titleEn: values["title-en"],
      descriptionEn: values["description-en"],
      callbackUrls: values["callback-url"],
      releaseTaxId: values["release-tax-id"] ? true : values["withhold-tax-id"] ? false : undefined,
      requireMfa: values["require-mfa"] ? true : values["no-require-mfa"] ? false : undefined,
      oidcEnabled: values.oidc ? true : values["disable-oidc"] ? false : undefined,
      redirectUris: oidc.redirectUris,
      postLogoutRedirectUris: oidc.postLogoutRedirectUris,
      scopes: oidc.scopes,
      publicClient: oidc.public,
      firstParty: oidc.firstParty,
      backchannelLogoutUri: oidc.backchannelLogoutUri,
      deviceFlow: oidc.deviceFlow,
    });
  } catch (error) {
    if (error instanceof ApplicationChangeError) {
      const field = error.field.split(".")[0] ?? "";
      throw new UsageError(`${flagOfUpdate[field] ?? `--${field}`}: ${error.message}`);
    }
    throw error;
  }
  out.result(
    {
      id: application.id,
      name: application.name,
      title: application.title,
      ...ticketJson(application),
      requireMfa: application.require_mfa,
      ...oidcJson(application),
    },
    `Updated application ${application.name}\n${describeTickets(application)}\n${describeOidc(application, config.publicUrl)}`,
  );
};

function parseUpdate(args: string[]) {
  return parseArgs({
    args,
    options: {
      ...oidcOptionSpec,
      app: { type: "string" },
      title: { type: "string" },
      description: { type: "string" },
      "title-en": { type: "string" },
      "description-en": { type: "string" },
      "callback-url": { type: "string", multiple: true },
      "release-tax-id": { type: "boolean" },
      "withhold-tax-id": { type: "boolean" },
      "disable-oidc": { type: "boolean" },
      "require-mfa": { type: "boolean" },
      "no-require-mfa": { type: "boolean" },
      json: { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  }).values;
}
