import type { BankIdConfig } from "../../../platform/config/index.ts";
import { ConfigError } from "../../../platform/config/index.ts";
import { BankIdClient } from "../../../sign-in/bankid/client.ts";
import { readCaList } from "../../../sign-in/bankid/crypto/ca-list.ts";
import { checkOrganisationCertificate } from "../../../sign-in/bankid/crypto/organisation-certificate.ts";
import { loadBankIdKeys } from "../../../sign-in/bankid/runtime.ts";
import { parseOptions } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";
import { checkAnswer } from "./bankid-check-answer.ts";

function requireBankId(context: CliContext): BankIdConfig {
  const bankId = context.config.bankId;
  if (!bankId)
    throw new CommandFailedError("BankID NBU is not configured: set BANKID_BASE_URL and the rest (docs/bankid.md)");
  return bankId;
}

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Silent where the server would log (the CRL store's lines); the command reports what matters. */
const quiet = { info: () => {}, error: () => {} };

/**
 * `bankid status`: the configuration reads, our certificate is a valid key-agreement certificate for our
 * key (what NBU demands), the qualified CAs read, and NBU's node answers its bank list.
 */
const status: CommandHandler = async (context, args) => {
  parseOptions(args, {});
  const settings = requireBankId(context);
  const problems: string[] = [];
  const report: Record<string, string> = { baseUrl: settings.baseUrl, version: settings.version };
  if (settings.dataset) report.dataset = settings.dataset;
  try {
    const keys = loadBankIdKeys(settings, quiet);
    const { certificate, key } = keys.ours;
    const certificateProblems = checkOrganisationCertificate(certificate, key, new Date());
    report.certificate =
      `${certificate.subject.commonName ?? certificate.subjectDN()}, valid ${day(certificate.valid.from)} to ${day(certificate.valid.to)}` +
      (certificateProblems.length === 0 ? ", keyAgreement only, key matches" : `: ${certificateProblems.join(", ")}`);
    if (certificateProblems.length > 0) problems.push("certificate");
    // The CAs loaded, as read (a published CACertificates.p7b lists dozens).
    const list = readCaList("BANKID_TRUST_ANCHORS", settings.trustAnchors);
    report.trustAnchors =
      `${list.certificates.length} CA(s) from ${list.format}` +
      (list.skipped > 0 ? ` (${list.skipped} not DSTU 4145, left out)` : "") +
      `: ${keys.trust.anchors.map((anchor) => `${anchor.subject.commonName ?? anchor.subjectDN()} (until ${day(anchor.valid.to)})`).join("; ")}`;
    report.crls = settings.crls.length === 0 ? "not checked (BANKID_CRLS unset)" : settings.crls.join(", ");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    report.keys = error.message;
    problems.push("keys");
  }
  const client = new BankIdClient(settings, () => new Date());
  report.node = await client.banks().then(
    (banks) => `reachable: ${banks.filter((bank) => bank.workable).length} of ${banks.length} banks workable`,
    (error: unknown) => {
      problems.push("node");
      return `unreachable: ${error instanceof Error ? error.message : String(error)}`;
    },
  );
  context.out.result(
    { ...report, ready: problems.length === 0 },
    `${table(Object.entries(report).map(([setting, value]) => ({ setting, value })))}\n` +
      (problems.length === 0 ? "Sign-in with BankID NBU is ready." : `Not ready: ${problems.join(", ")}.`),
  );
  if (problems.length > 0) throw new CommandFailedError(`BankID NBU is not ready: ${problems.join(", ")}`);
};

export const bankIdCommands: Record<string, CommandHandler> = { status, "check-answer": checkAnswer };
