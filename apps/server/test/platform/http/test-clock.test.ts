import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../src/app.ts";
import { ConfigError } from "../../../src/platform/config/error.ts";
import { createTestClock, registerTestClockRoute, testClockWanted } from "../../../src/platform/http/test-clock.ts";
import { postJson, testConfig } from "../../support/app.ts";
import { addPerson, signIn } from "../../support/campus.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

const password = "correct horse battery staple";

describe("the test clock is never in production", () => {
  it("is off unless TEST_CLOCK=true", () => {
    expect(testClockWanted({ env: "development", sandbox: true }, {})).toBe(false);
    expect(testClockWanted({ env: "development", sandbox: true }, { TEST_CLOCK: "false" })).toBe(false);
    expect(testClockWanted({ env: "test", sandbox: true }, { TEST_CLOCK: "true" })).toBe(true);
  });

  it("refuses to start with TEST_CLOCK=true when NODE_ENV=production or outside sandbox mode", () => {
    expect(() => testClockWanted({ env: "production", sandbox: false }, { TEST_CLOCK: "true" })).toThrow(ConfigError);
    expect(() => testClockWanted({ env: "production", sandbox: true }, { TEST_CLOCK: "true" })).toThrow(/production/);
    expect(() => testClockWanted({ env: "development", sandbox: false }, { TEST_CLOCK: "true" })).toThrow(ConfigError);
    expect(() => testClockWanted({ env: "development", sandbox: true }, { TEST_CLOCK: "yes" })).toThrow(ConfigError);
  });
});

describe.each(aboveModelDatabases)("the test clock on %s", (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const clock = createTestClock();
  let routeWithoutIt = true;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await buildApp({ config: testConfig(), database: database.handle, logger: false, clock: clock.now });
    routeWithoutIt = app.hasRoute({ method: "POST", url: "/api/test/clock" });
    registerTestClockRoute(app, clock);
    await app.ready();
    await addPerson(app, { username: "clocked", fullName: "Тарас Годинник" }, password);
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  it("is no route of the app the service builds: only server.ts adds it, with TEST_CLOCK=true", () => {
    expect(routeWithoutIt).toBe(false);
  });

  it("moves the server's time: a fresh sign-in goes stale for a sensitive change, and back", async () => {
    const cookie = await signIn(app, "clocked", password);
    const endOthers = () => postJson(app, "/api/account/sessions/end-others", {}, { headers: { cookie } });
    expect((await endOthers()).statusCode).toBe(200);
    const moved = await postJson(app, "/api/test/clock", { advanceSeconds: 601 });
    expect(moved.json()).toEqual({ offsetSeconds: 601 });
    const stale = await endOthers();
    expect({ status: stale.statusCode, code: stale.json().code }).toEqual({
      status: 403,
      code: "auth.reauth_required",
    });
    expect((await postJson(app, "/api/test/clock", { reset: true })).json()).toEqual({ offsetSeconds: 0 });
    expect((await endOthers()).statusCode).toBe(200);
  });

  it("takes only a forward move or a reset", async () => {
    for (const body of [{ advanceSeconds: -5 }, { advanceSeconds: 0 }, { advanceSeconds: 1.5 }, { reset: false }, {}]) {
      expect({ body, status: (await postJson(app, "/api/test/clock", body)).statusCode }).toEqual({
        body,
        status: 400,
      });
    }
    expect(clock.offsetSeconds()).toBe(0);
  });
});
