import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { refreshFederation, saveFederation } from "../../../../src/protocols/saml/federation.ts";
import { certificatePem } from "../../../../src/protocols/saml/keys.ts";
import { TEST_PUBLIC_URL } from "../../../support/app.ts";
import { type HomeIdp, type HomeUser, startHomeIdp } from "../../../support/simplesamlphp.ts";
import { signedAggregate } from "../aggregate.ts";
import { makeKeyPair } from "../keys.ts";

export const homeScope = "home.example.org";
export const spEntityId = `${TEST_PUBLIC_URL}/saml/sp`;
export const acsUrl = `${TEST_PUBLIC_URL}/saml/sp/acs`;

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

/**
 * SimpleSAMLphp as the home university, listed in a federation aggregate (signed by the federation's key) that the
 * app reads as the federation "research", the one visitors may come from in these tests.
 */
export async function homeUniversity(app: FastifyInstance, users: Record<string, HomeUser>, validUntil: Date) {
  const { signing } = await app.saml.currentKeys();
  const home: HomeIdp = await startHomeIdp({
    scope: homeScope,
    names: { en: "Home University", uk: "Домашній університет" },
    sp: { entityId: spEntityId, acs: acsUrl, certificatePem: certificatePem(signing?.certificate ?? "") },
    encryptAssertions: true,
    users,
  });
  const federationKey = makeKeyPair("research-federation");
  const file = join(federationKey.dir, "aggregate.xml");
  writeFileSync(file, signedAggregate([await home.metadata()], validUntil, federationKey));
  await saveFederation(app.db, {
    name: "research",
    source: file,
    certificate: federationKey.certificate,
    entityCategories: [],
  });
  await refreshFederation(app.db, "research", {
    now: app.clock(),
    readFile: (path) => readFile(path, "utf8"),
    allowLoopbackHttp: true,
  });
  return home;
}
