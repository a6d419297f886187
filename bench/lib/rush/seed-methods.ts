import { demoPeople } from "@kpi-id/server/seed";
import {
  addPerson,
  addProtectedSite,
  createApplication,
  parseSpMetadata,
  type SoftAuthenticator,
  sessionCookieOf,
  softAuthenticator,
  upsertServiceProvider,
} from "@kpi-id/server/testing";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { Join } from "./radius-access.ts";

// The parts of the rush's campus beside its people and the ticket, OpenID Connect and CAS applications (seed.ts):
// the people the stand-ins sign in, people's passkeys and devices, a SAML service provider and a site behind nginx.

/** The stand-ins' people: kept out of the password, authenticator, passkey and device lists. */
export const standInUsernames = demoPeople.map((person) => person.username);

/** The demo campus people (`@kpi-id/server/seed`): the stand-ins' Google accounts, Diia keys and BankID personas. */
export async function addStandInPeople(app: FastifyInstance, password: string): Promise<void> {
  for (const person of demoPeople) {
    const { username, fullName, email, taxId } = person;
    await addPerson(app, { username, fullName, email, taxId }, password);
  }
}

/**
 * A passkey for each person given, stored as a registration would store it (no ceremony: thousands of them would
 * cost the seed minutes), with the software authenticator holding its key. A device-bound passkey (not synced).
 */
export async function addPasskeys(
  app: FastifyInstance,
  people: readonly { id: string }[],
  origin: string,
): Promise<SoftAuthenticator[]> {
  const relyingParty = { origin, rpId: new URL(origin).hostname };
  const authenticators: SoftAuthenticator[] = [];
  const rows = people.map((person) => {
    const authenticator = softAuthenticator(relyingParty);
    // The user handle a discoverable credential answers: the person's id as its 16 bytes (passkeys/relying-party.ts).
    authenticator.adoptUserHandle(Buffer.from(person.id.replaceAll("-", ""), "hex").toString("base64url"));
    authenticators.push(authenticator);
    return {
      user_id: person.id,
      credential_id: authenticator.credentialId,
      public_key: Buffer.from(authenticator.publicKeyCose),
      sign_count: 0,
      transports: ["internal"],
      backup_eligible: false,
      backed_up: false,
      aaguid: "00000000-0000-0000-0000-000000000000",
      name: "Телефон",
      created_at: new Date(),
    };
  });
  for (let from = 0; from < rows.length; from += 500)
    await app.db
      .insertInto("webauthn_credentials")
      .values(rows.slice(from, from + 500))
      .execute();
  return authenticators;
}

const samlEntityId = "https://e-library.kpi.ua/shibboleth";
const samlAcsUrl = "https://e-library.kpi.ua/Shibboleth.sso/SAML2/POST";
const siteOrigin = "https://wiki.kpi.ua";

/** A Shibboleth SP's metadata as the library would send it (no signed requests, assertions signed by KPI ID). */
const samlMetadata = `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${samlEntityId}">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAssertionsSigned="true">
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${samlAcsUrl}" index="1"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>`;

export interface SeededSites {
  samlServiceProvider: { entityId: string; acsUrl: string };
  protectedSite: { id: string; origin: string };
  /** The applications people need access to. */
  applicationIds: string[];
}

/** The library's e-resources as a SAML SP (an application with access rules) and a wiki behind nginx. */
export async function addSamlAndNginxSites(app: FastifyInstance): Promise<SeededSites> {
  const library = await createApplication(app.db, {
    name: "e-library",
    title: "E-library",
    description: "The library's e-resources (SAML)",
    callbackUrl: samlAcsUrl,
  });
  const policy = {
    releasedAttributes: ["eduPersonPrincipalName", "mail", "displayName", "eduPersonScopedAffiliation"],
    applicationId: library.application.id,
    firstParty: true,
  };
  // The university's own SP: no consent screen, as an operator's first-party application.
  await sql`update applications set first_party = true where id = ${library.application.id}`.execute(app.db);
  await upsertServiceProvider(app.db, await parseSpMetadata(samlMetadata), "manual", policy, new Date());
  const site = await addProtectedSite(app, siteOrigin);
  return {
    samlServiceProvider: { entityId: samlEntityId, acsUrl: samlAcsUrl },
    protectedSite: { id: site.id, origin: siteOrigin },
    applicationIds: [library.application.id, site.id],
  };
}

/** A device's MAC address as controllers write it (Calling-Station-Id). */
const stationOf = (index: number) =>
  `02-00-${[index >> 24, index >> 16, index >> 8, index].map((byte) => (byte & 255).toString(16).padStart(2, "0").toUpperCase()).join("-")}`;

/** A Wi-Fi password (one device) for each person given, made by the account page's own route as a person does. */
export async function addDevices(
  app: FastifyInstance,
  people: readonly { id: string }[],
  origin: string,
): Promise<Join[]> {
  const devices: Join[] = [];
  for (const [index, person] of people.entries()) {
    const cookie = await sessionCookieOf(app, person.id, "PASSWORD");
    const answer = await app.inject({
      method: "POST",
      url: "/api/account/wifi",
      headers: { cookie, origin, "content-type": "application/json" },
      payload: JSON.stringify({ name: "Ноутбук" }),
    });
    if (answer.statusCode !== 200) throw new Error(`a Wi-Fi password: ${answer.statusCode} ${answer.body}`);
    const { identity, password } = answer.json() as { identity: string; password: string };
    devices.push({ identity, password, station: stationOf(index) });
  }
  return devices;
}
