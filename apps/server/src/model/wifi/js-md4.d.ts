// js-md4 ships no types; the one call used here (the pure-JS hasher, since Node's OpenSSL 3 refuses MD4).
declare module "js-md4" {
  interface Md4Hasher {
    update(message: Uint8Array): Md4Hasher;
    hex(): string;
  }
  const md4: { create(): Md4Hasher };
  export default md4;
}
