/// <reference path="./crypto/bankid-modules.d.ts" />
// Keys and certificates on any DSTU 4145 polynomial-basis curve, not only jkurwa's two.
import "./crypto/dstu-curves.ts";
import { existsSync, readFileSync } from "node:fs";
import { algos } from "gost89/lib/compat.js";
import jkurwa, { type Certificate, type Priv } from "jkurwa";
import { from_protected } from "jkurwa/lib/models/Priv.js";
import type { BankIdConfig } from "../../platform/config/index.ts";
import { ConfigError } from "../../platform/config/index.ts";
import { crlStoreFor } from "../diia/crypto/configured-cas.ts";
import type { CrlStore, CrlStoreOptions } from "../diia/crypto/crl-store.ts";
import type { BankTrust } from "./crypto/bank-signature.ts";
import { readCaList } from "./crypto/ca-list.ts";
import type { OurKeyAgreement } from "./crypto/envelope-reader.ts";

// What BankID sign-in needs at hand, read from configuration once at start: our key and certificate
// (the bank encrypts to them), the CAs a bank's signature must chain to, and their CRLs. A value that
// cannot be read stops start-up with a line naming its variable.

export interface BankIdKeys {
  ours: OurKeyAgreement;
  /** Our certificate as the resource request's `cert` (base64 DER). */
  certificateBase64: string;
  trust: BankTrust;
  crls?: CrlStore;
}

function readSource(variable: string, value: string): Buffer {
  if (value.includes("-----BEGIN")) return Buffer.from(value.replace(/\\n/g, "\n"), "utf8");
  if (!existsSync(value)) throw new ConfigError(`${variable}: is neither PEM nor a readable file`);
  return readFileSync(value);
}

/** A PEM or DER certificate. */
export function readCertificate(variable: string, value: string): Certificate {
  const data = readSource(variable, value);
  try {
    const text = data.toString("latin1");
    return text.includes("-----BEGIN CERTIFICATE-----")
      ? jkurwa.Certificate.from_pem(text.replace(/\r/g, ""))
      : jkurwa.Certificate.from_asn1(data);
  } catch {
    throw new ConfigError(`${variable}: the certificate cannot be parsed`);
  }
}

function keysOf(key: BankIdConfig["key"]): Priv[] {
  const variable = "pem" in key ? "BANKID_KEY" : "BANKID_KEY_CONTAINER";
  const data = "pem" in key ? readSource(variable, key.pem) : readSource(variable, key.containerPath);
  try {
    const store = "pem" in key ? from_protected(data) : from_protected(data, key.password, algos());
    return store.keys ?? [];
  } catch {
    const why = "pem" in key ? "cannot be parsed" : "cannot be opened (wrong password or not a key container)";
    throw new ConfigError(`${variable}: ${why}`);
  }
}

/** A container holds the signing key and the encryption key: ours is the one the certificate names. */
export function keyOfCertificate(keys: Priv[], certificate: Certificate): Priv | undefined {
  const wanted = certificate.pubkey_unpack().serialize();
  return keys.find((key) => {
    try {
      return key.pub().serialize().equals(wanted);
    } catch {
      return false;
    }
  });
}

/** `trustAnchors` replaces BANKID_TRUST_ANCHORS' CAs (check-answer's --trust files, read by the same reader). */
export function loadBankIdKeys(
  config: BankIdConfig,
  log: CrlStoreOptions["log"],
  options: { trustAnchors?: Certificate[] } = {},
): BankIdKeys {
  const certificate = readCertificate("BANKID_CERTIFICATE", config.certificate);
  const key = keyOfCertificate(keysOf(config.key), certificate);
  if (!key) throw new ConfigError("BANKID_KEY: holds no key for the certificate in BANKID_CERTIFICATE");
  const anchors = options.trustAnchors ?? readCaList("BANKID_TRUST_ANCHORS", config.trustAnchors).certificates;
  const intermediates = readCaList("BANKID_INTERMEDIATE_CAS", config.intermediateCas).certificates;
  const crls = crlStoreFor(config, [...anchors, ...intermediates], log);
  return {
    ours: { key, certificate },
    certificateBase64: certificate.as_asn1().toString("base64"),
    trust: { anchors, intermediates, revocation: crls },
    crls,
  };
}
