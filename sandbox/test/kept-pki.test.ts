/// <reference types="@kpi-id/server/dstu-modules" />
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import gost89 from "gost89";
import { afterAll, describe, expect, it } from "vitest";
import { createCertificateAuthority, issuePersonCertificate, type Party } from "../src/diia/pki.ts";
import { keptPki, madeFrom } from "../src/kept-pki.ts";

// `npm start` keeps the stand-ins' keys and certificates in DATA_DIR (issue 62: making them was about a quarter of
// a second start). A kept set must come back as it was made, with keys that still sign for their certificates, and
// must be made again whenever it could be wrong: made from other sources, close to expiry, or damaged.

interface TestSet {
  ca: Party;
  people: { id: string; party: Party }[];
  revoked: Party[];
  byName: Map<string, Party>;
}

const dayMs = 24 * 60 * 60 * 1000;

function makeSet(): TestSet {
  const ca = createCertificateAuthority("Kept-set test CA");
  const person = issuePersonCertificate(ca, {
    taxId: "1111111111",
    surname: "Тест",
    givenName: "Кейт",
    patronymic: "",
  });
  return { ca, people: [{ id: "person", party: person }], revoked: [person], byName: new Map([["ca", ca]]) };
}

describe("the stand-ins' kept keys and certificates", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "kpi-id-kept-pki-"));
  const file = join(dataDir, "sandbox", "test-pki.json");
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  let made = 0;
  const fingerprint = madeFrom([new URL("../src/diia/pki.ts", import.meta.url)], { purpose: "test" });
  const kept = (options: { fingerprint?: string; now?: number } = {}) =>
    keptPki({
      dataDir,
      name: "test-pki",
      fingerprint: options.fingerprint ?? fingerprint,
      ...(options.now === undefined ? {} : { now: options.now }),
      make: () => {
        made += 1;
        return makeSet();
      },
    });

  it("makes a set every time when there is no DATA_DIR, and writes nothing", () => {
    let calls = 0;
    const make = () => {
      calls += 1;
      return { call: calls };
    };
    expect(keptPki({ dataDir: undefined, name: "nowhere", fingerprint, make })).toEqual({ call: 1 });
    expect(keptPki({ dataDir: undefined, name: "nowhere", fingerprint, make })).toEqual({ call: 2 });
    expect(existsSync(join(dataDir, "sandbox"))).toBe(false);
  });

  it("makes and keeps a set at the first start, readable by its owner only", () => {
    kept();
    expect(made).toBe(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, "sandbox")).mode & 0o777).toBe(0o700);
  }, 30_000);

  it("gives the kept set back at the next start: the same certificates, keys that sign for them", () => {
    const first = JSON.parse(readFileSync(file, "utf8")) as { parties: { certificate: string }[] };
    const set = kept();
    expect(made).toBe(1);
    expect(set.ca.certificate.as_asn1().toString("base64")).toBe(first.parties[0]?.certificate);
    const person = set.people[0]?.party as Party;
    // One party in two places stays one object, as the CRL's revoked list and the phone page's persona are.
    expect(set.revoked[0]).toBe(person);
    expect(set.byName.get("ca")).toBe(set.ca);
    const digest = gost89.gosthash(Buffer.from("a sign-in"));
    const signature = person.key.sign(digest, "le");
    expect(person.certificate.pubkey_unpack().verify(digest, signature, "le")).toBe(true);
    expect(set.ca.certificate.pubkey_unpack().verify(digest, signature, "le")).toBe(false);
  });

  it("makes a new set when the sources or inputs that make it changed", () => {
    const other = madeFrom([new URL("../src/diia/pki.ts", import.meta.url)], { purpose: "another" });
    kept({ fingerprint: other });
    expect(made).toBe(2);
    // and keeps that one in its place
    kept({ fingerprint: other });
    expect(made).toBe(2);
  }, 30_000);

  it("makes a new set when a certificate in it has less than a month left", () => {
    const set = kept();
    expect(made).toBe(3);
    const earliestEnd = Math.min(set.ca.certificate.valid.to, set.people[0]?.party.certificate.valid.to ?? 0);
    kept({ now: earliestEnd - 40 * dayMs });
    expect(made).toBe(3);
    kept({ now: earliestEnd - 20 * dayMs });
    expect(made).toBe(4);
  }, 30_000);

  it("makes a new set over a damaged file", () => {
    writeFileSync(file, '{"format":1,"madeFrom":"');
    kept();
    expect(made).toBe(5);
    expect(existsSync(file)).toBe(true);
    kept();
    expect(made).toBe(5);
  }, 30_000);
});
