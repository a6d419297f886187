import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/platform/config/index.ts";

const strongSecret = "Zq8v1Lr0-P4w9sTt7Ue2Kx5Yb3Nc6Md!a";

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: "/tmp/kpi-id-config-test", ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("configuration", () => {
  it("defaults to port 3000, the embedded database and sandbox mode outside production", () => {
    const config = loadConfig({ DATA_DIR: "/tmp/kpi-id-config-test", SESSION_SECRET: strongSecret });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.database.url).toBeUndefined();
    expect(config.sandbox).toBe(true);
    expect(config.seedDemoData).toBe(false);
    expect(config.secureCookies).toBe(false);
  });

  it("names the variable and the problem in one line", () => {
    const message = errorOf({ PORT: "not-a-port" });
    expect(message).toMatch(/^PORT: /);
    expect(message).not.toContain("\n");
    expect(errorOf({ DATABASE_URL: "mysql://x" })).toMatch(/^DATABASE_URL: /);
    expect(errorOf({ PUBLIC_URL: "ftp://campus" })).toMatch(/^PUBLIC_URL: /);
  });

  it("refuses short secrets everywhere and example secrets in production", () => {
    expect(errorOf({ SESSION_SECRET: "short" })).toMatch(/^SESSION_SECRET: must be at least 32/);
    const production = { NODE_ENV: "production", PUBLIC_URL: "https://id.kpi.ua", DATABASE_URL: "postgres://db/kpi" };
    expect(errorOf({ ...production })).toMatch(/^SESSION_SECRET: is required/);
    expect(errorOf({ ...production, SESSION_SECRET: "change-me-change-me-change-me-change-me" })).toMatch(
      /^SESSION_SECRET: is still the example value/,
    );
    expect(errorOf({ ...production, SESSION_SECRET: "a".repeat(40) })).toMatch(/^SESSION_SECRET: is too repetitive/);
  });

  it("refuses sandbox mode and demo data in production, and needs PUBLIC_URL there", () => {
    const production = { NODE_ENV: "production", SESSION_SECRET: strongSecret, DATABASE_URL: "postgres://db/kpi" };
    expect(errorOf(production)).toMatch(/^PUBLIC_URL: is required/);
    const withUrl = { ...production, PUBLIC_URL: "https://id.kpi.ua" };
    expect(errorOf({ ...withUrl, SANDBOX: "true" })).toMatch(/^SANDBOX: /);
    expect(errorOf({ ...withUrl, SEED_DEMO_DATA: "true" })).toMatch(/^SEED_DEMO_DATA: /);
    expect(errorOf({ ...withUrl, SMTP_URL: "smtp://127.0.0.1:2525", MAIL_SANDBOX: "true" })).toMatch(/^MAIL_SANDBOX: /);
    expect(loadConfig({ ...withUrl, SMTP_URL: "smtps://relay.kpi.ua:465" }).mail?.smtpUrl).toBe(
      "smtps://relay.kpi.ua:465",
    );
    expect(errorOf({ ...withUrl, SMTP_URL: "https://relay.kpi.ua" })).toMatch(/^SMTP_URL: /);
    const config = loadConfig(withUrl);
    expect(config.sandbox).toBe(false);
    expect(config.seedDemoData).toBe(false);
    expect(config.secureCookies).toBe(true);
  });

  it("reads DIIA_CRLS as a list of files and URLs; plain http (where CAs publish signed CRLs) is allowed in production", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: strongSecret,
      DATABASE_URL: "postgres://db/kpi",
      PUBLIC_URL: "https://id.kpi.ua",
      DIIA_BASE_URL: "https://api2.diia.gov.ua",
      DIIA_ACQUIRER_TOKEN: "acquirer-token",
    };
    const config = loadConfig({
      ...production,
      DIIA_CRLS: " /etc/kpi-id/ca.crl , https://ca.example.ua/download/crls/CA.crl,http://localhost:3002/pki/ca.crl",
    });
    expect(config.diia?.crls).toEqual([
      "/etc/kpi-id/ca.crl",
      "https://ca.example.ua/download/crls/CA.crl",
      "http://localhost:3002/pki/ca.crl",
    ]);
    expect(config.diia?.crlGraceSeconds).toBe(86400);
    expect(loadConfig(production).diia?.crls).toEqual([]);
    const plainHttp = loadConfig({ ...production, DIIA_CRLS: "/etc/kpi-id/ca.crl,http://ca.example.ua/CA.crl" });
    expect(plainHttp.diia?.crls).toEqual(["/etc/kpi-id/ca.crl", "http://ca.example.ua/CA.crl"]);
    expect(errorOf({ ...production, DIIA_CRLS: "ftp://ca.example.ua/CA.crl" })).toBe(
      "DIIA_CRLS: a URL must be http:// or https://",
    );
    // OCSP responders: plain http as the CAs publish them (answers are signed), or "aia" (the certificate's own).
    const ocsp = loadConfig({ ...production, DIIA_OCSP: "http://czo.gov.ua/services/ocsp/, aia" });
    expect(ocsp.diia?.ocsp).toEqual(["http://czo.gov.ua/services/ocsp/", "aia"]);
    expect(loadConfig(production).diia?.ocsp).toEqual([]);
    for (const wrong of ["/etc/kpi-id/ocsp", "ldap://czo.gov.ua", "AIA"])
      expect(errorOf({ ...production, DIIA_OCSP: wrong })).toBe(
        'DIIA_OCSP: each entry must be an http:// or https:// URL, or "aia"',
      );
  });

  it("stops the start when Diia is to be asked for a signature algorithm KPI ID cannot verify", () => {
    const diia = {
      SESSION_SECRET: strongSecret,
      DIIA_BASE_URL: "https://api2.diia.gov.ua",
      DIIA_ACQUIRER_TOKEN: "acquirer-token",
    };
    expect(loadConfig({ DATA_DIR: "/tmp/kpi-id-config-test", ...diia, DIIA_SIGN_ALGO: "DSTU" }).diia).toBeDefined();
    expect(errorOf({ ...diia, DIIA_SIGN_ALGO: "ECDSA" })).toMatch(
      /^DIIA_SIGN_ALGO: "ECDSA" is not supported; only DSTU .* Ask Diia for signAlgo DSTU/,
    );
    expect(errorOf({ ...diia, DIIA_SIGN_ALGO: "DSTU7564" })).toMatch(/^DIIA_SIGN_ALGO: "DSTU7564" is not supported/);
  });

  it("refuses in production a plain http address for the service and for every outside service it calls", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: strongSecret,
      DATABASE_URL: "postgres://db/kpi",
      PUBLIC_URL: "https://id.kpi.ua",
    };
    expect(errorOf({ ...production, PUBLIC_URL: "http://id.kpi.ua" })).toBe(
      "PUBLIC_URL: must be an https:// address in production",
    );
    const diia = { DIIA_ACQUIRER_TOKEN: "acquirer-token" };
    expect(errorOf({ ...production, ...diia, DIIA_BASE_URL: "http://api2.diia.gov.ua" })).toBe(
      "DIIA_BASE_URL: must be an https:// address in production",
    );
    expect(loadConfig({ ...production, ...diia, DIIA_BASE_URL: "https://api2.diia.gov.ua" }).diia?.baseUrl).toBe(
      "https://api2.diia.gov.ua",
    );
    // A loopback address never leaves the machine (a proxy or stand-in beside the service).
    expect(loadConfig({ ...production, PUBLIC_URL: "http://127.0.0.1:8080" }).secureCookies).toBe(false);
    expect(loadConfig({ ...production, ...diia, DIIA_BASE_URL: "http://localhost:3002" }).diia?.baseUrl).toBe(
      "http://localhost:3002",
    );
    // Outside production http stays possible for development.
    expect(loadConfig({ SESSION_SECRET: strongSecret, PUBLIC_URL: "http://campus.test" }).publicUrl).toBe(
      "http://campus.test",
    );
  });

  it("TRUST_PROXY: refuses a bare true in production, and anything but addresses, CIDRs or a hop count", () => {
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: strongSecret,
      DATABASE_URL: "postgres://db/kpi",
      PUBLIC_URL: "https://id.kpi.ua",
    };
    expect(errorOf({ ...production, TRUST_PROXY: "true" })).toMatch(/^TRUST_PROXY: "true" believes any client's/);
    expect(errorOf({ TRUST_PROXY: "10.0.0.1,proxy.example" })).toBe(
      'TRUST_PROXY: "proxy.example" is not an address, a CIDR or a hop count',
    );
    expect(errorOf({ TRUST_PROXY: "10.0.0.0/33" })).toMatch(/^TRUST_PROXY: "10.0.0.0\/33"/);
    expect(loadConfig({ ...production, TRUST_PROXY: "10.0.0.0/8, fd00::/8,loopback" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "fd00::/8",
      "loopback",
    ]);
    expect(loadConfig({ ...production, TRUST_PROXY: "1" }).trustProxy).toBe(1);
    // compose.yaml's and the cluster harness's values stay valid.
    expect(loadConfig({ ...production, TRUST_PROXY: "172.16.0.0/12" }).trustProxy).toEqual(["172.16.0.0/12"]);
    expect(
      loadConfig({ ...production, PUBLIC_URL: "http://127.0.0.1:8080", TRUST_PROXY: "127.0.0.1" }).trustProxy,
    ).toEqual(["127.0.0.1"]);
  });
});
