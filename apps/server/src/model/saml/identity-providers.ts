import { type Selectable, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import type { SamlIdentityProvidersTable } from "../../platform/db/schema-saml.ts";

export type IdentityProviderRow = Selectable<SamlIdentityProvidersTable>;

export interface IdentityProviderInput {
  entityId: string;
  displayName: { en: string; uk: string };
  scopes: string[];
  metadataXml: string;
  validUntil: Date;
}

/** The identity providers a federation's latest good aggregate lists; the ones it no longer lists go. */
export async function replaceIdentityProvidersOf(
  db: Db,
  source: string,
  providers: IdentityProviderInput[],
  now: Date,
) {
  for (const provider of providers) {
    const values = {
      source,
      display_name_en: provider.displayName.en,
      display_name_uk: provider.displayName.uk,
      scopes: provider.scopes,
      metadata_xml: provider.metadataXml,
      valid_until: provider.validUntil,
      updated_at: now,
    };
    await db
      .insertInto("saml_identity_providers")
      .values({ entity_id: provider.entityId, ...values })
      .onConflict((conflict) => conflict.column("entity_id").doUpdateSet(values))
      .execute();
  }
  let gone = db.deleteFrom("saml_identity_providers").where("source", "=", source);
  const kept = providers.map((provider) => provider.entityId);
  if (kept.length > 0) gone = gone.where("entity_id", "not in", kept);
  await gone.execute();
}

/** Which institutions visitors may come from: the federations operators chose, and within them a list or all. */
export interface InstitutionPolicy {
  sources: readonly string[];
  /** Entity IDs; empty: every identity provider of those federations. */
  allowed: readonly string[];
}

function allowedProviders(db: Db, policy: InstitutionPolicy, now: Date) {
  let query = db
    .selectFrom("saml_identity_providers")
    .where("source", "in", policy.sources.length > 0 ? [...policy.sources] : [""])
    .where((where) => where.or([where("valid_until", "is", null), where("valid_until", ">", now)]));
  if (policy.allowed.length > 0) query = query.where("entity_id", "in", [...policy.allowed]);
  return query;
}

/** The institutions whose name (either language) or scope contains the words, first by name; at most `limit`. */
export async function searchInstitutions(
  db: Db,
  policy: InstitutionPolicy,
  search: { words: string; limit: number; now: Date },
) {
  const pattern = `%${search.words.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  let query = allowedProviders(db, policy, search.now).select([
    "entity_id",
    "display_name_en",
    "display_name_uk",
    "scopes",
  ]);
  if (search.words !== "")
    query = query.where((where) =>
      where.or([
        where("display_name_en", "ilike", pattern),
        where("display_name_uk", "ilike", pattern),
        where("entity_id", "ilike", pattern),
        where(sql<string>`array_to_string(scopes, ' ')`, "ilike", pattern),
      ]),
    );
  return query.orderBy("display_name_en").limit(search.limit).execute();
}

/** The institution when visitors may come from it now; undefined otherwise (unknown, lapsed or not allowed). */
export const findAllowedInstitution = (db: Db, policy: InstitutionPolicy, entityId: string, now: Date) =>
  allowedProviders(db, policy, now).selectAll().where("entity_id", "=", entityId).executeTakeFirst();

/** The institution whatever the policy says, to name it in a refusal. */
export const findInstitution = (db: Db, entityId: string) =>
  db.selectFrom("saml_identity_providers").selectAll().where("entity_id", "=", entityId).executeTakeFirst();
