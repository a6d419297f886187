import { sql } from "kysely";
import type { Db } from "../../platform/db/schema.ts";
import { type IdentityProviderInput, replaceIdentityProvidersOf } from "./identity-providers.ts";
import { type ParsedServiceProvider, upsertServiceProvider } from "./service-providers.ts";

/** A federation's aggregate as the operator registered it. */
export interface FederationInput {
  name: string;
  /** A file path or an http(s) address of the signed aggregate. */
  source: string;
  /** The federation's signing certificate (base64 DER). */
  certificate: string;
  /** Only SPs tagged with one of these entity categories are taken; none: every SP. */
  entityCategories: string[];
}

/** The `source` of the SPs a federation brought (an SP registered by hand has another). */
export const federationSource = (name: string) => `federation:${name}`;

export function saveFederation(db: Db, federation: FederationInput) {
  const { name, source, certificate, entityCategories } = federation;
  return db
    .insertInto("saml_federations")
    .values({ name, source, certificate, entity_categories: entityCategories })
    .onConflict((conflict) =>
      conflict.column("name").doUpdateSet({ source, certificate, entity_categories: entityCategories }),
    )
    .execute();
}

export const listFederations = (db: Db) => db.selectFrom("saml_federations").selectAll().orderBy("name").execute();

export const findFederation = (db: Db, name: string) =>
  db.selectFrom("saml_federations").selectAll().where("name", "=", name).executeTakeFirst();

/** Forgets a federation and every SP that came from it. */
export async function removeFederation(db: Db, name: string) {
  await db.deleteFrom("saml_service_providers").where("source", "=", federationSource(name)).execute();
  await db.deleteFrom("saml_identity_providers").where("source", "=", federationSource(name)).execute();
  const result = await db.deleteFrom("saml_federations").where("name", "=", name).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The SPs that did not come from this source (registered by hand, or by another federation). */
async function entityIdsNotFrom(db: Db, source: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom("saml_service_providers")
    .select("entity_id")
    .where("source", "!=", source)
    .execute();
  return new Set(rows.map((row) => row.entity_id));
}

/** Drops the SPs of this source that are not among the kept entity ids. */
async function dropProvidersOfSourceExcept(db: Db, source: string, keptEntityIds: string[]) {
  let gone = db.deleteFrom("saml_service_providers").where("source", "=", source);
  if (keptEntityIds.length > 0) gone = gone.where("entity_id", "not in", keptEntityIds);
  await gone.execute();
}

async function markFederationRefreshed(db: Db, name: string, validUntil: Date, now: Date) {
  await db
    .updateTable("saml_federations")
    .set({ valid_until: validUntil, refreshed_at: now, last_error: null })
    .where("name", "=", name)
    .execute();
}

export async function markFederationFailed(db: Db, name: string, message: string) {
  await db.updateTable("saml_federations").set({ last_error: message }).where("name", "=", name).execute();
}

// "KPIF": the federation refresh's advisory lock (clean-up takes "KPID", migrations their own).
const federationLockKey = 0x4b504946;

/** Takes the federation refresh's lock for this transaction; false when another instance holds it. */
async function tryFederationLock(tx: Db): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(${federationLockKey}) as locked`.execute(tx);
  return Boolean(rows[0]?.locked);
}

const inTransaction = <T>(db: Db, work: (tx: Db) => Promise<T>) =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * Applies a verified aggregate's service providers (each with the aggregate's validUntil) in one transaction (or
 * the caller's): they are registered or refreshed, keeping each one's release policy; an SP registered by hand
 * stays the operator's; those of this federation the aggregate no longer lists go.
 */
export async function applyFederationAggregate(
  db: Db,
  name: string,
  serviceProviders: readonly (ParsedServiceProvider & { validUntil: Date | null })[],
  validUntil: Date,
  now: Date,
  /** The identity providers it lists: home institutions of visitors (issue 78). */
  identityProviders: IdentityProviderInput[] = [],
): Promise<void> {
  const source = federationSource(name);
  await inTransaction(db, async (tx) => {
    const manual = await entityIdsNotFrom(tx, source);
    const kept = serviceProviders.filter((sp) => !manual.has(sp.entityId));
    for (const sp of kept) await upsertServiceProvider(tx, sp, source, {}, now, sp.validUntil);
    await dropProvidersOfSourceExcept(
      tx,
      source,
      kept.map((sp) => sp.entityId),
    );
    await replaceIdentityProvidersOf(tx, source, identityProviders, now);
    await markFederationRefreshed(tx, name, validUntil, now);
  });
}

/**
 * Runs `work` holding the federation refresh's lock, one instance at a time: another instance answers undefined
 * rather than fetch and verify the same aggregates again. The lock is tied to the transaction `work` runs in, so
 * an instance that dies mid-way never blocks the others.
 */
export function withFederationLock<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T | undefined> {
  return db.transaction().execute(async (tx) => ((await tryFederationLock(tx)) ? work(tx) : undefined));
}
