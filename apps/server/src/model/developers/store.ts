import { randomBytes } from "node:crypto";
import {
  type DeveloperApplicationInput,
  type DeveloperApplicationUpdate,
  type DeveloperClientType,
  developerApplicationInputSchema,
  developerApplicationUpdateSchema,
} from "@kpi-id/contracts";
import { sql, type Updateable } from "kysely";
import type { Config } from "../../platform/config/index.ts";
import { hashTokenHex, newToken } from "../../platform/crypto/tokens.ts";
import type { ApplicationRow, ApplicationsTable, Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { applicationsIn } from "../apps/for-developers.ts";
import { insertApplication, updateApplicationIf } from "../apps/queries.ts";
import { endOidcGrants } from "../oidc/grants.ts";
import { holdsAffiliation } from "../people/profile.ts";
import { lockPerson } from "../users/queries.ts";
import { checkStoredIcon } from "./icons.ts";
import { checkNotReserved } from "./reserved-names.ts";
import { checkDeveloperUris } from "./uris.ts";

/** The application, when this person is one of its owners; otherwise the same 404 as for one that does not exist. */
export async function ownedApplication(db: Db, userId: string, id: string): Promise<ApplicationRow> {
  const [row] = await applicationsIn(
    db,
    db
      .selectFrom("application_owners")
      .select("application_id")
      .where("application_id", "=", id)
      .where("user_id", "=", userId),
  );
  if (!row) throw new AppError("developer.application_not_found");
  return row;
}

/** The applications this person owns, newest first. */
export function applicationsOwnedBy(db: Db, userId: string): Promise<ApplicationRow[]> {
  return applicationsIn(db, db.selectFrom("application_owners").select("application_id").where("user_id", "=", userId));
}

/** Whether one of the person's current records has an affiliation the operator lets register applications. */
export async function mayRegister(db: Db, userId: string, affiliations: Config["developers"]["affiliations"]) {
  return holdsAffiliation(db, userId, affiliations);
}

type UriFields = Pick<DeveloperApplicationInput, "iconUrl" | "homePageUrl" | "privacyPolicyUrl">;

function pageUris(fields: UriFields): string[] {
  return [fields.iconUrl, fields.homePageUrl, fields.privacyPolicyUrl].filter((value): value is string => !!value);
}

/**
 * Registers a new application in testing with this person as its owner and returns it with its secret
 * (shown once). The person's row is locked for the count, so two requests at once cannot pass the limit.
 */
export async function createDeveloperApplication(
  db: Db,
  userId: string,
  input: DeveloperApplicationInput,
  limit: number,
): Promise<{ application: ApplicationRow; secret: string }> {
  const fields = developerApplicationInputSchema.parse(input);
  checkDeveloperUris({
    callbackUrls: fields.callbackUrls,
    redirectUris: fields.redirectUris,
    pages: pageUris({ ...fields, iconUrl: undefined }),
  });
  checkAddressesForType(fields.clientType, fields.callbackUrls, fields.redirectUris);
  const device = fields.clientType === "device";
  await checkNotReserved(db, { title: fields.title, titleEn: fields.titleEn });
  if (fields.iconUrl) await checkStoredIcon(db, fields.iconUrl);
  const secret = newToken();
  const isPublic = fields.clientType !== "web";
  const application = await db.transaction().execute(async (tx) => {
    await lockPerson(tx, userId);
    const owned = await tx
      .selectFrom("application_owners")
      .select(sql<string>`count(*)`.as("owned"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(owned.owned) >= limit) throw new AppError("developer.limit_reached");
    const [callbackUrl = "", ...extraCallbackUrls] = [...new Set(fields.callbackUrls)];
    const row = await insertApplication(tx, {
      // The operators' handle for it (`kpi-id app show dev-…`); people see the titles.
      name: `dev-${randomBytes(6).toString("hex")}`,
      title: fields.title,
      title_en: fields.titleEn,
      description: fields.description,
      description_en: fields.descriptionEn,
      icon_url: fields.iconUrl,
      home_page_url: fields.homePageUrl,
      privacy_policy_url: fields.privacyPolicyUrl,
      callback_url: callbackUrl,
      extra_callback_urls: extraCallbackUrls,
      release_tax_id: false,
      // A public client's secret is never shown: nobody holds it, so no ticket exchange or secret ever works.
      secret_hash: hashTokenHex(secret),
      client_type: fields.clientType,
      token_endpoint_auth_method: isPublic ? "none" : "client_secret_basic",
      oidc_device_flow: device,
      oidc_enabled: fields.redirectUris.length > 0 || device,
      redirect_uris: [...new Set(fields.redirectUris)],
      allowed_scopes: [...new Set(["openid", ...fields.scopes])],
      lifecycle: "testing",
      // Registered here, so never first-party: every protocol asks the person first (issue 56).
      community: true,
    });
    await tx.insertInto("application_owners").values({ application_id: row.id, user_id: userId }).execute();
    return row;
  });
  return { application, secret: isPublic ? "" : secret };
}

/**
 * What each kind of application needs (issue 60): ticket callbacks only where a server keeps the secret, a redirect
 * URI for a web or public client that signs in in a browser, nothing for a device or command-line tool.
 */
function checkAddressesForType(type: DeveloperClientType, callbackUrls: string[], redirectUris: string[]) {
  if (type !== "web" && callbackUrls.filter(Boolean).length > 0) throw new AppError("developer.callbacks_need_secret");
  if (type !== "device" && callbackUrls.filter(Boolean).length === 0 && redirectUris.length === 0)
    throw new AppError("developer.uri_required");
}

/**
 * Whether an owner's edit may stand: https or development addresses, what its kind needs (issue 60), no reserved or look-alike title, an icon KPI ID stores.
 * Checked when the edit is asked for and, for a live application's pending change, again at approval.
 */
export async function checkEdit(db: Db, application: ApplicationRow, input: DeveloperApplicationUpdate) {
  const fields = developerApplicationUpdateSchema.parse(input);
  const callbackUrls = fields.callbackUrls ?? [application.callback_url, ...application.extra_callback_urls];
  const redirectUris = fields.redirectUris ?? application.redirect_uris;
  // An icon address stored before icons were uploaded (issue 56) may be sent back unchanged; a new one may not.
  const iconUrl = fields.iconUrl === application.icon_url ? undefined : fields.iconUrl;
  checkDeveloperUris({
    callbackUrls: fields.callbackUrls ?? [],
    redirectUris: fields.redirectUris ?? [],
    pages: pageUris({ ...fields, iconUrl: undefined }),
  });
  checkAddressesForType(application.client_type, callbackUrls, redirectUris);
  await checkNotReserved(db, { title: fields.title, titleEn: fields.titleEn });
  if (iconUrl) await checkStoredIcon(db, iconUrl);
}

/** Writes an owner's edit (checked by checkEdit) to the application: at once while testing, at approval when live. */
export async function applyEdit(
  db: Db,
  application: ApplicationRow,
  input: DeveloperApplicationUpdate,
): Promise<ApplicationRow> {
  const fields = developerApplicationUpdateSchema.parse(input);
  const changes: Updateable<ApplicationsTable> = { updated_at: new Date() };
  if (fields.title !== undefined) changes.title = fields.title;
  if (fields.titleEn !== undefined) changes.title_en = fields.titleEn;
  if (fields.description !== undefined) changes.description = fields.description;
  if (fields.descriptionEn !== undefined) changes.description_en = fields.descriptionEn;
  if (fields.iconUrl !== undefined) changes.icon_url = fields.iconUrl;
  if (fields.homePageUrl !== undefined) changes.home_page_url = fields.homePageUrl;
  if (fields.privacyPolicyUrl !== undefined) changes.privacy_policy_url = fields.privacyPolicyUrl;
  if (fields.callbackUrls !== undefined) {
    const [first = "", ...rest] = [...new Set(fields.callbackUrls)];
    changes.callback_url = first;
    changes.extra_callback_urls = rest;
  }
  if (fields.redirectUris !== undefined) {
    changes.redirect_uris = [...new Set(fields.redirectUris)];
    changes.oidc_enabled = fields.redirectUris.length > 0 || application.oidc_device_flow;
  }
  if (fields.scopes !== undefined) changes.allowed_scopes = [...new Set(["openid", ...fields.scopes])];
  const write = async (tx: Db) => {
    // No redirect URI left: it is no OpenID Connect client any more, and its tokens end with that.
    if (changes.oidc_enabled === false) await endOidcGrants(tx, { applicationId: application.id });
    // Only in the state the edit was checked for: a review requested meanwhile freezes what the operator reads.
    const updated = await updateApplicationIf(tx, application.id, changes, [application.lifecycle]);
    if (!updated) throw new AppError("developer.under_review");
    return updated;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
