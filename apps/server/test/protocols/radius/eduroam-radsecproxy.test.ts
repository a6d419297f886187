// The shipped deploy/freeradius/radsecproxy.conf, as an operator fills it in (docs/eduroam.md, "Visitors"): the
// eduroam test runs radsecproxies of its own making, so this is what checks the file operators copy.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCertificates, shippedFreeradius } from "../../support/freeradius.ts";

const radsecproxy = "/usr/sbin/radsecproxy";
let dir: string;
let certs: string;
const shipped = readFileSync(join(shippedFreeradius, "radsecproxy.conf"), "utf8");

/** What the operator writes for each `<…>`: IP addresses, so the check needs no DNS. */
const values: Record<string, string> = {
  "<RADSECPROXY_SECRET, the same as FreeRADIUS's environment>": "radsecproxy-loopback-secret-0123",
  "<RADIUS_LOCAL_CLIENT_SECRET>": "local-client-secret-0123",
  "<the national proxy's address>": "192.0.2.10",
  "<the national proxy's name>": "192.0.2.11",
};

/** The certificates the national roaming operator issues, put where the file expects them (here: the test's). */
const withCertificates = (text: string) =>
  text
    .replace("/etc/kpi-id/radsec/national-ca.pem", join(certs, "ca.pem"))
    .replace("/etc/kpi-id/radsec/kpi.ua.pem", join(certs, "radsec-local.pem"))
    .replace("/etc/kpi-id/radsec/kpi.ua.key", join(certs, "radsec-local.key"));

const filledIn = (text: string) =>
  Object.entries(values).reduce((filled, [placeholder, value]) => filled.replaceAll(placeholder, value), text);

/**
 * radsecproxy -p ("pretend"): reads the file and sets up TLS as it would, then exits before opening sockets.
 * Its exit code alone is not enough: certificates it cannot read are reported ("Error initialising SSL/TLS in TLS
 * context …") and it still exits 0 (radsecproxy 1.9.2), so a file is accepted only when it also says no error.
 */
function pretend(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text, { mode: 0o600 });
  const run = spawnSync(radsecproxy, ["-p", "-c", file], { encoding: "utf8", timeout: 30_000 });
  const output = `${run.stdout}${run.stderr}`;
  return { ...run, output, accepted: run.error === undefined && run.status === 0 && !/error/i.test(output) };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kpi-id-radsecproxy-"));
  certs = join(dir, "pki");
  makeCertificates(certs);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the shipped radsecproxy.conf", () => {
  it("names every value the operator must fill in, and nothing else in <…>", () => {
    const placeholders = [...shipped.matchAll(/<[^>\n]+>/g)].map((match) => match[0]);
    // The comment's "<…>" tells the operator what to look for; every other one is a value.
    expect(new Set(placeholders.filter((each) => each !== "<…>"))).toEqual(new Set(Object.keys(values)));
  });

  it("is accepted by radsecproxy -p once the <…> values and the certificates are in place", () => {
    const text = filledIn(withCertificates(shipped));
    expect(text).not.toMatch(/<[^>\n…]+>/);
    const check = pretend("filled.conf", text);
    expect(check.accepted, check.output).toBe(true);
  });

  it("is refused as shipped (its placeholders) and without the certificates: the check can fail", () => {
    const asShipped = pretend("shipped.conf", withCertificates(shipped));
    expect(asShipped.accepted).toBe(false);
    expect(asShipped.output).toMatch(/configuration error in block client freeradius/i);
    const noCertificates = pretend("no-certificates.conf", filledIn(shipped));
    expect(noCertificates.accepted).toBe(false);
    expect(noCertificates.output).toMatch(/Error initialising SSL\/TLS in TLS context national/);
  });

  it("sends kpi.ua to FreeRADIUS and every other realm to the national proxy, kpi.ua first", () => {
    const realms = [...shipped.matchAll(/^realm (\S+) \{\s*\n\s*server (\S+)/gm)].map((match) => [match[1], match[2]]);
    expect(realms).toEqual([
      ["/@kpi\\.ua$", "kpi-id-freeradius"],
      ["*", "national-1"],
    ]);
  });
});
