import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingTranslationsFile } from "../../../src/surfaces/web/missing-translations.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

describe.each(aboveModelDatabases)("the add-missing-key path on %s", (kind) => {
  describe("in development", () => {
    let testApp: TestApp;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "kpi-missing-"));
      testApp = await createTestApp(kind, { NODE_ENV: "development", DATA_DIR: dataDir }, { protocols: [] });
    });
    afterAll(async () => {
      await testApp.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const recorded = () => JSON.parse(readFileSync(missingTranslationsFile(dataDir), "utf8"));

    it("records missing keys per language and namespace for translators", async () => {
      const first = await postJson(testApp.app, "/locales/add/uk/apps", { "new.title": "New title" });
      expect(first.statusCode).toBe(204);
      await postJson(testApp.app, "/locales/add/en/apps", { "new.title": "New title", other: "" });
      // A key already recorded keeps its first fallback.
      await postJson(testApp.app, "/locales/add/uk/apps", { "new.title": "changed" });
      expect(recorded()).toEqual({
        uk: { apps: { "new.title": "New title" } },
        en: { apps: { "new.title": "New title", other: "" } },
      });
    });

    it("keeps every key of concurrent reports", async () => {
      const calls = Array.from({ length: 10 }, (_, index) =>
        postJson(testApp.app, "/locales/add/en/common", { [`k${index}`]: "x" }),
      );
      expect((await Promise.all(calls)).map((answer) => answer.statusCode)).toEqual(Array(10).fill(204));
      expect(Object.keys(recorded().en.common)).toHaveLength(10);
    });

    it("refuses languages and namespaces outside the allow-list, so no other file can be named", async () => {
      for (const url of [
        "/locales/add/de/common",
        "/locales/add/uk/..%2F..%2Fetc",
        "/locales/add/uk/Common",
        "/locales/add/uk/a.json",
        `/locales/add/uk/${"a".repeat(41)}`,
      ]) {
        const answer = await postJson(testApp.app, url, { key: "x" });
        expect(answer.statusCode, url).toBe(400);
        expect(answer.json().code).toBe("request.validation_failed");
      }
    });

    it("refuses bodies that are not a flat map of strings, or too many keys at once", async () => {
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, "x"]));
      for (const body of [["a"], { key: 1 }, { key: { nested: "x" } }, tooMany]) {
        const answer = await postJson(testApp.app, "/locales/add/uk/common", body);
        expect(answer.statusCode).toBe(400);
      }
      const malformed = await testApp.app.inject({
        method: "POST",
        url: "/locales/add/uk/common",
        payload: "{not json",
        headers: { "content-type": "application/json" },
      });
      expect(malformed.statusCode).toBe(400);
    });
  });

  describe("outside development", () => {
    let testApp: TestApp;
    beforeAll(async () => {
      testApp = await createTestApp(kind, {}, { protocols: [] });
    });
    afterAll(async () => testApp.close());

    it("answers 404 as if the path did not exist", async () => {
      const answer = await postJson(testApp.app, "/locales/add/uk/common", { key: "x" });
      expect(answer.statusCode).toBe(404);
      expect(answer.json().code).toBe("request.not_found");
    });
  });
});
