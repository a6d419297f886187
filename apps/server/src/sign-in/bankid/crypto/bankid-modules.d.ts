// The further parts of gost89 and jkurwa (plain CommonJS without types) that the
// BankID envelope code uses, beside those the Diia code declares in
// ../../diia/crypto/dstu-modules.d.ts. Shapes follow node_modules/*/lib.

declare module "gost89/lib/gost89.js" {
  /** One GOST 28147-89 context: a key and an S-box. */
  export interface Gost28147 {
    key(key: Uint8Array): void;
    /** Encrypts one 8-byte block (simple substitution, ECB). */
    crypt64(clear: Uint8Array, out: Uint8Array): void;
  }
  /** S-box: 128 entries, the last 16 for the lowest nibble (gost89's row order). */
  export function init(sbox?: ArrayLike<number>): Gost28147;
  const Gost: { init: typeof init };
  export default Gost;
}

declare module "gost89/lib/compat.js" {
  export function gost_kdf(data: Uint8Array): Buffer;
  export function gost_unwrap(kek: Uint8Array, wrapped: Uint8Array): Buffer;
  export function gost_keywrap(kek: Uint8Array, key: Uint8Array, iv: Uint8Array): Buffer;
}

declare module "jkurwa/lib/spec/dstszi2010.js" {
  import type { Asn1Entity } from "asn1.js";
  /** The GOST 34.311 KDF's SharedInfo (keyInfo, entityInfo = UKM, suppPubInfo = key length in bits). */
  export const SharedInfo: Asn1Entity<unknown>;
  /** CMS ContentInfo; algoModel maps a content cipher's name to its parameters' model. */
  export const ContentInfo: Asn1Entity<unknown> & {
    algoModel: Record<string, Asn1Entity> & { IDS: Record<string, string> };
  };
}

declare module "jkurwa/lib/spec/rfc3280.js" {
  import type { Asn1Entity } from "asn1.js";
  import type { CertificateObject } from "jkurwa";
  /** OID ("1 2 804 …") to algorithm name, read at decoding time. */
  export const ALGORITHMS_IDS: Record<string, string>;
  /** X.509 Certificate, decoded as jkurwa's Certificate reads it. */
  export const Certificate: Asn1Entity<CertificateObject>;
}

declare module "jkurwa" {
  /** A GF(2^m) element; point multiplication reads it as an integer's bits. */
  interface Field {
    buf8(): ArrayLike<number>;
    equals(other: Field): boolean;
  }
  interface Point {
    x: Field;
    mul(scalar: Field): Point;
    twice(): Point;
  }
  interface Priv {
    d: Field;
  }
  interface Curve {
    m: number;
    a: Field;
    b: Field;
    base: Point;
    kofactor: Field;
    /** A public key from its compressed form (big-endian bytes with "buf8"). */
    pubkey(data: Buffer, format: "buf8"): Pub;
  }
}

declare module "jkurwa" {
  interface Pub {
    readonly curve: Curve;
    point: Point;
  }
}

declare module "jkurwa/lib/models/Priv.js" {
  import type { Priv } from "jkurwa";
  /** The key-storage algorithms gost89 gives for opening password-protected containers. */
  export interface StoreAlgorithms {
    storeload: unknown;
  }
  /** Keys (and certificates) from a PEM or DER key, or a Key-6.dat, PBES2, PFX or JKS container with its password. */
  export function from_protected(
    data: Buffer,
    password?: string,
    algo?: StoreAlgorithms,
  ): { keys?: Priv[]; certs?: unknown[] };
}

declare module "gost89/lib/compat.js" {
  import type { StoreAlgorithms } from "jkurwa/lib/models/Priv.js";
  export function algos(): StoreAlgorithms;
}

declare module "jkurwa" {
  interface Certificate {
    /** The subject key's algorithm as jkurwa names it: "Dstu4145le", "ECDSA", "RSA"… */
    pubkeyAlgorithm: string;
  }
}

declare module "jkurwa/lib/standard.js" {
  /** jkurwa's named curves (name → parameters) and its cache of built curves. */
  const standard: Record<string, unknown>;
  export default standard;
}

declare module "gost89/lib/gost89.js" {
  interface Gost28147 {
    /** GOST 28147 CFB over whole blocks; the output is padded to a multiple of 8 bytes. */
    crypt_cfb(iv: Uint8Array, clear: Uint8Array): Buffer;
    decrypt_cfb(iv: Uint8Array, cipher: Uint8Array): Buffer;
  }
}
