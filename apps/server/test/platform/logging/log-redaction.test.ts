import { describe, expect, it } from "vitest";
import { redactUrl } from "../../../src/platform/logging/redact-url.ts";

describe("request URLs in the log", () => {
  it("keep the path and harmless parameters and redact every other value (tokens, hints, request ids)", () => {
    const secrets = ["access-token-SECRET", "id-token-hint-SECRET", "4b7a1e0e-diia-request", "ticket-SECRET", "x%26y"];
    const urls = [
      `/oidc/me?access_token=${secrets[0]}`,
      `/oidc/session/end?id_token_hint=${secrets[1]}&client_id=demo`,
      `/api/diia/check-request?requestId=${secrets[2]}`,
      `/api/ticket?ticketId=${secrets[3]}&appId=app-1&unknown=${secrets[4]}`,
    ];
    const logged = urls.map(redactUrl);
    for (const secret of secrets) expect(logged.join("\n")).not.toContain(secret);
    expect(logged).toEqual([
      "/oidc/me?access_token=[redacted]",
      "/oidc/session/end?id_token_hint=[redacted]&client_id=demo",
      "/api/diia/check-request?requestId=[redacted]",
      "/api/ticket?ticketId=[redacted]&appId=app-1&unknown=[redacted]",
    ]);
    expect(redactUrl("/en/login")).toBe("/en/login");
  });
});
