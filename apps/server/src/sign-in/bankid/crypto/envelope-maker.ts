/// <reference path="./bankid-modules.d.ts" />
import { randomBytes } from "node:crypto";
import { gost_keywrap } from "gost89/lib/compat.js";
import jkurwa, { type Certificate, type Priv } from "jkurwa";
import { gost34311 } from "../../diia/crypto/gost-hash.ts";
import { derElement, replaceDerElement } from "./der-tree.ts";
import { counterModeOidNumbers, encodeEnvelope } from "./envelope-format.ts";
import { gost28147Counter } from "./gost-ctr.ts";
import { sharedKey } from "./key-agreement.ts";

// What a bank sends through BankID NBU, made the way the real envelopes are
// laid out (nbu_bankid_decoder's dump of a real one): the person's JSON, signed
// by the bank (attached SignedData), encrypted to the organisation's DSTU 4145
// key-agreement certificate with an ephemeral originator key (kari, rKeyId =
// our subjectKeyIdentifier, GOST 34.311 KDF, GOST 28147 key wrap) and GOST 28147
// gamma mode. The sandbox stand-in and the tests use it; the server never does.

export interface EnvelopeInput {
  /** The person's data; serialised as UTF-8 JSON. */
  data: unknown;
  bank: { key: Priv; certificate: Certificate };
  recipient: Certificate;
}

const nullParameters = Buffer.from([0x05, 0x00]);
/** 1.2.804.2.1.1.1.1.1.1.2 in DER. */
const counterModeOidDer = Buffer.from("2a86240201010101010102", "hex");

export function signForBankId(data: unknown, bank: EnvelopeInput["bank"]): Buffer {
  return new jkurwa.models.Message({
    type: "signedData",
    cert: bank.certificate,
    data: Buffer.from(JSON.stringify(data), "utf8"),
    hash: (bytes: Uint8Array) => gost34311(bytes),
    signer: bank.key,
  }).as_asn1();
}

/** Encrypts already signed bytes to the recipient (split out so tests can encrypt a forged signature). */
export function encryptForBankId(signed: Buffer, recipient: Certificate): Buffer {
  const recipientKey = recipient.pubkey_unpack();
  const ephemeral = recipientKey.curve.keygen();
  const ukm = randomBytes(64);
  const contentKey = randomBytes(32);
  const iv = randomBytes(8);
  const keyEncryptionKey = sharedKey(ephemeral, recipientKey, ukm);
  const subjectKeyIdentifier = recipient.extension.subjectKeyIdentifier;
  if (!subjectKeyIdentifier) throw new Error("the recipient certificate has no subjectKeyIdentifier");
  const placeholder = encodeEnvelope({
    contentType: "envelopedData",
    content: {
      version: 2,
      recipientInfos: [
        {
          type: "kari",
          value: {
            version: 3,
            originator: {
              type: "originatorKey",
              value: {
                algorithm: { algorithm: ephemeral.algorithm, parameters: nullParameters },
                publicKey: { unused: 0, data: ephemeral.pub().serialize() },
              },
            },
            ukm,
            keyEncryptionAlgorithm: {
              algorithm: "dhSinglePass-cofactorDH-gost34311kdf",
              parameters: { algorithm: "Gost28147-cfb-wrap", parameters: null },
            },
            recipientEncryptedKeys: [
              {
                rid: { type: "rKeyId", value: { subjectKeyIdentifier } },
                encryptedKey: gost_keywrap(keyEncryptionKey, contentKey, randomBytes(8)),
              },
            ],
          },
        },
      ],
      encryptedContentInfo: {
        contentType: "data",
        contentEncryptionAlgorithm: { algorithm: counterModeOidNumbers, parameters: { type: "null_", value: null } },
        encryptedContent: gost28147Counter({ key: contentKey, iv, data: signed }),
      },
    },
  });
  // The cipher's parameters, SEQUENCE { OCTET STRING iv }, replace the NULL written above.
  const oid = derElement(0x06, counterModeOidDer);
  const withNull = derElement(0x30, Buffer.concat([oid, nullParameters]));
  const withIv = derElement(0x30, Buffer.concat([oid, derElement(0x30, derElement(0x04, iv))]));
  return replaceDerElement(placeholder, withNull, withIv);
}

/** The base64 `customerCrypto` a bank's resource answer carries. */
export function makeBankIdEnvelope({ data, bank, recipient }: EnvelopeInput): string {
  return encryptForBankId(signForBankId(data, bank), recipient).toString("base64");
}
