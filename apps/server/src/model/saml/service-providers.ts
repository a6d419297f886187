import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";

export interface SpPolicy {
  releasedAttributes?: string[];
  applicationId?: string | null;
  firstParty?: boolean;
  encryptAssertions?: boolean;
  /** Sign the whole Response as well as the assertion (pysaml2 and SATOSA want both). */
  signResponse?: boolean;
}

/** Adds or replaces an SP (registration from metadata keeps the operator's release policy on re-import). */
export async function upsertServiceProvider(
  db: Db,
  sp: ParsedServiceProvider,
  source: string,
  policy: SpPolicy,
  now: Date,
  validUntil: Date | null = null,
) {
  const policyColumns = {
    ...(policy.releasedAttributes && { released_attributes: policy.releasedAttributes }),
    ...(policy.applicationId !== undefined && { application_id: policy.applicationId }),
    ...(policy.firstParty !== undefined && { first_party: policy.firstParty }),
    ...(policy.encryptAssertions !== undefined && { encrypt_assertions: policy.encryptAssertions }),
    ...(policy.signResponse !== undefined && { sign_response: policy.signResponse }),
  };
  const metadataColumns = {
    metadata_xml: sp.metadataXml,
    display_name: sp.displayName,
    entity_categories: sp.entityCategories,
    source,
    valid_until: validUntil,
    updated_at: now,
  };
  return db
    .insertInto("saml_service_providers")
    .values({ entity_id: sp.entityId, ...metadataColumns, ...policyColumns, created_at: now })
    .onConflict((conflict) => conflict.column("entity_id").doUpdateSet({ ...metadataColumns, ...policyColumns }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An SP the IdP answers: registered, and, when it came from an aggregate, still within its validUntil. */
export async function findServiceProvider(db: Db, entityId: string, now: Date) {
  const row = await db
    .selectFrom("saml_service_providers")
    .selectAll()
    .where("entity_id", "=", entityId)
    .executeTakeFirst();
  if (!row || (row.valid_until && row.valid_until.getTime() <= now.getTime())) return undefined;
  return row;
}

export type ServiceProviderRow = NonNullable<Awaited<ReturnType<typeof findServiceProvider>>>;

export function removeServiceProvider(db: Db, entityId: string) {
  return db.deleteFrom("saml_service_providers").where("entity_id", "=", entityId).executeTakeFirst();
}

/** The entity ids of the SPs linked to the application, as an SQL subquery (the consents given to it over SAML). */
export function serviceProvidersLinkedTo(applicationId: string): RawBuilder<string> {
  return sql<string>`(select linked.entity_id from saml_service_providers linked where linked.application_id = ${applicationId})`;
}

export function listServiceProviders(db: Db) {
  return db.selectFrom("saml_service_providers").selectAll().orderBy("entity_id").execute();
}

/** A service provider's metadata as sp-metadata.ts parsed it. */
export interface ParsedServiceProvider {
  entityId: string;
  displayName: string;
  entityCategories: string[];
  /** The `<md:EntityDescriptor>` alone, as samlify reads it. */
  metadataXml: string;
}
