/// <reference path="./bankid-modules.d.ts" />
import "./dstu-curves.ts";
import { randomBytes } from "node:crypto";
import { gost_keywrap } from "gost89/lib/compat.js";
import jkurwa, { type Certificate, type Priv } from "jkurwa";
import { gost34311 } from "../../diia/crypto/gost-hash.ts";
import { type BankIdEnvelope, type Originator, oids, writeEnvelope } from "./envelope-format.ts";
import { gost28147Cfb, gost28147Counter } from "./gost-ctr.ts";
import { keyEncryptionKey, type LeadingZeros, sharedX } from "./key-agreement.ts";
import { certificateId } from "./originator.ts";

// What a bank sends through BankID NBU: the person's JSON, signed by the bank (attached SignedData),
// encrypted to the organisation's DSTU 4145 key-agreement certificate (kari, rKeyId = our subject key
// id, GOST 34.311 KDF, GOST 28147 key wrap), in each shape the reader accepts: dynamic agreement with an
// ephemeral key (the real sample's) or static agreement with the bank's encryption key, `ukm` or none,
// gamma or CFB content. The sandbox stand-in and the tests use it; the server never does.

export interface EnvelopeShape {
  /** "ephemeral" (dynamic, the default) or the bank's encryption certificate named either way (static). */
  originator?: "ephemeral" | "issuerAndSerialNumber" | "subjectKeyIdentifier";
  /** Send a 64-byte ukm (the default) or none (the real sample). */
  ukm?: boolean;
  cipher?: "counter" | "cfb";
  /** ZZ's leading zero rule the sender follows; the certified libraries' "strip_all" by default. */
  leadingZeros?: LeadingZeros;
  /** Static agreement: the envelope's originatorInfo carries the bank's encryption certificate. */
  carryCertificate?: boolean;
}

export interface EnvelopeInput {
  /** The person's data; serialised as UTF-8 JSON. */
  data: unknown;
  bank: { key: Priv; certificate: Certificate };
  recipient: Certificate;
  shape?: EnvelopeShape;
  /** The bank's encryption key and certificate: needed for static agreement. */
  bankEncryption?: { key: Priv; certificate: Certificate };
}

export function signForBankId(data: unknown, bank: EnvelopeInput["bank"]): Buffer {
  return new jkurwa.models.Message({
    type: "signedData",
    cert: bank.certificate,
    data: Buffer.from(JSON.stringify(data), "utf8"),
    hash: (bytes: Uint8Array) => gost34311(bytes),
    signer: bank.key,
  }).as_asn1();
}

function originatorFor(shape: EnvelopeShape, sender: Priv, encryption: EnvelopeInput["bankEncryption"]): Originator {
  if (shape.originator === undefined || shape.originator === "ephemeral")
    return { kind: "originatorKey", algorithm: oids.dstu4145le, publicKey: sender.pub().serialize() };
  if (!encryption) throw new Error("static agreement needs the bank's encryption certificate");
  if (shape.originator === "issuerAndSerialNumber")
    return { kind: "issuerAndSerialNumber", ...certificateId(encryption.certificate) };
  const keyId = encryption.certificate.extension.subjectKeyIdentifier;
  if (!keyId) throw new Error("the bank's encryption certificate has no subjectKeyIdentifier");
  return { kind: "subjectKeyIdentifier", keyId: Buffer.from(keyId) };
}

/** Encrypts already signed bytes to the recipient (split out so tests can encrypt a forged signature). */
export function encryptForBankId(
  signed: Buffer,
  recipient: Certificate,
  shape: EnvelopeShape = {},
  bankEncryption?: EnvelopeInput["bankEncryption"],
): Buffer {
  const recipientKey = recipient.pubkey_unpack();
  const isStatic = shape.originator !== undefined && shape.originator !== "ephemeral";
  const sender = isStatic && bankEncryption ? bankEncryption.key : recipientKey.curve.keygen();
  const ukm = shape.ukm === false ? undefined : randomBytes(64);
  const key = randomBytes(32);
  const iv = randomBytes(8);
  const kek = keyEncryptionKey(sharedX(sender, recipientKey), ukm, shape.leadingZeros);
  const subjectKeyIdentifier = recipient.extension.subjectKeyIdentifier;
  if (!subjectKeyIdentifier) throw new Error("the recipient certificate has no subjectKeyIdentifier");
  const envelope: BankIdEnvelope = {
    originator: originatorFor(shape, sender, bankEncryption),
    carriedCertificates: shape.carryCertificate && bankEncryption ? [bankEncryption.certificate.as_asn1()] : [],
    ukm,
    keyEncryptionAlgorithm: oids.cofactorDhGost34311Kdf,
    keyWrapAlgorithm: oids.gost28147CfbWrap,
    recipient: { kind: "subjectKeyIdentifier", keyId: Buffer.from(subjectKeyIdentifier) },
    encryptedKey: gost_keywrap(kek, key, randomBytes(8)),
    contentCipher: shape.cipher === "cfb" ? oids.gost28147Cfb : oids.gost28147Counter,
    iv,
    encryptedContent:
      shape.cipher === "cfb"
        ? gost28147Cfb({ key, iv, data: signed }, "encrypt")
        : gost28147Counter({ key, iv, data: signed }),
  };
  return writeEnvelope(envelope);
}

/** The base64 `customerCrypto` a bank's resource answer carries. */
export function makeBankIdEnvelope({ data, bank, recipient, shape, bankEncryption }: EnvelopeInput): string {
  return encryptForBankId(signForBankId(data, bank), recipient, shape, bankEncryption).toString("base64");
}
