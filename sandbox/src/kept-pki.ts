/// <reference types="@kpi-id/server/dstu-modules" />
// The stand-ins' keys and certificates, kept in DATA_DIR from one `npm start` to the next. Making them is DSTU 4145
// arithmetic in JavaScript: the Diia set (three CAs, a key and certificate per persona) and the BankID set (a CA,
// eight bank keys, KPI ID's) were about 4 s of a loaded machine's 16 s in a second start's profile (issue 62),
// and new CAs each start also made the service refuse the CRLs it had stored from the last one. A kept set is
// used only when it was made from the same sources (the files that make it, and what they are given: the demo
// people, the curve) and every certificate in it stays valid for at least another month; else a new set is
// made and kept. Without a DATA_DIR (the tests' stand-ins) nothing is kept: each process makes its own.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import jkurwa, { type Certificate } from "jkurwa";
import type { Party } from "./diia/pki.ts";

/** Bumped when the stored form changes, so an older file is remade rather than misread. */
const storedFormat = 2;
const monthMs = 30 * 24 * 60 * 60 * 1000;

interface StoredParty {
  curve: string;
  /** The private scalar, hex. */
  key: string;
  /** DER, base64. */
  certificate: string;
  /** The certificate's notAfter (ms), so that a set is judged current without parsing every certificate. */
  validTo: number;
  name: Record<string, string>;
}

type Encoded =
  | null
  | boolean
  | number
  | string
  | Encoded[]
  | { party: number }
  | { map: [string, Encoded][] }
  | { object: Record<string, Encoded> };

interface StoredSet {
  format: number;
  madeFrom: string;
  parties: StoredParty[];
  value: Encoded;
}

function isParty(value: object): value is Party {
  return "key" in value && "certificate" in value && "name" in value;
}

/** The set as JSON: each party once (a persona's and the CRL's revoked one are the same object), Maps kept. */
function encode(value: unknown, parties: Map<Party, number>): Encoded {
  if (value === null || typeof value !== "object") {
    if (value === undefined || typeof value === "function" || typeof value === "symbol" || typeof value === "bigint")
      throw new Error(`kept-pki: cannot keep a ${typeof value}`);
    return value as boolean | number | string | null;
  }
  if (Array.isArray(value)) return value.map((each) => encode(each, parties));
  if (value instanceof Map) return { map: [...value].map(([key, each]) => [String(key), encode(each, parties)]) };
  if (isParty(value)) {
    if (!parties.has(value)) parties.set(value, parties.size);
    return { party: parties.get(value) as number };
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) throw new Error("kept-pki: cannot keep a class instance");
  return { object: Object.fromEntries(Object.entries(value).map(([key, each]) => [key, encode(each, parties)])) };
}

function decode(value: Encoded, parties: Party[]): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((each) => decode(each, parties));
  if ("party" in value) {
    const party = parties[value.party];
    if (!party) throw new Error(`kept-pki: no party ${value.party}`);
    return party;
  }
  if ("map" in value) return new Map(value.map.map(([key, each]) => [key, decode(each, parties)]));
  return Object.fromEntries(Object.entries(value.object).map(([key, each]) => [key, decode(each, parties)]));
}

function storeParty(party: Party): StoredParty {
  return {
    curve: party.key.curve.name(),
    key: Buffer.from(party.key.d.buf8()).toString("hex"),
    certificate: party.certificate.as_asn1().toString("base64"),
    validTo: party.certificate.valid.to,
    name: party.name,
  };
}

/**
 * A kept party; its certificate is parsed when first used. jkurwa's parser unpacks the public key (a point
 * decompression in JavaScript), 0.35 s for the Diia and BankID sets, while a start uses a few of them (the CAs',
 * KPI ID's): the personas' wait for their first sign-in. The file is written whole (a rename), so a certificate
 * that no longer parses is one edited by hand.
 */
function restoreParty(stored: StoredParty): Party {
  let certificate: Certificate | undefined;
  return {
    key: jkurwa.std_curve(stored.curve).pkey(Buffer.from(stored.key, "hex"), "buf8"),
    get certificate() {
      certificate ??= jkurwa.Certificate.from_asn1(Buffer.from(stored.certificate, "base64"));
      return certificate;
    },
    name: stored.name,
  };
}

/** A digest of the files that make a set and of what they are given: a kept set made otherwise is not used. */
export function madeFrom(sources: URL[], given: unknown): string {
  const hash = createHash("sha256").update(`${storedFormat}\0${JSON.stringify(given)}\0`);
  for (const source of sources) hash.update(readFileSync(source)).update("\0");
  return hash.digest("hex");
}

function readKept(file: string, fingerprint: string, now: number): unknown {
  let stored: StoredSet;
  try {
    stored = JSON.parse(readFileSync(file, "utf8")) as StoredSet;
  } catch {
    return undefined;
  }
  if (stored.format !== storedFormat || stored.madeFrom !== fingerprint) return undefined;
  try {
    if (stored.parties.some((party) => !(party.validTo >= now + monthMs))) return undefined;
    return decode(stored.value, stored.parties.map(restoreParty));
  } catch {
    // A file damaged by hand or by a full disk: a new set is made over it.
    return undefined;
  }
}

export interface KeptPkiOptions<T> {
  /** DATA_DIR; undefined keeps nothing. */
  dataDir: string | undefined;
  /** The file's name under DATA_DIR/sandbox. */
  name: string;
  /** madeFrom(): the sources and inputs of `make`. */
  fingerprint: string;
  make(): T;
  now?: number;
}

/** The set kept under DATA_DIR/sandbox/`name`.json when it is current, else a new one from `make`, then kept. */
export function keptPki<T>(options: KeptPkiOptions<T>): T {
  if (options.dataDir === undefined) return options.make();
  const directory = join(options.dataDir, "sandbox");
  const file = join(directory, `${options.name}.json`);
  const kept = readKept(file, options.fingerprint, options.now ?? Date.now());
  if (kept !== undefined) return kept as T;
  const made = options.make();
  const parties = new Map<Party, number>();
  const value = encode(made, parties);
  const stored: StoredSet = {
    format: storedFormat,
    madeFrom: options.fingerprint,
    parties: [...parties.keys()].map(storeParty),
    value,
  };
  // Private keys (of test CAs and personas, but still): the owner's alone, as DATA_DIR's other files.
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
  renameSync(partial, file);
  return made;
}
