import { describe, expect, it } from "vitest";
import { aloneInFlight, countProviderRequests } from "../../../src/protocols/oidc/requests-in-flight.ts";

describe("the provider requests in flight (a token request's write starts early only when alone)", () => {
  it("says a request is alone only while no other is being served, and counts a failed one out", async () => {
    const seen: boolean[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = countProviderRequests({}, async () => {
      seen.push(aloneInFlight());
      await held;
      seen.push(aloneInFlight());
    });
    const failing = countProviderRequests({}, async () => {
      seen.push(aloneInFlight());
      throw new Error("refused");
    });
    await expect(failing).rejects.toThrow("refused");
    release();
    await first;
    await countProviderRequests({}, async () => {
      seen.push(aloneInFlight());
    });
    expect(seen).toEqual([true, false, true, true]);
  });
});
