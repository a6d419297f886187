import { forwardAuthHeaderNames } from "@kpi-id/contracts";
import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import { isForwardAuthHeader, setForwardAuthHeaders } from "../../../model/forward-auth/headers.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { CommandFailedError, UsageError } from "../usage.ts";

/** `app nginx --app ID|NAME [--headers a,b,…] [--off]`: a site behind nginx auth_request (docs/nginx-auth-request.md). */
export const appNginx: CommandHandler = async ({ db, out }, args) => {
  const values = parseOptions(args, { app: { type: "string" }, headers: { type: "string" }, off: { type: "boolean" } });
  const application = await findApplicationByIdOrName(db, required(values, "app"));
  if (!application) throw new CommandFailedError(`no application '${values.app}'`);
  if (application.community) {
    throw new CommandFailedError("an application registered on the developers' page cannot sit behind nginx");
  }
  // The callback names the protected host (https://host/_kpi-id/callback): without one there is no site to guard.
  if (!values.off && !URL.canParse(application.callback_url)) {
    throw new CommandFailedError(
      `${application.name} has no callback URL; set https://<host>/_kpi-id/callback first (app update --callback-url)`,
    );
  }
  const words = (values.headers ?? forwardAuthHeaderNames.join(","))
    .split(",")
    .map((word) => word.trim())
    .filter((word) => word !== "");
  const unknown = words.filter((word) => !isForwardAuthHeader(word));
  if (unknown.length > 0) {
    throw new UsageError(`--headers: unknown ${unknown.join(", ")} (known: ${forwardAuthHeaderNames.join(", ")})`);
  }
  const headers = values.off ? null : words.filter(isForwardAuthHeader);
  await setForwardAuthHeaders(db, application.id, headers);
  await recordAuditEvent(db, {
    type: "application_updated",
    result: "success",
    applicationId: application.id,
    details: { nginx: headers ?? "off" },
  });
  out.result(
    { id: application.id, name: application.name, nginxHeaders: headers },
    headers
      ? `${application.name} is a site behind nginx; it receives ${headers.join(", ") || "no person headers"}.\n` +
          `  X-KPI-ID-Application: ${application.id}\n  callback: ${application.callback_url}`
      : `${application.name} is no longer a site behind nginx; its hosts' cookies no longer work.`,
  );
};
