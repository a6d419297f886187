import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { signedAggregate } from "./aggregate.ts";
import { makeKeyPair } from "./keys.ts";
import { nodeSamlSp } from "./node-saml-sp.ts";

describe("saml operator commands", () => {
  let database: TestDatabase;
  const sp = nodeSamlSp({ idpUrl: "https://id.kpi.ua", idpCertificate: "unused" });
  const file = (name: string, contents: string) => {
    const path = join(sp.signing.dir, name);
    writeFileSync(path, contents);
    return path;
  };
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());
  const cli = (args: string[]) => runCliOn(database.handle, args, { env: { PUBLIC_URL: "https://id.kpi.ua" } });

  it("registers an SP from its metadata file with an attribute allow-list, and lists it", async () => {
    const added = await cli([
      "saml",
      "sp",
      "add",
      "--metadata",
      file("sp.xml", sp.metadata),
      "--attribute",
      "mail",
      "--attribute",
      "displayName",
      "--json",
    ]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.json()).toMatchObject({
      entityId: sp.entityId,
      attributes: ["mail", "displayName"],
      source: "manual",
    });
    const listed = await cli(["saml", "sp", "list", "--json"]);
    expect(listed.json()).toEqual([expect.objectContaining({ entityId: sp.entityId })]);
  });

  it("registers from a URL, and re-adding keeps the release policy", async () => {
    const server = createServer((_request, response) => response.end(sp.metadata));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const added = await cli(["saml", "sp", "add", "--metadata", `http://127.0.0.1:${port}/sp.xml`, "--json"]);
      expect(added.code).toBe(0);
      expect(added.json()).toMatchObject({ entityId: sp.entityId, attributes: ["mail", "displayName"] });
    } finally {
      server.close();
    }
  });

  it("--sign-response and --encrypt are kept on a re-import and turned off by their --no- forms", async () => {
    const metadata = file("sp-flags.xml", sp.metadata);
    const add = async (...flags: string[]) => {
      const result = await cli(["saml", "sp", "add", "--metadata", metadata, ...flags, "--json"]);
      expect(result.stderr).toBe("");
      return result.json();
    };
    expect(await add("--sign-response", "--encrypt")).toMatchObject({ signResponse: true, encryptAssertions: true });
    expect(await add()).toMatchObject({ signResponse: true, encryptAssertions: true });
    expect(await add("--no-sign-response", "--no-encrypt")).toMatchObject({
      signResponse: false,
      encryptAssertions: false,
    });
  });

  it("refuses metadata with a DTD (entity expansion, external entities), an IdP's metadata, and unknown attributes", async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${sp.metadata.replace(/^<\?xml[^>]*>/, "")}`;
    const refusedXxe = await cli(["saml", "sp", "add", "--metadata", file("xxe.xml", xxe)]);
    expect(refusedXxe.code).toBe(1);
    expect(refusedXxe.stderr).toContain("document type declarations are not allowed");
    const idp = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
    const refusedIdp = await cli(["saml", "sp", "add", "--metadata", file("idp.xml", idp)]);
    expect(refusedIdp.stderr).toContain("no SAML 2.0 SPSSODescriptor");
    const refusedAttribute = await cli([
      "saml",
      "sp",
      "add",
      "--metadata",
      file("sp2.xml", sp.metadata),
      "--attribute",
      "taxId",
    ]);
    expect(refusedAttribute.code).toBe(1);
    expect(refusedAttribute.stderr).toContain("unknown attribute taxId");
  });

  it("rolls keys over: the new key is published at once and signs later; the signing key cannot be removed", async () => {
    const rolled = await cli(["saml", "keys", "rollover", "--activate-in-hours", "48", "--json"]);
    expect(rolled.code).toBe(0);
    const { kid } = rolled.json<{ kid: string }>();
    const keys = await cli(["saml", "keys", "list", "--json"]);
    const listed = keys.json<{ kid: string; signing: boolean }[]>();
    expect(listed).toHaveLength(2);
    expect(listed.find((key) => key.kid === kid)?.signing).toBe(false);
    const signing = listed.find((key) => key.signing)?.kid ?? "";
    const refused = await cli(["saml", "keys", "remove", "--kid", signing]);
    expect(refused.stderr).toContain("is the signing key");
    // Promoted: the new key signs now, the old one stays in the metadata as the previous key until removed.
    expect((await cli(["saml", "keys", "promote", "--json"])).json()).toEqual({ promoted: kid });
    const promoted = (await cli(["saml", "keys", "list", "--json"])).json<{ kid: string; state: string }[]>();
    expect(promoted.map((key) => [key.kid, key.state])).toEqual([
      [kid, "current"],
      [signing, "previous"],
    ]);
    expect((await cli(["saml", "keys", "promote"])).stderr).toContain("no next key");
    expect((await cli(["saml", "keys", "remove", "--kid", signing])).code).toBe(0);
    expect((await cli(["saml", "sp", "remove", "--entity-id", sp.entityId])).code).toBe(0);
  });

  it("adds a federation from its signed aggregate and certificate, lists it, refuses a bad one, removes it with its SPs", async () => {
    const federation = makeKeyPair("cli-federation");
    const member = nodeSamlSp({
      baseUrl: "https://member.example.org",
      idpUrl: "https://id.kpi.ua",
      idpCertificate: "unused",
    });
    const inAWeek = new Date(Date.now() + 7 * 86_400_000);
    const aggregate = file("aggregate.xml", signedAggregate([member.metadata], inAWeek, federation));
    const added = await cli([
      "saml",
      "federation",
      "add",
      "--name",
      "peano",
      "--metadata",
      aggregate,
      "--certificate",
      federation.certFile,
    ]);
    expect(added.stderr).toBe("");
    expect(added.stdout).toContain("Federation peano: 1 service providers");
    const sps = await cli(["saml", "sp", "list", "--json"]);
    expect(sps.json()).toContainEqual(
      expect.objectContaining({ entityId: member.entityId, source: "federation:peano" }),
    );
    file("aggregate.xml", signedAggregate([member.metadata], inAWeek, makeKeyPair("impostor")));
    const refused = await cli(["saml", "federation", "refresh", "--name", "peano"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("bad signature");
    const listed = await cli(["saml", "federation", "list", "--json"]);
    expect(listed.json()).toEqual([
      expect.objectContaining({ name: "peano", lastError: expect.stringContaining("bad signature") }),
    ]);
    expect((await cli(["saml", "federation", "remove", "--name", "peano"])).code).toBe(0);
    const after = await cli(["saml", "sp", "list", "--json"]);
    expect(after.json()).not.toContainEqual(expect.objectContaining({ entityId: member.entityId }));
  });
});
