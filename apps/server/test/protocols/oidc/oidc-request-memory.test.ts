import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OidcRequestMemory, type OidcRow } from "../../../src/protocols/oidc/request-memory.ts";
import { aboveModelDatabases, createTestDatabase, type TestDatabase } from "../../support/databases.ts";

const row = (id: string, payload = JSON.stringify({ kind: "Session", id })): OidcRow => ({
  type: "Session",
  id,
  payload,
  grant_id: null,
  user_code: null,
  uid: `uid-${id}`,
  expires_at: new Date(Date.now() + 3_600_000),
  consumed_at: null,
});

/**
 * A token request's writes start before its answer is ready (`startFlush`, when the ID token's claims are asked);
 * the request's end (`flush`) waits for them and sends what came after, in order, before the answer leaves.
 */
describe.each(aboveModelDatabases)("a request's writes sent early on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database?.dispose());

  const stored = async (ids: string[]) =>
    (
      await database.handle.db.selectFrom("oidc_payloads").select("id").where("id", "in", ids).orderBy("id").execute()
    ).map(({ id }) => id);

  it("sends the early writes at once and the later ones at the end, each announced after its statement", async () => {
    const memory = new OidcRequestMemory(true);
    const announced: string[] = [];
    const statements: string[] = [];
    const stop = database.handle.onStatement((text) => statements.push(text));
    try {
      memory.upsert(row("early-1"), true);
      memory.afterFlush.push(() => announced.push("early"));
      memory.startFlush(database.handle.db);
      // A second start while the first is on its way sends nothing more.
      memory.startFlush(database.handle.db);
      memory.upsert(row("late-1"), true);
      memory.afterFlush.push(() => announced.push("late"));
      await memory.flush(database.handle.db);
    } finally {
      stop();
    }
    expect(await stored(["early-1", "late-1"])).toEqual(["early-1", "late-1"]);
    expect(statements).toHaveLength(2);
    expect(announced).toEqual(["early", "late"]);
    // Nothing left: the end of another request's flush sends nothing.
    await memory.flush(database.handle.db);
  });

  it("fails the request's end when the early writes failed, and still announces them", async () => {
    const memory = new OidcRequestMemory(true);
    const announced: string[] = [];
    memory.upsert(row("broken-1", "not json"), false);
    memory.afterFlush.push(() => announced.push("broken"));
    memory.startFlush(database.handle.db);
    memory.upsert(row("after-broken-1"), false);
    await expect(memory.flush(database.handle.db)).rejects.toThrow();
    expect(announced).toEqual(["broken"]);
    expect(await stored(["broken-1", "after-broken-1"])).toEqual([]);
  });
});
