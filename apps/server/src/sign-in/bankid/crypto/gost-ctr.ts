/// <reference path="./bankid-modules.d.ts" />
import Gost from "gost89/lib/gost89.js";

// The two GOST 28147-89 content ciphers BankID envelopes may use. Gamma ("counter") mode, which gost89 lacks: BankID NBU encrypts
// the person's data with it under OID 1.2.804.2.1.1.1.1.1.1.2 (named "ofb" in
// DSTU naming, but the cipher is gamma mode: cryptonite's gost28147_init_ctr).
// The IV is encrypted once; before each block the first 32-bit word gains C2
// modulo 2^32 and the second gains C1 modulo 2^32 - 1; the encrypted counter is
// the gamma XORed with the data. Encryption and decryption are the same.

const c1 = 0x01010104;
const c2 = 0x01010101;
const blockBytes = 8;

/** The second word's addition is modulo 2^32 - 1 (GOST 28147-89 §4). */
function addModuloMersenne(word: number, constant: number): number {
  const sum = word + constant;
  return sum >= 0x100000000 ? sum - 0x100000000 + 1 : sum;
}

export interface CounterModeInput {
  key: Uint8Array;
  iv: Uint8Array;
  data: Uint8Array;
  /** Defaults to DKE №1 (gost89's default), which BankID uses. */
  sbox?: ArrayLike<number>;
}

export function gost28147Counter({ key, iv, data, sbox }: CounterModeInput): Buffer {
  if (key.length !== 32) throw new Error("GOST 28147 key must be 32 bytes");
  if (iv.length !== blockBytes) throw new Error("GOST 28147 IV must be 8 bytes");
  const cipher = Gost.init(sbox);
  cipher.key(key);
  const counter = Buffer.alloc(blockBytes);
  cipher.crypt64(iv, counter);
  let n1 = counter.readUInt32LE(0);
  let n2 = counter.readUInt32LE(4);
  const gamma = Buffer.alloc(blockBytes);
  const out = Buffer.alloc(data.length);
  for (let offset = 0; offset < data.length; offset += blockBytes) {
    n1 = (n1 + c2) >>> 0;
    n2 = addModuloMersenne(n2, c1);
    counter.writeUInt32LE(n1, 0);
    counter.writeUInt32LE(n2, 4);
    cipher.crypt64(counter, gamma);
    const end = Math.min(offset + blockBytes, data.length);
    for (let index = offset; index < end; index++) out[index] = (data[index] ?? 0) ^ (gamma[index - offset] ?? 0);
  }
  return out;
}

/** GOST 28147-89 CFB ("гамування зі зворотним зв'язком", OID 1.2.804.2.1.1.1.1.1.1.3): gost89's own. */
export function gost28147Cfb({ key, iv, data, sbox }: CounterModeInput, direction: "encrypt" | "decrypt"): Buffer {
  if (key.length !== 32) throw new Error("GOST 28147 key must be 32 bytes");
  if (iv.length !== blockBytes) throw new Error("GOST 28147 IV must be 8 bytes");
  if (data.length === 0) return Buffer.alloc(0);
  const cipher = Gost.init(sbox);
  cipher.key(key);
  return direction === "encrypt" ? cipher.crypt_cfb(iv, data) : cipher.decrypt_cfb(iv, data);
}
