import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAggregate } from "../../../src/protocols/saml/aggregate.ts";
import { parseSpMetadata, SpEndpointRefusedError } from "../../../src/protocols/saml/sp-metadata.ts";
import { runCliOn } from "../../support/cli.ts";
import { createTestDatabase, type TestDatabase } from "../../support/databases.ts";
import { signedAggregate } from "./aggregate.ts";
import { makeKeyPair } from "./keys.ts";
import { nodeSamlSp } from "./node-saml-sp.ts";

const sp = (baseUrl: string) => nodeSamlSp({ baseUrl, idpUrl: "https://id.kpi.ua", idpCertificate: "unused" });
const production = { allowLoopbackHttp: false };
const development = { allowLoopbackHttp: true };

describe("SP addresses (assertion consumer, logout) must be https; loopback http only outside production", () => {
  const secure = sp("https://secure.example.org");
  const plain = sp("http://plain.example.org");
  const loopback = sp("http://localhost:8080");
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());

  it("registration from metadata refuses http addresses with saml.sp_endpoint_not_https, naming them", async () => {
    expect((await parseSpMetadata(secure.metadata, production)).entityId).toBe(secure.entityId);
    const refused = await parseSpMetadata(plain.metadata, development).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SpEndpointRefusedError);
    expect((refused as SpEndpointRefusedError).code).toBe("saml.sp_endpoint_not_https");
    expect((refused as Error).message).toContain("http://plain.example.org/saml/acs");
    // An SP on this machine: in development yes, in production (and by default) no.
    expect((await parseSpMetadata(loopback.metadata, development)).entityId).toBe(loopback.entityId);
    await expect(parseSpMetadata(loopback.metadata, production)).rejects.toThrow(/saml\.sp_endpoint_not_https: /);
    await expect(parseSpMetadata(loopback.metadata)).rejects.toBeInstanceOf(SpEndpointRefusedError);
  });

  it("a federation's aggregate keeps its https SPs and leaves out the one with an http address", async () => {
    const federation = makeKeyPair("federation");
    const now = new Date();
    const xml = signedAggregate([secure.metadata, plain.metadata], new Date(now.getTime() + 86_400_000), federation);
    const aggregate = await verifyAggregate(xml, { certificate: federation.certificate, now, endpoints: production });
    expect(aggregate.serviceProviders.map((each) => each.entityId)).toEqual([secure.entityId]);
    expect(aggregate.refused).toEqual([
      expect.stringMatching(/^saml\.sp_endpoint_not_https: http:\/\/plain\.example\.org/),
    ]);
  });

  it("saml sp add says why it refuses (exit 1, the code on stderr) and registers nothing", async () => {
    const file = join(plain.signing.dir, "plain.xml");
    writeFileSync(file, plain.metadata);
    const cli = (args: string[]) => runCliOn(database.handle, args, { env: { PUBLIC_URL: "https://id.kpi.ua" } });
    const added = await cli(["saml", "sp", "add", "--metadata", file]);
    expect(added.code).toBe(1);
    expect(added.stderr).toContain("saml.sp_endpoint_not_https");
    expect(added.stderr).toContain("http://plain.example.org/saml/acs");
    expect((await cli(["saml", "sp", "list", "--json"])).json()).toEqual([]);
  });
});
