import { prepareNextKey, promoteNextKey, retireKeys } from "../../../model/oidc/key-rollover.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import type { Db } from "../../../platform/db/schema.ts";
import {
  keyActivationDelaySeconds,
  listSigningKeys,
  rotateOidcSigningKey,
  signingKeyRetentionSeconds,
} from "../../../protocols/oidc/signing-keys.ts";
import { parseOptions } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError } from "../usage.ts";

/** Audited as the console's rotation is (there with the operator; here the command line is the actor). */
function audit(db: Db, details: Record<string, unknown>) {
  return recordAuditEvent(db, { type: "signing_keys_rotated", result: "success", reason: "cli", details });
}

/** `keys rotate`: one step; a new key published now signs after the activation delay; the old one stays published for the overlap. */
const rotate: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const { kid, retired } = await rotateOidcSigningKey(db, config.sessionSecret);
  await audit(db, { kid, retired });
  out.result(
    { kid, retired, retiredPublishedForSeconds: signingKeyRetentionSeconds },
    `New signing key ${kid}.\n` +
      (retired.length ? `Retired ${retired.join(", ")}; published for ${signingKeyRetentionSeconds} s more.\n` : "") +
      `Running servers publish it within a minute; it signs from ${keyActivationDelaySeconds} s after now.`,
  );
};

/** `keys prepare`: the staged rollover's first step, a next key in the JWKS that does not sign yet. */
const prepare: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const result = await prepareNextKey(db, config.sessionSecret);
  if (result.outcome === "prepared") await audit(db, { step: "prepare", kid: result.kid });
  out.result(
    result,
    result.outcome === "already"
      ? `Key ${result.kid} is already the next key; promote it (keys promote) or retire it (keys retire --kid ${result.kid}).`
      : `Next signing key ${result.kid}: running servers publish it within a minute; it does not sign yet.\n` +
          "Promote it (keys promote) once applications had time to fetch the JWKS (their cache time; a day is safe).",
  );
};

/** `keys promote`: the next key signs from now; the current one stays published for the overlap. */
const promote: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const result = await promoteNextKey(db);
  if (result.outcome === "no_next") throw new CommandFailedError("no next key: make one with keys prepare");
  if (result.outcome === "too_soon")
    throw new CommandFailedError(
      `${result.kid} was made less than ${keyActivationDelaySeconds} s ago and some server may not publish it yet; ` +
        `promote it from ${result.promotableFrom.toISOString()}`,
    );
  await audit(db, { step: "promote", kid: result.kid, retired: result.retired });
  out.result(
    { ...result, retiredPublishedForSeconds: signingKeyRetentionSeconds },
    `${result.kid} signs now (running servers switch within a minute).\n` +
      (result.retired.length
        ? `${result.retired.join(", ")} verifies for ${signingKeyRetentionSeconds} s more, then leaves the JWKS.`
        : ""),
  );
};

/** `keys retire [--kid KID] [--force]`: previous keys out of the JWKS (a leaked one inside its overlap with --force). */
const retire: CommandHandler = async ({ db, out }, args) => {
  const values = parseOptions(args, { kid: { type: "string" }, force: { type: "boolean" } });
  const result = await retireKeys(db, signingKeyRetentionSeconds, { kid: values.kid, force: values.force });
  if (result.outcome === "unknown") throw new CommandFailedError(`no signing key ${values.kid}`);
  if (result.outcome === "current")
    throw new CommandFailedError("that key signs now: prepare and promote its successor first");
  if (result.outcome === "in_overlap")
    throw new CommandFailedError(
      `${result.kid} may have signed ID tokens still in use until ${result.until.toISOString()}; ` +
        "wait, or add --force (a leaked key: applications then refuse those tokens)",
    );
  if (result.kids.length > 0) await audit(db, { step: "retire", retired: result.kids, forced: values.force === true });
  out.result(
    { retired: result.kids },
    result.kids.length ? `Out of the JWKS: ${result.kids.join(", ")}.` : "No previous key to retire.",
  );
};

/** `keys list`: the stored keys, newest first: their state, which are published and which one signs. */
const list: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const rows = (await listSigningKeys(db, config.sessionSecrets)).map((key) => ({
    kid: key.kid,
    state: key.state,
    created: key.createdAt.toISOString(),
    signsFrom: key.activatesAt?.toISOString() ?? "",
    publishedUntil: key.publishedUntil?.toISOString() ?? "",
    published: key.published,
    signing: key.signing,
  }));
  out.result(rows, table(rows));
};

export const keysCommands: Record<string, CommandHandler> = { rotate, prepare, promote, retire, list };
