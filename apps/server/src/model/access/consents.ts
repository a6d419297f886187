import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { applicationTitleOf } from "../apps/listed.ts";

/**
 * One consent model for every protocol that hands a person's data to an application (issue 74, point 5): what the
 * person allowed, asked, recorded, listed and forgotten through these functions alone. The answers stay in the
 * three tables they were always in, because each protocol allows something of its own kind: the ticket path and CAS
 * the data kinds the consent screen names (ticket_consents), OpenID Connect scopes until the grant lifetime
 * (oidc_consents), SAML the attributes an SP receives (saml_consents, by SP: an SP needs no application).
 */
export type ConsentProtocol = "ticket" | "oidc" | "saml";
export const consentProtocols: readonly ConsentProtocol[] = ["ticket", "oidc", "saml"];

/** Whom the consent was given to: an application (tickets, CAS, OpenID Connect) or a SAML SP. */
export type ConsentTo =
  | { protocol: "ticket" | "oidc"; applicationId: string }
  | { protocol: "saml"; spEntityId: string };

/** What the person allowed (data kinds, scopes or attributes), while the consent lasts; undefined when none. */
export async function consentOf(
  db: Db,
  userId: string,
  to: ConsentTo,
  now: Date,
): Promise<readonly string[] | undefined> {
  switch (to.protocol) {
    case "ticket": {
      const row = await db
        .selectFrom("ticket_consents")
        .select("data")
        .where("user_id", "=", userId)
        .where("application_id", "=", to.applicationId)
        .executeTakeFirst();
      return row?.data;
    }
    case "oidc": {
      const row = await db
        .selectFrom("oidc_consents")
        .select("scopes")
        .where("user_id", "=", userId)
        .where("application_id", "=", to.applicationId)
        .where("expires_at", ">", now)
        .executeTakeFirst();
      return row?.scopes;
    }
    case "saml": {
      const row = await db
        .selectFrom("saml_consents")
        .select("attributes")
        .where("user_id", "=", userId)
        .where("sp_entity_id", "=", to.spEntityId)
        .executeTakeFirst();
      return row?.attributes;
    }
  }
}

/** Whether the person's consent covers everything the application would receive now (else they are asked again). */
export async function hasConsent(
  db: Db,
  userId: string,
  to: ConsentTo,
  needs: readonly string[],
  now: Date,
): Promise<boolean> {
  const allowed = await consentOf(db, userId, to, now);
  if (allowed === undefined) return false;
  const given = new Set(allowed);
  return needs.every((item) => given.has(item));
}

/**
 * Records the person's "allow". Tickets and SAML replace an earlier answer with what is received now; OpenID Connect
 * adds the scopes to those allowed before and keeps them `until` the grant lifetime.
 */
export async function recordConsent(
  db: Db,
  userId: string,
  to: ConsentTo,
  allowed: readonly string[],
  when: { now: Date; until?: Date },
): Promise<void> {
  const items = [...allowed];
  const { now } = when;
  switch (to.protocol) {
    case "ticket":
      await db
        .insertInto("ticket_consents")
        .values({ user_id: userId, application_id: to.applicationId, data: items, consented_at: now })
        .onConflict((conflict) =>
          conflict.columns(["user_id", "application_id"]).doUpdateSet({ data: items, consented_at: now }),
        )
        .execute();
      return;
    case "oidc": {
      const expiresAt = when.until ?? now;
      await db
        .insertInto("oidc_consents")
        .values({ user_id: userId, application_id: to.applicationId, scopes: items, expires_at: expiresAt })
        .onConflict((conflict) =>
          conflict.columns(["user_id", "application_id"]).doUpdateSet({
            scopes: sql<
              string[]
            >`array(select distinct s from unnest(oidc_consents.scopes || excluded.scopes) as s order by s)`,
            expires_at: expiresAt,
          }),
        )
        .execute();
      return;
    }
    case "saml":
      await db
        .insertInto("saml_consents")
        .values({ user_id: userId, sp_entity_id: to.spEntityId, attributes: items, created_at: now })
        .onConflict((conflict) =>
          conflict.columns(["user_id", "sp_entity_id"]).doUpdateSet({ attributes: items, created_at: now }),
        )
        .execute();
      return;
  }
}

/**
 * Whose consents to forget: a person's, an application's, or one person's to one application. An application's SAML
 * consents are those of the SPs linked to it, which model/saml names (`linkedServiceProviders`, a subquery of entity
 * ids: model/admission's forgetConsentsToApplication lends it).
 */
export interface ConsentsOf {
  userId?: string;
  applicationId?: string;
  linkedServiceProviders?: RawBuilder<string>;
}

/**
 * Forgets what the person allowed (every application's when they are disabled or erased, one application's when they
 * revoke it or lose access to it), or what everyone allowed one application (it left OpenID Connect, or was removed):
 * each is asked again. Answers how many went.
 */
export async function forgetConsents(
  db: Db,
  of: ConsentsOf,
  protocols: readonly ConsentProtocol[] = consentProtocols,
): Promise<number> {
  const { userId, applicationId, linkedServiceProviders } = of;
  if (!userId && !applicationId) throw new Error("forgetConsents needs a person or an application");
  // Without the SPs, an application's SAML consents cannot be told from the person's others: refuse, not forget all.
  if (applicationId && protocols.includes("saml") && !linkedServiceProviders)
    throw new Error("forgetConsents needs the SPs linked to the application to forget its SAML consents");
  let forgotten = 0;
  const count = (result: { numDeletedRows: bigint }) => {
    forgotten += Number(result.numDeletedRows);
  };
  if (protocols.includes("ticket")) {
    let rows = db.deleteFrom("ticket_consents");
    if (userId) rows = rows.where("user_id", "=", userId);
    if (applicationId) rows = rows.where("application_id", "=", applicationId);
    count(await rows.executeTakeFirst());
  }
  if (protocols.includes("oidc")) {
    let rows = db.deleteFrom("oidc_consents");
    if (userId) rows = rows.where("user_id", "=", userId);
    if (applicationId) rows = rows.where("application_id", "=", applicationId);
    count(await rows.executeTakeFirst());
  }
  if (protocols.includes("saml")) {
    let rows = db.deleteFrom("saml_consents");
    if (userId) rows = rows.where("user_id", "=", userId);
    if (applicationId && linkedServiceProviders) rows = rows.where("sp_entity_id", "in", linkedServiceProviders);
    count(await rows.executeTakeFirst());
  }
  return forgotten;
}

/** One consent the person gave, as the account page and the data download list them. */
export type GivenConsent =
  | { protocol: "ticket"; applicationId: string; allowed: string[]; givenAt: Date }
  | { protocol: "oidc"; applicationId: string; applicationTitle: string; allowed: string[]; until: Date }
  | { protocol: "saml"; spEntityId: string; allowed: string[]; givenAt: Date };

/** Every consent the person gave, on every protocol (expired OpenID Connect ones included: the download shows them). */
export async function consentsGivenBy(db: Db, userId: string): Promise<GivenConsent[]> {
  const tickets = await db
    .selectFrom("ticket_consents")
    .select(["application_id", "data", "consented_at"])
    .where("user_id", "=", userId)
    .execute();
  // The title from model/apps in the same statement (a consent goes with its application: the foreign key cascades).
  const oidc = await db
    .selectFrom("oidc_consents")
    .select(["application_id", "scopes", "expires_at"])
    .select(applicationTitleOf(sql.ref("oidc_consents.application_id")).as("title"))
    .where("user_id", "=", userId)
    .execute();
  const saml = await db
    .selectFrom("saml_consents")
    .select(["sp_entity_id", "attributes", "created_at"])
    .where("user_id", "=", userId)
    .execute();
  return [
    ...tickets.map((row) => ({
      protocol: "ticket" as const,
      applicationId: row.application_id,
      allowed: row.data,
      givenAt: row.consented_at,
    })),
    ...oidc.map((row) => ({
      protocol: "oidc" as const,
      applicationId: row.application_id,
      applicationTitle: row.title,
      allowed: row.scopes,
      until: row.expires_at,
    })),
    ...saml.map((row) => ({
      protocol: "saml" as const,
      spEntityId: row.sp_entity_id,
      allowed: row.attributes,
      givenAt: row.created_at,
    })),
  ];
}
