import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertServiceProvider } from "../../../src/model/saml/service-providers.ts";
import { addRolloverKey, promoteSamlKey, retireSamlKey } from "../../../src/protocols/saml/keys.ts";
import { samlPaths } from "../../../src/protocols/saml/paths.ts";
import { parseSpMetadata } from "../../../src/protocols/saml/sp-metadata.ts";
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";
import { browse, formOf } from "./browse.ts";
import { nodeSamlSp } from "./node-saml-sp.ts";

const password = "correct horse battery staple";
const hour = 3_600_000;

/**
 * The SAML signing certificate's rollover as a service provider meets it: it
 * reads the metadata once, while the next certificate is already in it beside
 * the current one (two KeyDescriptor use="signing"), and trusts both; after the
 * promotion it accepts answers signed with the new key, and after removal the
 * metadata holds the new certificate alone.
 */
describe.each(aboveModelDatabases)("SAML signing certificate rollover (%s)", (kind) => {
  let test: TestApp;
  let clockOffsetMs = 0;
  const now = () => new Date(Date.now() + clockOffsetMs);
  let cookie: string;

  beforeAll(async () => {
    test = await createTestApp(kind, {}, { protocols: ["saml"], clock: now });
    await addPerson(test.app, { username: "o.roll", fullName: "Олег Ролл", email: "o.roll@kpi.ua" }, password);
    cookie = await signIn(test.app, "o.roll", password);
  });
  afterAll(() => test?.close());

  const metadataCertificates = async () => {
    const xml = (await test.app.inject({ method: "GET", url: samlPaths.metadata })).body;
    const descriptors = [...xml.matchAll(/<md:KeyDescriptor use="signing">([\s\S]*?)<\/md:KeyDescriptor>/g)];
    return descriptors.map((match) => /<ds:X509Certificate>([^<]+)</.exec(match[1] ?? "")?.[1] ?? "");
  };
  /** Moves past the servers' one-minute key reload. */
  const later = (ms: number) => {
    clockOffsetMs += ms + 61_000;
  };

  it("publishes the next certificate before it signs, promotes it, and retires the old one", async () => {
    const [current] = await metadataCertificates();
    if (!current) throw new Error("no SAML certificate in the metadata");
    const nextKid = await addRolloverKey(
      test.app.db,
      test.config.sessionSecret,
      "id.kpi.example",
      new Date(now().getTime() + 48 * hour),
      now(),
    );
    later(0);
    const both = await metadataCertificates();
    expect(both).toHaveLength(2);
    expect(both[0]).toBe(current);
    const next = both[1] ?? "";

    // The SP reads the metadata now and trusts every signing certificate in it.
    // The IdP's clock runs minutes ahead here (past its key reloads); the SPs allow for it.
    const skew = { idpUrl: TEST_PUBLIC_URL, acceptedClockSkewMs: 600_000 };
    const sp = nodeSamlSp({ ...skew, idpCertificate: both, baseUrl: "https://wiki.example.org" });
    const onlyOld = nodeSamlSp({ ...skew, idpCertificate: current, baseUrl: "https://old.example.org" });
    for (const provider of [sp, onlyOld])
      await upsertServiceProvider(
        test.app.db,
        await parseSpMetadata(provider.metadata),
        "manual",
        { releasedAttributes: ["mail"], firstParty: true },
        now(),
      );
    const answer = async (provider: typeof sp) => {
      const page = await browse(test.app, await provider.saml.getAuthorizeUrlAsync("", undefined, {}), cookie);
      expect(page.statusCode, page.body).toBe(200);
      const response = formOf(page.body).SAMLResponse;
      const signedWith = /<ds:X509Certificate>([^<]+)</.exec(Buffer.from(response, "base64").toString("utf8"))?.[1];
      return { response, signedWith };
    };

    const before = await answer(sp);
    expect(before.signedWith).toBe(current);
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: before.response })).resolves.toBeDefined();

    expect(await promoteSamlKey(test.app.db, now())).toBe(nextKid);
    expect(await promoteSamlKey(test.app.db, now())).toBeNull();
    later(0);
    const after = await answer(sp);
    expect(after.signedWith).toBe(next);
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: after.response })).resolves.toBeDefined();
    // An SP that never read the new metadata refuses: why the next certificate is published first.
    const stale = await answer(onlyOld);
    await expect(onlyOld.saml.validatePostResponseAsync({ SAMLResponse: stale.response })).rejects.toThrow();

    const previousKid =
      (await test.app.db.selectFrom("saml_signing_keys").select("kid").where("kid", "!=", nextKid).execute())[0]?.kid ??
      "";
    expect(await retireSamlKey(test.app.db, nextKid, now())).toBe("signing");
    expect(await retireSamlKey(test.app.db, previousKid, now())).toBe("retired");
    later(0);
    expect(await metadataCertificates()).toEqual([next]);
  });
});
