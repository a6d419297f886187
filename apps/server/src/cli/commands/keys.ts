import { keyActivationDelaySeconds, loadPublishedKeys, rotateSigningKeys } from "../../oidc/keys.ts";
import { signingKeyRetentionSeconds } from "../../oidc/provider.ts";
import { parseOptions } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";

/** `keys rotate`: a new OpenID Connect signing key signs from now on; the old one stays published until its ID tokens expire. */
const rotate: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const { kid, retired } = await rotateSigningKeys(db, config.sessionSecret);
  out.result(
    { kid, retired, retiredPublishedForSeconds: signingKeyRetentionSeconds },
    `New signing key ${kid}.\n` +
      (retired.length ? `Retired ${retired.join(", ")}; published for ${signingKeyRetentionSeconds} s more.\n` : "") +
      `Running servers publish it within a minute; it signs from ${keyActivationDelaySeconds} s after now.`,
  );
};

/** `keys list`: the published keys, the signing one first. */
const list: CommandHandler = async ({ db, out, config }, args) => {
  parseOptions(args, {});
  const published = new Set(
    (await loadPublishedKeys(db, config.sessionSecret, signingKeyRetentionSeconds)).map((key) => key.kid),
  );
  const rows = (
    await db
      .selectFrom("oidc_signing_keys")
      .select(["kid", "created_at", "retired_at"])
      .orderBy("created_at", "desc")
      .execute()
  ).map((row) => ({
    kid: row.kid,
    created: row.created_at.toISOString(),
    retired: row.retired_at?.toISOString() ?? "",
    published: published.has(row.kid),
  }));
  out.result(rows, table(rows));
};

export const keysCommands: Record<string, CommandHandler> = { rotate, list };
