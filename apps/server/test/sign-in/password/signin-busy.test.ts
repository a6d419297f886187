import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

// The bounded line of argon2id checks (issue 80): a burst past it is refused with the stable 429
// `request.rate_limited` and a Retry-After, never a 500, and an unknown username waits and hashes like a known one.
const password = "correct horse battery staple";
const waitMs = 3000;

describe.each(aboveModelDatabases)("password sign-ins when the instance is busy on %s", (kind) => {
  let t: TestApp;
  let addressCount = 0;
  const attempt = (username: string, pw = password) =>
    postJson(t.app, "/api/auth", { username, password: pw }, { remoteAddress: `198.51.100.${++addressCount}` });

  /** Holds the only turn of the line until the returned function is called. */
  function holdTheLine(): () => void {
    let release = () => {};
    void t.app.passwordHasher.inTurn(() => new Promise<void>((resolve) => (release = resolve)));
    return () => release();
  }

  /** Until a sign-in waits in the line (its user looked up first), so what follows finds the line full. */
  async function oneWaiting(): Promise<void> {
    while (t.app.passwordHasher.queue.waiting < 1) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** argon2id checks made so far, from the instance's metrics. */
  const argon2Checks = async () => {
    const text = await t.app.metrics.registry.metrics();
    return Number(/^kpi_id_password_check_seconds_count\{phase="argon2"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      {
        PASSWORD_CHECKS_PARALLEL: "1",
        PASSWORD_CHECKS_WAITING: "1",
        PASSWORD_CHECK_WAIT_MS: String(waitMs),
      },
      { protocols: [] },
    );
    await addPerson(t.app, { username: "petrenko", fullName: "Петро Петренко" }, password);
  });
  afterAll(() => t.close());

  it("refuses a burst past the line with 429 request.rate_limited and Retry-After, and lets the admitted ones in", async () => {
    const release = holdTheLine();
    const waiting = attempt("petrenko");
    await oneWaiting();
    const burst = await Promise.all(Array.from({ length: 4 }, () => attempt("petrenko")));
    for (const refused of burst) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe("request.rate_limited");
      expect(refused.headers["retry-after"]).toBe(String(waitMs / 1000));
    }
    release();
    expect((await waiting).statusCode).toBe(200);
    // Refused before their attempt was counted: the account is not slowed by the instance's busy moment.
    expect((await attempt("petrenko")).statusCode).toBe(200);
  });

  it("answers a burst of concurrent sign-ins with 200 or 429, never a 5xx", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => attempt("petrenko")));
    for (const answer of answers) {
      expect([200, 429]).toContain(answer.statusCode);
      if (answer.statusCode === 429) expect(answer.json().code).toBe("request.rate_limited");
    }
    expect(answers.some((answer) => answer.statusCode === 200)).toBe(true);
  });

  it("makes an unknown username wait its turn and hash like a known one", async () => {
    const before = await argon2Checks();
    const unknown = await attempt("nobody-here", "a wrong password");
    expect(unknown.statusCode).toBe(401);
    expect(await argon2Checks()).toBe(before + 1);
    const wrong = await attempt("petrenko", "a wrong password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(await argon2Checks()).toBe(before + 2);

    const release = holdTheLine();
    const waitingUnknown = attempt("nobody-here");
    await oneWaiting();
    const refusedUnknown = await attempt("someone-else");
    const refusedKnown = await attempt("petrenko");
    expect(refusedUnknown.statusCode).toBe(429);
    expect(refusedKnown.statusCode).toBe(429);
    expect(refusedUnknown.json()).toEqual(refusedKnown.json());
    release();
    expect((await waitingUnknown).statusCode).toBe(401);
  });
});
