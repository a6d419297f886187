import { recordAuditEvent } from "../../audit/record.ts";
import {
  keyActivationDelaySeconds,
  listSigningKeys,
  rotateOidcSigningKey,
  signingKeyRetentionSeconds,
} from "../../oidc/signing-keys.ts";
import { parseOptions } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";

/** `keys rotate`: a new OpenID Connect signing key signs from now on; the old one stays published until its ID tokens expire. */
const rotate: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const { kid, retired } = await rotateOidcSigningKey(db, config.sessionSecret);
  // Audited as the console's rotation is (there with the operator; here the command line is the actor).
  await recordAuditEvent(db, {
    type: "signing_keys_rotated",
    result: "success",
    reason: "cli",
    details: { kid, retired },
  });
  out.result(
    { kid, retired, retiredPublishedForSeconds: signingKeyRetentionSeconds },
    `New signing key ${kid}.\n` +
      (retired.length ? `Retired ${retired.join(", ")}; published for ${signingKeyRetentionSeconds} s more.\n` : "") +
      `Running servers publish it within a minute; it signs from ${keyActivationDelaySeconds} s after now.`,
  );
};

/** `keys list`: the stored keys, newest first: which are published and which one signs. */
const list: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const rows = (await listSigningKeys(db, config.sessionSecrets)).map((key) => ({
    kid: key.kid,
    created: key.createdAt.toISOString(),
    retired: key.retiredAt?.toISOString() ?? "",
    published: key.published,
    signing: key.signing,
  }));
  out.result(rows, table(rows));
};

export const keysCommands: Record<string, CommandHandler> = { rotate, list };
