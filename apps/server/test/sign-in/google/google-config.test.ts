import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/platform/config/index.ts";

const base = { DATA_DIR: "/tmp/kpi-id-config-test", SESSION_SECRET: "Zq8v1Lr0-P4w9sTt7Ue2Kx5Yb3Nc6Md!a" };
const production = { ...base, NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua" };

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("Google configuration", () => {
  it("is off until both the client id and secret are set", () => {
    expect(loadConfig(base).google).toBeUndefined();
  });

  it("uses Google's issuer by default", () => {
    const config = loadConfig({
      ...base,
      GOOGLE_CLIENT_ID: "id.apps.googleusercontent.com",
      GOOGLE_CLIENT_SECRET: "s",
    });
    expect(config.google).toEqual({
      issuer: "https://accounts.google.com",
      clientId: "id.apps.googleusercontent.com",
      clientSecret: "s",
      hostedDomains: [],
    });
  });

  it("reads the university's Workspace domains as a lower-case list and refuses what is not a domain", () => {
    const google = { GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" };
    const config = loadConfig({ ...base, ...google, GOOGLE_HOSTED_DOMAINS: " kpi.ua, LLL.kpi.ua ,," });
    expect(config.google?.hostedDomains).toEqual(["kpi.ua", "lll.kpi.ua"]);
    expect(errorOf({ ...base, ...google, GOOGLE_HOSTED_DOMAINS: "kpi.ua,@gmail.com" })).toMatch(
      /^GOOGLE_HOSTED_DOMAINS\.1: must be a comma-separated list of domain names/,
    );
  });

  it("names the missing half when only one of id and secret is set", () => {
    expect(errorOf({ ...base, GOOGLE_CLIENT_ID: "id" })).toBe(
      "GOOGLE_CLIENT_SECRET: is required when GOOGLE_CLIENT_ID is set",
    );
    expect(errorOf({ ...base, GOOGLE_CLIENT_SECRET: "s" })).toBe(
      "GOOGLE_CLIENT_ID: is required when GOOGLE_CLIENT_SECRET is set",
    );
  });

  it("refuses a plain http issuer in production and a non-URL anywhere", () => {
    const google = { GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" };
    expect(errorOf({ ...production, ...google, GOOGLE_ISSUER: "http://accounts.example.org" })).toBe(
      "GOOGLE_ISSUER: must be an https:// address in production",
    );
    expect(errorOf({ ...base, ...google, GOOGLE_ISSUER: "accounts.google.com" })).toMatch(/^GOOGLE_ISSUER: /);
    expect(loadConfig({ ...base, ...google, GOOGLE_ISSUER: "http://localhost:3001/" }).google?.issuer).toBe(
      "http://localhost:3001",
    );
  });
});
