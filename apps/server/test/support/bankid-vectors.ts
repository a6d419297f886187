import { type BankIdKeys, loadBankIdKeys } from "../../src/sign-in/bankid/runtime.ts";

// The committed Bouncy Castle BankID vectors (test/vectors/bankid): a folder's files, and KPI ID's keys and
// trust as the server loads them from that folder's recipient key, certificate and CA.

export const bankIdVectorFile = (folder: string, name: string) =>
  new URL(`../vectors/bankid/${folder}/${name}`, import.meta.url).pathname;

export function bankIdVectorKeys(folder: string): BankIdKeys {
  return loadBankIdKeys(
    {
      baseUrl: "http://127.0.0.1:9",
      clientId: "vector",
      clientSecret: "vector",
      key: { pem: bankIdVectorFile(folder, "recipient-key.pem") },
      certificate: bankIdVectorFile(folder, "recipient.pem"),
      trustAnchors: bankIdVectorFile(folder, "ca.pem"),
      crls: [],
      crlGraceSeconds: 60,
      version: "v1",
      bankPicker: false,
      sendRedirectUri: true,
      banksCacheSeconds: 60,
    },
    { info: () => {}, error: () => {} },
  );
}
