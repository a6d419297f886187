import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAccess } from "../../../src/model/admission/applications.ts";
import { type SpPolicy, upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { disableUser } from "../../../src/model/sessions/disable.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, postJson, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addApplication, addPerson, grantAccess, signIn } from "../../support/campus.ts";
import { type NodeSamlSp, nodeSamlSp } from "./node-saml-sp.ts";

const password = "correct horse battery staple";

describe("SAML consents end with access, as OpenID Connect consents do", () => {
  let test: TestApp;
  let certificate: string;
  const sp = (host: string) =>
    nodeSamlSp({ baseUrl: `https://${host}`, idpUrl: TEST_PUBLIC_URL, idpCertificate: certificate });
  const register = async (target: NodeSamlSp, policy: SpPolicy) =>
    upsertServiceProvider(test.app.db, await parseSpMetadata(target.metadata), "manual", policy, new Date());

  /** The SP asks; the person allows it on the consent screen. */
  async function allow(target: NodeSamlSp, cookie: string) {
    const url = await target.saml.getAuthorizeUrlAsync("", undefined, {});
    const first = await test.app.inject({ url: url.replace(TEST_PUBLIC_URL, ""), headers: { cookie } });
    const toConsent = await test.app.inject({ url: String(first.headers.location), headers: { cookie } });
    const id = String(toConsent.headers.location).split("saml=")[1] ?? "";
    expect(id).not.toBe("");
    const allowed = await postJson(test.app, `/api/saml/consent/${id}`, { allow: true }, { headers: { cookie } });
    expect(allowed.statusCode, allowed.body).toBe(200);
  }
  const consentedSps = async (userId: string) =>
    (
      await test.app.db
        .selectFrom("saml_consents")
        .select("sp_entity_id")
        .where("user_id", "=", userId)
        .orderBy("sp_entity_id")
        .execute()
    ).map((row) => row.sp_entity_id);

  beforeAll(async () => {
    test = await createTestApp("pglite", {}, { protocols: ["saml"] });
    certificate = (await test.app.saml.currentKeys()).signing?.certificate ?? "";
  });
  afterAll(() => test?.close());

  it("revoking access to an application forgets the consents to its SPs, and only those", async () => {
    const person = await addPerson(test.app, { username: "m.savchuk", fullName: "Марко Савчук" }, password);
    const application = (await addApplication(test.app)).application;
    await grantAccess(test.app.db, person.id, application.id);
    const library = sp("library.example.org");
    const journal = sp("journal.example.org");
    await register(library, { releasedAttributes: ["mail"], applicationId: application.id });
    await register(journal, { releasedAttributes: ["mail"] });
    const cookie = await signIn(test.app, "m.savchuk", password);
    await allow(library, cookie);
    await allow(journal, cookie);
    expect(await consentedSps(person.id)).toEqual([journal.entityId, library.entityId]);

    await revokeAccess(test.app.db, person.id, application.id);
    expect(await consentedSps(person.id)).toEqual([journal.entityId]);
  });

  it("disabling a person forgets every SAML consent of theirs, and no one else's", async () => {
    const person = await addPerson(test.app, { username: "o.tkach", fullName: "Оксана Ткач" }, password);
    const other = await addPerson(test.app, { username: "d.hrytsai", fullName: "Денис Грицай" }, password);
    const shop = sp("shop.example.org");
    await register(shop, { releasedAttributes: ["displayName"] });
    await allow(shop, await signIn(test.app, "o.tkach", password));
    await allow(shop, await signIn(test.app, "d.hrytsai", password));

    await disableUser({ db: test.app.db, now: test.app.clock() }, person.id);
    expect(await consentedSps(person.id)).toEqual([]);
    expect(await consentedSps(other.id)).toEqual([shop.entityId]);
  });
});
