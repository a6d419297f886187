import { sql } from "kysely";
import { upsertServiceProvider } from "../../model/saml/service-providers.ts";
import type { Db } from "../../platform/db/schema.ts";
import { fetchXml } from "./fetch-xml.ts";

export interface FederationInput {
  name: string;
  /** A file path or an http(s) address of the signed aggregate. */
  source: string;
  /** The federation's signing certificate (base64 DER). */
  certificate: string;
  /** Only SPs tagged with one of these entity categories are taken; none: every SP. */
  entityCategories: string[];
}

export interface RefreshOptions {
  now: Date;
  readFile: (path: string) => Promise<string>;
  maxBytes?: number;
  /** Outside production an SP on loopback may use http (the operator's own tests). */
  allowLoopbackHttp?: boolean;
}

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

/** Forgets a federation and every SP that came from it. */
export async function removeFederation(db: Db, name: string) {
  await db.deleteFrom("saml_service_providers").where("source", "=", federationSource(name)).execute();
  const result = await db.deleteFrom("saml_federations").where("name", "=", name).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Reads, verifies and applies one federation's aggregate: its SPs (filtered by entity
 * category) are registered or refreshed with the aggregate's validUntil, keeping each
 * one's release policy; SPs it no longer lists go. A refused aggregate changes no SP
 * (those from the last good one lapse at its validUntil) and is recorded as last_error.
 */
export async function refreshFederation(db: Db, name: string, options: RefreshOptions) {
  const federation = await db.selectFrom("saml_federations").selectAll().where("name", "=", name).executeTakeFirst();
  if (!federation) throw new Error(`no federation ${name}`);
  try {
    // aggregate.ts verifies with xml-crypto: loaded when there is an aggregate to read (issue 41).
    const { maxAggregateBytes, verifyAggregate } = await import("./aggregate.ts");
    const xml = await fetchXml(federation.source, options.maxBytes ?? maxAggregateBytes, options.readFile);
    const aggregate = await verifyAggregate(xml, {
      certificate: federation.certificate,
      now: options.now,
      maxBytes: options.maxBytes,
      endpoints: { allowLoopbackHttp: options.allowLoopbackHttp ?? false },
    });
    const wanted = federation.entity_categories;
    const taken = aggregate.serviceProviders.filter(
      (sp) => wanted.length === 0 || sp.entityCategories.some((category) => wanted.includes(category)),
    );
    const source = federationSource(name);
    await inTransaction(db, async (tx) => {
      // An SP registered by hand stays the operator's: the aggregate does not take it over.
      const manual = new Set(
        (await tx.selectFrom("saml_service_providers").select("entity_id").where("source", "!=", source).execute()).map(
          (row) => row.entity_id,
        ),
      );
      const kept = taken.filter((sp) => !manual.has(sp.entityId));
      for (const sp of kept) await upsertServiceProvider(tx, sp, source, {}, options.now, sp.validUntil);
      let gone = tx.deleteFrom("saml_service_providers").where("source", "=", source);
      if (kept.length > 0)
        gone = gone.where(
          "entity_id",
          "not in",
          kept.map((sp) => sp.entityId),
        );
      await gone.execute();
      await tx
        .updateTable("saml_federations")
        .set({ valid_until: aggregate.validUntil, refreshed_at: options.now, last_error: null })
        .where("name", "=", name)
        .execute();
    });
    return { serviceProviders: taken.length, validUntil: aggregate.validUntil, refused: aggregate.refused };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.updateTable("saml_federations").set({ last_error: message }).where("name", "=", name).execute();
    throw error;
  }
}

const inTransaction = <T>(db: Db, work: (tx: Db) => Promise<T>) =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

// "KPIF": the federation refresh's advisory lock (clean-up takes "KPID", migrations their own).
const federationLockKey = 0x4b504946;

/**
 * Refreshes every federation, one instance at a time: the others skip the round (answer
 * undefined) rather than fetch and verify the same aggregates again. The lock is tied to
 * the transaction, so an instance that dies mid-way never blocks the others.
 * One federation failing does not stop the others; answers the failures.
 */
export async function refreshFederations(db: Db, options: RefreshOptions) {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${federationLockKey}) as locked`.execute(tx);
    if (!rows[0]?.locked) return undefined;
    const failures: { name: string; error: unknown }[] = [];
    for (const { name } of await listFederations(tx)) {
      try {
        await refreshFederation(tx, name, options);
      } catch (error) {
        failures.push({ name, error });
      }
    }
    return failures;
  });
}
