import { checkSealedValues, type SealedCounts } from "../../../model/housekeeping/reseal.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { CommandFailedError } from "../usage.ts";

const describeCounts = (counts: SealedCounts) =>
  `${counts.totpFactors} authenticator-app secrets, ${counts.oidcSigningKeys} OpenID Connect keys, ` +
  `${counts.samlSigningKeys} SAML keys, ${counts.wifiPasswords} Wi-Fi network passwords`;

const total = (counts: SealedCounts) => Object.values(counts).reduce((sum, count) => sum + count, 0);

/**
 * `secrets reseal`: after a new key was put first in SESSION_SECRET, seals what older keys sealed again
 * under it, so the older keys can be removed (docs/operations.md, "Rotating SESSION_SECRET").
 */
const reseal: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const report = await checkSealedValues(db, config.sessionSecrets, true);
  const unreadable = total(report.unreadable);
  // Audited: the row says a key rotation was finished (or found keys missing), with the counts and no value.
  await recordAuditEvent(db, {
    type: "secrets_resealed",
    result: unreadable > 0 ? "failure" : "success",
    reason: "cli",
    details: { resealed: report.olderKey, unreadable: report.unreadable, keys: config.sessionSecrets.length },
  });
  out.result(
    { resealed: report.olderKey, unreadable: report.unreadable },
    `Sealed again under the newest key: ${describeCounts(report.olderKey)}.` +
      (unreadable > 0 ? `\nNo key of SESSION_SECRET opens ${describeCounts(report.unreadable)}.` : "") +
      (config.sessionSecrets.length > 1 && unreadable === 0 ? "\nThe older keys may now be removed." : ""),
  );
  if (unreadable > 0) throw new CommandFailedError("put back the key they were sealed with, then run this again");
};

/** `secrets pairwise-salt`: the salt SAML pairwise ids are made with, to pin before SESSION_SECRET rotates. */
const pairwiseSalt: CommandHandler = async ({ out, config }, args) => {
  parseOptions(args, {});
  out.result({ SAML_PAIRWISE_SALT: config.saml.pairwiseSalt }, `SAML_PAIRWISE_SALT=${config.saml.pairwiseSalt}`);
};

export const secretsCommands = { reseal, "pairwise-salt": pairwiseSalt };
