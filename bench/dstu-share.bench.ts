// What a Diia and a BankID sign-in's DSTU work costs KPI ID, beside what it costs the stand-in (issue 80): the
// rush's Diia journey waits for the stand-in phone's signature and KPI ID's check of it, its BankID journey for
// the bank stand-in's envelope and KPI ID's opening of it. Each is synchronous JavaScript (jkurwa, gost89): the
// time measured here is how long each holds its process's event loop. Same keys and CAs as the rush's stand-ins.
import { performance } from "node:perf_hooks";
import { makeBankIdEnvelope } from "@kpi-id/server/bankid-envelope";
import { ThreadedEnvelopeOpener } from "@kpi-id/server/bankid-envelope-opener";
import { openBankIdEnvelope } from "@kpi-id/server/bankid-envelope-reader";
import { hashRequestId } from "@kpi-id/server/diia-gost-hash";
import { JkurwaSignatureVerifier } from "@kpi-id/server/diia-verifier";
import { bankIdPki, standInBanks } from "../sandbox/src/bankid/banks.ts";
import { bankIdPersonas } from "../sandbox/src/bankid/personas.ts";
import { standInPki } from "../sandbox/src/diia/people.ts";
import { signRequestHash } from "../sandbox/src/diia/pki.ts";
import type { Comparison } from "./lib/types.ts";

export const title =
  "DSTU work of a Diia and a BankID sign-in: KPI ID's checks beside the stand-ins' signing (issue 80)";

const rounds = 20;

/** Mean CPU ms and the slowest wall ms of `work`, run `rounds` times after one unmeasured run. */
function measure(work: (index: number) => unknown): { cpuMs: number; maxWallMs: number } {
  work(-1);
  const began = process.cpuUsage();
  let maxWallMs = 0;
  for (let index = 0; index < rounds; index++) {
    const start = performance.now();
    work(index);
    maxWallMs = Math.max(maxWallMs, performance.now() - start);
  }
  const used = process.cpuUsage(began);
  return { cpuMs: (used.user + used.system) / 1000 / rounds, maxWallMs };
}

/**
 * Mean milliseconds the event loop was busy (not idle) per `work`, awaited `rounds` times after one unmeasured:
 * what a request waits behind. A worker thread's CPU is not counted (performance.eventLoopUtilization is the main
 * thread's), which process.cpuUsage would count.
 */
async function measureLoop(work: (index: number) => Promise<unknown>): Promise<{ cpuMs: number; maxWallMs: number }> {
  await work(-1);
  const began = performance.eventLoopUtilization();
  let maxWallMs = 0;
  for (let index = 0; index < rounds; index++) {
    const start = performance.now();
    await work(index);
    maxWallMs = Math.max(maxWallMs, performance.now() - start);
  }
  return { cpuMs: performance.eventLoopUtilization(began).active / rounds, maxWallMs };
}

function line(label: string, figures: { cpuMs: number; maxWallMs: number }): void {
  console.log(
    `  ${label.padEnd(70)} ${figures.cpuMs.toFixed(1).padStart(7)} ms CPU, slowest ${figures.maxWallMs.toFixed(1)} ms`,
  );
}

export async function run(): Promise<Comparison[]> {
  const now = new Date();
  // Diia: the rush's people are signed by the trusted CA; KPI ID trusts it and knows the intermediate, as the
  // stand-in's environment configures it. Revocation answers "good" here (its lookups are the CRL's and OCSP's
  // kept answers; what it costs in DSTU is finding the signer's issuer, which the verifier does).
  const diiaPki = standInPki();
  const person = diiaPki.people[0];
  if (!person) throw new Error("no Diia stand-in person");
  const verifier = new JkurwaSignatureVerifier([diiaPki.trustedCa.certificate], [diiaPki.intermediateCa.certificate], {
    status: () => "good",
  });
  const requestIds = Array.from({ length: rounds + 1 }, (_, index) => `rush-request-${index}`);
  const signatures = requestIds.map((id) => signRequestHash(person.party, hashRequestId(id)));
  const phone = measure((index) => signRequestHash(person.party, hashRequestId(requestIds[index + 1] ?? "")));
  const check = measure((index) => {
    const result = verifier.verify({
      signature: signatures[index + 1] ?? Buffer.alloc(0),
      requestId: requestIds[index + 1] ?? "",
      now,
    });
    if (!result.ok) throw new Error(`Diia check refused: ${result.reason}`);
  });
  // What the instance's event loop still does per callback now that the signature and chain run in a worker
  // thread (threaded-verifier.ts): parse the CMS again and decide revocation, dates, key usage and the tax id.
  const issuer = verifier.signatureAndChain({
    signature: signatures[0] ?? Buffer.alloc(0),
    requestId: requestIds[0] ?? "",
    now,
  });
  if (!issuer.ok) throw new Error(`Diia check refused: ${issuer.reason}`);
  const onLoop = measure((index) => {
    const input = { signature: signatures[index + 1] ?? Buffer.alloc(0), requestId: requestIds[index + 1] ?? "", now };
    if (!verifier.afterSignatureAndChain(input, issuer.issuer).ok) throw new Error("Diia check refused");
  });
  line("Diia: the stand-in phone signs the request (sandbox)", phone);
  line("Diia: KPI ID checks signature, chain and issuer for revocation", check);
  line("Diia: of which on the event loop with the worker thread", onLoop);

  // BankID: the bank stand-in's envelope for KPI ID's organisation certificate, opened as /bankid/auth opens it.
  const pki = bankIdPki();
  const [bankId, bank] = [...pki.banks][0] ?? [];
  const bankEncryption = bankId ? pki.bankEncryption.get(bankId) : undefined;
  const data = bankIdPersonas.find((persona) => persona.expect.outcome === "signed_in" && persona.data)?.data;
  if (!bank || !bankEncryption || !data) throw new Error("no BankID stand-in bank or persona");
  const make = () => makeBankIdEnvelope({ data, bank, recipient: pki.organisation.certificate, bankEncryption });
  const envelopes = Array.from({ length: rounds + 1 }, make);
  // Revocation answers "good" (the kept CRLs' lookup), asked as with BANKID_CRLS set: the thread names the bank's
  // two certificates and the event loop reads them back, its share of the work.
  const trust = { anchors: [pki.ca.certificate], intermediates: [], revocation: { status: () => "good" as const } };
  const memberId = standInBanks.find((each) => each.id === bankId)?.memberId;
  const answer = { certificate: bankEncryption.certificate.as_asn1().toString("base64"), memberId };
  const bankSide = measure(make);
  const open = measure((index) => {
    const opened = openBankIdEnvelope(envelopes[index + 1] ?? "", pki.organisation, trust, now, answer);
    if (!opened.ok) throw new Error(`BankID envelope refused: ${opened.reason}`);
  });
  // The same, as sign-in opens it now (envelope-opener.ts): in the worker thread, the event loop's share measured.
  const opener = new ThreadedEnvelopeOpener({ ours: pki.organisation, trust });
  const openOnLoop = await measureLoop(async (index) => {
    const opened = await opener.open(envelopes[index + 1] ?? "", now, answer);
    if (!opened.ok) throw new Error(`BankID envelope refused: ${opened.reason}`);
  });
  await opener.close();
  line("BankID: the bank stand-in signs and encrypts its envelope (sandbox)", bankSide);
  line("BankID: KPI ID decrypts the envelope and checks the bank's signature", open);
  line("BankID: of which on the event loop with the worker thread (busy ms)", openOnLoop);
  console.log("");
  return [
    {
      subject: { label: "KPI ID's Diia check (CPU)", value: check.cpuMs, unit: "ms" },
      baseline: { label: "the stand-in phone's signing (CPU)", value: phone.cpuMs, unit: "ms" },
      method: `${rounds} in a row in this process after one unmeasured; synchronous, so each holds the event loop`,
    },
    {
      subject: {
        label: "BankID envelope: the event loop's busy time, worker thread",
        value: openOnLoop.cpuMs,
        unit: "ms",
      },
      baseline: { label: "the envelope opened on the event loop (CPU)", value: open.cpuMs, unit: "ms" },
      method: `${rounds} in a row after one unmeasured; performance.eventLoopUtilization() of the main thread`,
    },
    {
      subject: { label: "KPI ID's BankID envelope opening (CPU)", value: open.cpuMs, unit: "ms" },
      baseline: { label: "the bank stand-in's envelope making (CPU)", value: bankSide.cpuMs, unit: "ms" },
      method: `${rounds} in a row in this process after one unmeasured; synchronous, so each holds the event loop`,
    },
  ];
}
