import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { databaseKinds } from "../../support/databases.ts";
import { callbackBody, encodeData, postCallback, startTestDiia } from "../../support/diia.ts";

const nul = "a\u0000b";

describe.each(databaseKinds)("text PostgreSQL cannot store (U+0000), on %s", (kind) => {
  let t: TestApp;
  let diia: RunningDiiaStandIn;
  beforeAll(async () => {
    diia = await startTestDiia();
    t = await createTestApp(kind, diia.env, { protocols: [] });
    await addPerson(t.app, { username: "nul-owner", fullName: "Нуль Власник" }, "nul owner passphrase");
  });
  afterAll(async () => {
    await t.close();
    await diia.close();
  });

  const expectRefused = (response: { statusCode: number; json(): { code: string } }) => {
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("request.unstorable_text");
  };

  it("refuses it in the sign-in form, in either field, with 400 request.unstorable_text", async () => {
    expectRefused(await postJson(t.app, "/api/auth", { username: nul, password: "whatever" }));
    expectRefused(await postJson(t.app, "/api/auth", { username: "nul-owner", password: nul }));
    expectRefused(await postJson(t.app, "/api/auth/internal", { sessionId: nul }));
  });

  it("refuses it in the Diia callback's request id as any malformed delivery (200 success: false)", async () => {
    const response = await postCallback(t.app, callbackBody(encodeData(nul, Buffer.from("signature"))));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: false });
  });

  it("answers in the person's language, and the service keeps working afterwards", async () => {
    const response = await postJson(
      t.app,
      "/api/auth",
      { username: nul, password: "x" },
      { headers: { "accept-language": "uk" } },
    );
    expect(response.json().message).toMatch(/U\+0000/);
    expect(await signIn(t.app, "nul-owner", "nul owner passphrase")).not.toBe("");
  });
});

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

describe("one string type for every schema", () => {
  it("no schema outside the environment's reads a bare z.string(): all use text() from contracts", () => {
    const root = join(import.meta.dirname, "../../../../..");
    const files = [...sourceFiles(join(root, "apps/server/src")), ...sourceFiles(join(root, "packages/contracts/src"))];
    const bare = files.filter(
      (file) =>
        !file.endsWith("config/schema.ts") &&
        !file.endsWith("contracts/src/text.ts") &&
        readFileSync(file, "utf8").includes("z.string("),
    );
    expect(bare).toEqual([]);
  });
});
