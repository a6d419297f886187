import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { throttlePolicy } from "../../../src/platform/throttle/policy.ts";
import { createTestApp, postJson, type TestApp } from "../../support/app.ts";
import { addPerson, manualClock } from "../../support/campus.ts";
import { aboveModelDatabases } from "../../support/databases.ts";

const password = "correct horse battery staple";

/** What a client can observe of an answer, minus what differs on every request. */
function observable(response: LightMyRequestResponse) {
  const { date: _date, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.body };
}

describe.each(aboveModelDatabases)("password checks and throttling on %s", (kind) => {
  let t: TestApp;
  const clock = manualClock();
  // Each test signs in from its own address so the per-address counter of one does not leak into another.
  let addressCount = 0;
  const newAddress = () => `192.0.2.${++addressCount}`;
  const attempt = (username: string, pw: string, remoteAddress: string) =>
    postJson(t.app, "/api/auth", { username, password: pw }, { remoteAddress });

  beforeAll(async () => {
    t = await createTestApp(kind, {}, { protocols: [], clock: clock.now });
    await addPerson(t.app, { username: "petrenko", fullName: "Петро Петренко" }, password);
    await addPerson(t.app, { username: "guarded", fullName: "Охоронений" }, password);
    await addPerson(t.app, { username: "longpass", fullName: "Довгий Пароль" }, "x".repeat(1024));
  });
  afterAll(() => t.close());

  it("answers an unknown user and a wrong password identically, after the same hash check", async () => {
    // The sign-in checks in its turn of the line of argon2id checks: the turn's verify is what it calls.
    const verify = vi.fn<(passwordHash: string | null) => void>();
    const hasher = t.app.passwordHasher;
    const inTurn = hasher.inTurn;
    const spied = vi.spyOn(hasher, "inTurn").mockImplementation((work, abandoned) =>
      inTurn(
        (turn) =>
          work({
            verify: (passwordHash, presented) => {
              verify(passwordHash);
              return turn.verify(passwordHash, presented);
            },
          }),
        abandoned,
      ),
    );
    const address = newAddress();
    const unknown = await attempt("nobody-here", "wrong password", address);
    const wrong = await attempt("petrenko", "wrong password", address);
    expect(observable(unknown)).toEqual(observable(wrong));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      code: "auth.invalid_credentials",
      message: "Неправильне ім'я користувача або пароль.",
    });
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[0]?.[0]).toBeNull();
    expect(verify.mock.calls[1]?.[0]).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    spied.mockRestore();
  });

  it("slows an account down, then locks it, answering 429 with Retry-After, and lifts the lock in time", async () => {
    const rule = throttlePolicy.account;
    // Each failure from a fresh address, so only the account's counter is at work.
    for (let failure = 1; failure < rule.lock.afterFailures; failure++) {
      expect((await attempt("guarded", "guess", newAddress())).statusCode).toBe(401);
      const next = await attempt("guarded", password, newAddress());
      if (failure <= rule.freeFailures) {
        // Within the free failures the right password still works; that would reset the count, so
        // the next check is with a wrong password first.
        expect(next.statusCode).toBe(200);
        for (let again = 0; again < failure; again++) await attempt("guarded", "guess", newAddress());
        continue;
      }
      const delay = rule.firstDelaySeconds * 2 ** (failure - rule.freeFailures - 1);
      expect(next.statusCode).toBe(429);
      expect(next.json().code).toBe("auth.too_many_attempts");
      expect(next.headers["retry-after"]).toBe(String(delay));
      clock.advance(delay);
    }
    expect((await attempt("guarded", "guess", newAddress())).statusCode).toBe(401);
    const locked = await attempt("guarded", password, newAddress());
    expect(locked.statusCode).toBe(429);
    expect(locked.headers["retry-after"]).toBe(String(rule.lock.seconds));

    clock.advance(rule.lock.seconds - 1);
    expect((await attempt("guarded", password, newAddress())).headers["retry-after"]).toBe("1");
    clock.advance(1);
    expect((await attempt("guarded", password, newAddress())).statusCode).toBe(200);
    // The success cleared the count: a mistyped password is free again.
    for (let failure = 1; failure <= rule.freeFailures; failure++) {
      expect((await attempt("guarded", "guess", newAddress())).statusCode).toBe(401);
    }
    expect((await attempt("guarded", password, newAddress())).statusCode).toBe(200);
  });

  it("throttles an unknown username exactly like a real one", async () => {
    const statuses = async (username: string) => {
      const seen: string[] = [];
      for (let i = 0; i <= throttlePolicy.account.freeFailures + 1; i++) {
        const response = await attempt(username, "guess", newAddress());
        seen.push(`${response.statusCode}:${response.headers["retry-after"] ?? "-"}`);
      }
      return seen;
    };
    await addPerson(t.app, { username: "real-person", fullName: "Справжня Особа" }, password);
    const real = await statuses("real-person");
    const unknown = await statuses("no-such-person");
    expect(unknown).toEqual(real);
    expect(real.at(-1)).toBe("429:1");
  });

  it("counts concurrent guesses one after another, so a burst cannot outrun the delay", async () => {
    await addPerson(t.app, { username: "burst-target", fullName: "Ціль" }, password);
    const burst = await Promise.all(Array.from({ length: 12 }, () => attempt("burst-target", "guess", newAddress())));
    const statuses = burst.map((response) => response.statusCode).sort();
    const allowed = throttlePolicy.account.freeFailures + 1;
    expect(statuses).toEqual([...Array(allowed).fill(401), ...Array(12 - allowed).fill(429)]);
    clock.advance(60);
  });

  it("slows down one address guessing many accounts with growing delays, never a wall, and no other address", async () => {
    const address = newAddress();
    const rule = throttlePolicy.ip;
    // Hundreds of wrong guesses: the hash's cost is not what this test is about, so each is refused at once.
    const verify = vi.spyOn(t.app.passwordHasher, "verify").mockResolvedValue(false);
    for (let i = 0; i < rule.freeFailures + 1; i++) {
      expect((await attempt(`someone-${i}`, "guess", address)).statusCode).toBe(401);
    }
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const held = await attempt(`someone-else-${i}`, "guess", address);
      expect(held.statusCode).toBe(429);
      delays.push(Number(held.headers["retry-after"]));
      clock.advance(delays.at(-1) ?? 0);
      expect((await attempt(`someone-else-${i}`, "guess", address)).statusCode).toBe(401);
    }
    verify.mockRestore();
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, 60]);
    expect(Math.max(...delays)).toBe(rule.maxDelaySeconds);
    const blocked = await attempt("petrenko", password, address);
    expect(blocked.statusCode).toBe(429);
    expect((await attempt("petrenko", password, newAddress())).statusCode).toBe(200);
    clock.advance(rule.maxDelaySeconds);
    expect((await attempt("petrenko", password, address)).statusCode).toBe(200);
    clock.advance(rule.forgetAfterSeconds);
  });

  it("counts an IPv6 client by its /64, so rotating addresses inside it does not escape the delay", async () => {
    const rule = throttlePolicy.ip;
    const verify = vi.spyOn(t.app.passwordHasher, "verify").mockResolvedValue(false);
    for (let i = 0; i <= rule.freeFailures; i++) {
      const rotated = `2001:db8:1:2:${(i + 1).toString(16)}::${(i * 7 + 1).toString(16)}`;
      expect((await attempt(`v6-someone-${i}`, "guess", rotated)).statusCode).toBe(401);
    }
    verify.mockRestore();
    expect((await attempt("petrenko", password, "2001:db8:1:2:ffff:1:2:3")).statusCode).toBe(429);
    // The next /64 is another client.
    expect((await attempt("petrenko", password, "2001:db8:1:3::1")).statusCode).toBe(200);
    clock.advance(rule.forgetAfterSeconds);
  });

  it("keeps typed usernames out of the throttle table", async () => {
    const keys = (await t.app.db.selectFrom("throttle_counters").select("key").execute()).map((row) => row.key);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(" ")).not.toMatch(/petrenko|guarded|no-such-person|someone/);
  });

  it("accepts a 1024-character password whole, with no composition rules and no truncation", async () => {
    const long = "x".repeat(1024);
    expect((await attempt("longpass", long, newAddress())).statusCode).toBe(200);
    expect((await attempt("longpass", long.slice(0, 1023), newAddress())).statusCode).toBe(401);
    expect((await attempt("longpass", `${long.slice(0, 72)}`, newAddress())).statusCode).toBe(401);
    const tooLong = await attempt("longpass", `${long}x`, newAddress());
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().code).toBe("request.validation_failed");
  });
});
