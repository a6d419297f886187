import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDiiaStandIn } from "../../../../../sandbox/src/diia/index.ts";
import { DiiaApiError, DiiaClient } from "../../../src/sign-in/diia/client.ts";
import { hashRequestId } from "../../../src/sign-in/diia/crypto/gost-hash.ts";
import { startTestDiia } from "../../support/diia.ts";

describe("Diia partner API client", () => {
  let diia: RunningDiiaStandIn;
  let now = new Date("2026-03-01T10:00:00Z");
  const tokenCalls: string[] = [];

  // Counts session-token calls on their way to the stand-in.
  const countingFetch: typeof fetch = (input, init) => {
    const url = String(input);
    if (url.includes("/api/v1/auth/acquirer/")) tokenCalls.push(url);
    return fetch(input, init);
  };

  const newClient = (acquirerToken = diia.env.DIIA_ACQUIRER_TOKEN ?? "") =>
    new DiiaClient({
      config: { baseUrl: diia.url, acquirerToken },
      fetch: countingFetch,
      clock: () => now,
    });

  const deepLink = (client: DiiaClient) =>
    client.createDeepLink(diia.env.DIIA_BRANCH_ID ?? "", {
      offerId: diia.env.DIIA_OFFER_ID ?? "",
      requestId: hashRequestId(crypto.randomUUID()),
    });

  beforeAll(async () => {
    diia = await startTestDiia();
  });
  afterAll(async () => diia?.close());

  it("reuses the session token and renews it before its two hours end", async () => {
    tokenCalls.length = 0;
    const client = newClient();
    await deepLink(client);
    await deepLink(client);
    expect(tokenCalls).toHaveLength(1);
    now = new Date(now.getTime() + 100 * 60 * 1000); // 1 h 40 min: still fine
    await deepLink(client);
    expect(tokenCalls).toHaveLength(1);
    now = new Date(now.getTime() + 15 * 60 * 1000); // 1 h 55 min: renewed ahead of the end
    await deepLink(client);
    expect(tokenCalls).toHaveLength(2);
  });

  it("asks for a new token and retries once when Diia answers 401", async () => {
    tokenCalls.length = 0;
    const client = newClient();
    await deepLink(client);
    diia.state.sessions.clear(); // Diia forgot the session (restart, revocation)
    await expect(deepLink(client)).resolves.toMatch(/^http/);
    expect(tokenCalls).toHaveLength(2);
  });

  it("gives up after one retry and never puts the acquirer token in the error", async () => {
    const client = newClient("wrong-acquirer-token");
    const failure = await deepLink(client).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiiaApiError);
    expect((failure as DiiaApiError).status).toBe(401);
    expect((failure as Error).message).not.toContain("wrong-acquirer-token");
  });

  it("reports an unreachable Diia as a DiiaApiError", async () => {
    const client = new DiiaClient({ config: { baseUrl: "http://127.0.0.1:9", acquirerToken: "secret-token" } });
    const failure = await client.sessionToken().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiiaApiError);
    expect((failure as Error).message).not.toContain("secret-token");
  });
});
