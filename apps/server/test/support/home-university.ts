import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { refreshFederation, saveFederation } from "../../src/protocols/saml/federation.ts";
import { certificatePem } from "../../src/protocols/saml/keys.ts";
import { signedAggregate } from "../protocols/saml/aggregate.ts";
import { makeKeyPair } from "../protocols/saml/keys.ts";
import { type HomeIdp, type HomeUser, startHomeIdp } from "./simplesamlphp.ts";

/**
 * SimpleSAMLphp as another university's identity provider, listed in a federation aggregate (signed by the
 * federation's key) that the app reads as the federation `federation` (SAML_VISITOR_FEDERATIONS names the ones
 * visitors may come from). KPI ID's service-provider side is the app's own: `{PUBLIC_URL}/saml/sp`, its SAML key.
 * Shared by the server's tests (institution-sign-in.test.ts) and the browser suite (e2e/specs/institution.spec.ts).
 */
export interface HomeUniversityOptions {
  users: Record<string, HomeUser>;
  /** Until when the aggregate listing it is valid. */
  validUntil: Date;
  /** shibmd:Scope in its metadata; home.example.org unless given. */
  scope?: string;
  names?: { en: string; uk: string };
  federation?: string;
}

export const homeScope = "home.example.org";

/** A subject-id under the home institution's scope, and the attributes R&S institutions release with it. */
export function researcher(subject: string, name: string, extra: Partial<HomeUser> = {}): HomeUser {
  return {
    password: "home secret 1",
    attributes: {
      "urn:oasis:names:tc:SAML:attribute:subject-id": [subject],
      "urn:oid:2.16.840.1.113730.3.1.241": [name],
      "urn:oid:0.9.2342.19200300.100.1.3": [subject.replace(/^[^@]*/, "mail")],
      "urn:oid:1.3.6.1.4.1.5923.1.1.1.9": [`faculty@${homeScope}`],
    },
    ...extra,
  };
}

export async function startHomeUniversity(app: FastifyInstance, options: HomeUniversityOptions): Promise<HomeIdp> {
  const { signing } = await app.saml.currentKeys();
  const publicUrl = app.config.publicUrl;
  const home: HomeIdp = await startHomeIdp({
    scope: options.scope ?? homeScope,
    names: options.names ?? { en: "Home University", uk: "Домашній університет" },
    sp: {
      entityId: `${publicUrl}/saml/sp`,
      acs: `${publicUrl}/saml/sp/acs`,
      certificatePem: certificatePem(signing?.certificate ?? ""),
    },
    encryptAssertions: true,
    users: options.users,
  });
  const federation = options.federation ?? "research";
  const federationKey = makeKeyPair(`${federation}-federation`);
  const file = join(federationKey.dir, "aggregate.xml");
  writeFileSync(file, signedAggregate([await home.metadata()], options.validUntil, federationKey));
  await saveFederation(app.db, {
    name: federation,
    source: file,
    certificate: federationKey.certificate,
    entityCategories: [],
  });
  await refreshFederation(app.db, federation, {
    now: app.clock(),
    readFile: (path) => readFile(path, "utf8"),
    allowLoopbackHttp: true,
  });
  return home;
}
