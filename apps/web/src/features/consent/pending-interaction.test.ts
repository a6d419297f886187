import { afterEach, describe, expect, it } from "vitest";
import {
  clearPendingInteraction,
  interactionUrl,
  readPendingInteraction,
  rememberInteraction,
} from "./pending-interaction.ts";

describe("a waiting OpenID Connect sign-in", () => {
  afterEach(() => window.sessionStorage.clear());

  it("is read from ?oidc= and remembered for sign-ins that leave the page", () => {
    expect(readPendingInteraction("?oidc=abc_DEF-123")).toBe("abc_DEF-123");
    rememberInteraction("?oidc=abc_DEF-123");
    expect(readPendingInteraction("")).toBe("abc_DEF-123");
    clearPendingInteraction();
    expect(readPendingInteraction("")).toBeUndefined();
  });

  it("is forgotten after ten minutes, so a stale one never hijacks a later sign-in", () => {
    rememberInteraction("?oidc=old");
    expect(readPendingInteraction("", Date.now() + 9 * 60_000)).toBe("old");
    expect(readPendingInteraction("", Date.now() + 11 * 60_000)).toBeUndefined();
  });

  it("ignores ids that are not the provider's uid shape (no path or URL can be smuggled in)", () => {
    for (const bad of ["../../evil", "https://evil.example", "a b", "x".repeat(65)]) {
      rememberInteraction(`?oidc=${encodeURIComponent(bad)}`);
      expect(readPendingInteraction(`?oidc=${encodeURIComponent(bad)}`)).toBeUndefined();
    }
    expect(interactionUrl("abc")).toBe("/api/oidc/interaction/abc");
  });
});
