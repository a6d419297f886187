import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/platform/config/index.ts";

const base = { DATA_DIR: "/tmp/kpi-id-config-test", SESSION_SECRET: "Zq8v1Lr0-P4w9sTt7Ue2Kx5Yb3Nc6Md!a" };
const production = { ...base, NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua" };
const bankId = {
  BANKID_BASE_URL: "https://testid.bank.gov.ua/",
  BANKID_CLIENT_ID: "kpi-id",
  BANKID_CLIENT_SECRET: "client-secret",
  BANKID_KEY: "-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----",
  BANKID_CERTIFICATE: "/etc/kpi-id/bankid-encryption.cer",
  BANKID_TRUST_ANCHORS: "/etc/kpi-id/qualified-cas.pem",
};

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

function without(name: keyof typeof bankId): Record<string, string> {
  const { [name]: _left, ...rest } = bankId;
  return { ...base, ...rest };
}

describe("BankID NBU configuration", () => {
  it("is off without BANKID_BASE_URL, and reads V1, no picker and redirect_uri sent by default", () => {
    expect(loadConfig(base).bankId).toBeUndefined();
    expect(loadConfig({ ...base, ...bankId }).bankId).toMatchObject({
      baseUrl: "https://testid.bank.gov.ua",
      clientId: "kpi-id",
      key: { pem: bankId.BANKID_KEY },
      version: "v1",
      bankPicker: false,
      sendRedirectUri: true,
      banksCacheSeconds: 300,
      crls: [],
    });
  });

  it("names the first missing variable", () => {
    for (const name of [
      "BANKID_CLIENT_ID",
      "BANKID_CLIENT_SECRET",
      "BANKID_CERTIFICATE",
      "BANKID_TRUST_ANCHORS",
    ] as const)
      expect(errorOf(without(name))).toBe(`${name}: is required when BANKID_BASE_URL is set`);
    expect(errorOf(without("BANKID_KEY"))).toMatch(/^BANKID_KEY: is required when BANKID_BASE_URL is set/);
    expect(errorOf(without("BANKID_BASE_URL"))).toBe("BANKID_BASE_URL: is required when BANKID_CLIENT_ID is set");
  });

  it("takes a key container with its password instead of a PEM key, not both", () => {
    const container = { ...without("BANKID_KEY"), BANKID_KEY_CONTAINER: "/etc/kpi-id/Key-6.dat" };
    expect(errorOf(container)).toBe("BANKID_KEY_PASSWORD: is required when BANKID_KEY_CONTAINER is set");
    expect(loadConfig({ ...container, BANKID_KEY_PASSWORD: "p" }).bankId?.key).toEqual({
      containerPath: "/etc/kpi-id/Key-6.dat",
      password: "p",
    });
    expect(errorOf({ ...base, ...bankId, BANKID_KEY_CONTAINER: "/k" })).toBe(
      "BANKID_KEY and BANKID_KEY_CONTAINER: set one of them, not both",
    );
  });

  it("asks V2 for its dataset and refuses anything but v1 or v2", () => {
    expect(errorOf({ ...base, ...bankId, BANKID_VERSION: "v2" })).toMatch(/^BANKID_DATASET: is required/);
    expect(loadConfig({ ...base, ...bankId, BANKID_VERSION: "v2", BANKID_DATASET: "51" }).bankId).toMatchObject({
      version: "v2",
      dataset: "51",
    });
    expect(errorOf({ ...base, ...bankId, BANKID_VERSION: "v3" })).toMatch(/^BANKID_VERSION: /);
    expect(errorOf({ ...base, ...bankId, BANKID_DATASET: "fifty" })).toMatch(/^BANKID_DATASET: /);
  });

  it("reads the bank picker switch", () => {
    expect(loadConfig({ ...base, ...bankId, BANKID_BANK_PICKER: "true" }).bankId?.bankPicker).toBe(true);
  });

  it("refuses a plain http host or CRL URL in production, but not on loopback", () => {
    expect(errorOf({ ...production, ...bankId, BANKID_BASE_URL: "http://id.bank.gov.ua" })).toBe(
      "BANKID_BASE_URL: must be an https:// address in production",
    );
    expect(errorOf({ ...production, ...bankId, BANKID_CRLS: "/etc/ca.crl,http://ca.example.org/ca.crl" })).toBe(
      "BANKID_CRLS: must be an https:// address in production",
    );
    expect(loadConfig({ ...production, ...bankId, BANKID_BASE_URL: "http://127.0.0.1:5004" }).bankId?.baseUrl).toBe(
      "http://127.0.0.1:5004",
    );
  });
});
