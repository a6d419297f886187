import {
  applyFederationAggregate,
  type FederationInput,
  federationSource,
  findFederation,
  listFederations,
  markFederationFailed,
  removeFederation,
  saveFederation,
  withFederationLock,
} from "../../model/saml/federations.ts";
import type { Db } from "../../platform/db/schema.ts";
import { fetchXml } from "./fetch-xml.ts";

export interface RefreshOptions {
  now: Date;
  readFile: (path: string) => Promise<string>;
  maxBytes?: number;
  /** Outside production an SP on loopback may use http (the operator's own tests). */
  allowLoopbackHttp?: boolean;
}

export { type FederationInput, federationSource, listFederations, removeFederation, saveFederation };

/**
 * Reads, verifies and applies one federation's aggregate: its SPs (filtered by entity
 * category) are registered or refreshed with the aggregate's validUntil, keeping each
 * one's release policy; SPs it no longer lists go. A refused aggregate changes no SP
 * (those from the last good one lapse at its validUntil) and is recorded as last_error.
 */
export async function refreshFederation(db: Db, name: string, options: RefreshOptions) {
  const federation = await findFederation(db, name);
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
    await applyFederationAggregate(db, name, taken, aggregate.validUntil, options.now, aggregate.identityProviders);
    return {
      serviceProviders: taken.length,
      identityProviders: aggregate.identityProviders.length,
      validUntil: aggregate.validUntil,
      refused: aggregate.refused,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await markFederationFailed(db, name, message);
    throw error;
  }
}

/**
 * Refreshes every federation, one instance at a time: the others skip the round (answer
 * undefined) rather than fetch and verify the same aggregates again. The lock is tied to
 * the transaction, so an instance that dies mid-way never blocks the others.
 * One federation failing does not stop the others; answers the failures.
 */
export async function refreshFederations(db: Db, options: RefreshOptions) {
  return withFederationLock(db, async (tx) => {
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
