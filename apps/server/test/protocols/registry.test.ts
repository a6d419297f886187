import { readdirSync } from "node:fs";
import { integrationFailureReasons } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import type { ProtocolName } from "../../src/protocols/record.ts";
import { protocols } from "../../src/protocols/registry.ts";
import { testConfig } from "../support/app.ts";
import { aboveModelDatabase, createTestDatabase } from "../support/databases.ts";

const protocolsFolder = new URL("../../src/protocols/", import.meta.url);

describe("the protocols' registry (issue 74: a protocol is a record)", () => {
  it("lists each protocol folder once, by its folder's name", () => {
    const folders = readdirSync(protocolsFolder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(protocols.map((protocol) => protocol.name).sort()).toEqual(folders);
  });

  it("gives every integration-health reason a protocol that records it", () => {
    const recorded = new Set(protocols.flatMap((protocol) => protocol.health?.reasons ?? []));
    expect([...integrationFailureReasons].filter((reason) => !recorded.has(reason))).toEqual([]);
  });

  it("builds only the protocols named, and each registered one takes part in sign-out once", async () => {
    const database = await createTestDatabase(aboveModelDatabase);
    const app = await buildApp({
      config: testConfig(),
      database: database.handle,
      logger: false,
      protocols: ["tickets", "cas"],
    });
    try {
      await app.ready();
      expect(app.protocols.map((protocol) => protocol.name)).toEqual(["tickets", "cas"]);
      expect(app.signOut.names).toEqual(["cas"]);
      // CAS answers; SAML's metadata and OpenID Connect's discovery were not built.
      expect((await app.inject({ method: "GET", url: "/cas/login" })).statusCode).not.toBe(404);
      expect((await app.inject({ method: "GET", url: "/saml/metadata" })).statusCode).toBe(404);
      expect((await app.inject({ method: "GET", url: "/oidc/.well-known/openid-configuration" })).statusCode).toBe(404);
    } finally {
      await app.close();
      await database.dispose();
    }
    await expect(
      buildApp({
        config: testConfig(),
        database: database.handle,
        logger: false,
        protocols: ["gopher" as ProtocolName],
      }),
    ).rejects.toThrow("no protocol named gopher");
  });
});
