import { z } from "zod";
import { listApplications } from "../../../model/apps/queries.ts";
import { createApplication, rotateApplicationSecret } from "../../../model/apps/service.ts";
import { parseOptions, required } from "../args.ts";
import type { CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";
import { appCas } from "./app-cas.ts";
import { appNginx } from "./app-nginx.ts";
import {
  applyOidcOptions,
  describeOidc,
  describeTickets,
  hasOidcOptions,
  oidcJson,
  oidcOptionSpec,
  oidcSettingsFromOptions,
  ticketJson,
  updateApplication,
  validateOidcSettings,
} from "./app-oidc.ts";

const create: CommandHandler = async ({ db, out, config }, args) => {
  const values = parseOptions(args, {
    name: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    "title-en": { type: "string" },
    "description-en": { type: "string" },
    "callback-url": { type: "string", multiple: true },
    "release-tax-id": { type: "boolean" },
    ...oidcOptionSpec,
  });
  const [callbackUrl, ...extraCallbackUrls] = values["callback-url"] ?? [];
  const input = {
    name: required(values, "name"),
    title: required(values, "title"),
    description: values.description ?? "",
    titleEn: values["title-en"] ?? "",
    descriptionEn: values["description-en"] ?? "",
    callbackUrl: required({ "callback-url": callbackUrl }, "callback-url"),
    extraCallbackUrls,
    releaseTaxId: values["release-tax-id"] ?? false,
  };
  const oidc = hasOidcOptions(values) ? oidcSettingsFromOptions(values, values.oidc) : undefined;
  if (oidc) validateOidcSettings(oidc);
  try {
    const created = await createApplication(db, input);
    const { secret } = created;
    const application = oidc ? await applyOidcOptions(db, created.application, oidc) : created.application;
    out.result(
      { id: application.id, name: application.name, secret, ...ticketJson(application), ...oidcJson(application) },
      `Created application ${application.name}\n  id:     ${application.id}\n  secret: ${secret}\n` +
        `${describeTickets(application)}\n` +
        `${describeOidc(application, config.publicUrl)}\n` +
        "Keep the secret on the application's server; it is not shown again.",
    );
  } catch (error) {
    if (error instanceof z.ZodError)
      throw new UsageError(error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("; "));
    if ((error as { code?: string }).code === "23505")
      throw new CommandFailedError(`an application named '${input.name}' exists`);
    throw error;
  }
};

const list: CommandHandler = async ({ db, out }, args) => {
  parseOptions(args, {});
  const applications = (await listApplications(db)).map((application) => ({
    id: application.id,
    name: application.name,
    title: application.title,
    callbackUrl: application.callback_url,
    extraCallbackUrls: application.extra_callback_urls,
    releaseTaxId: application.release_tax_id,
  }));
  out.result(applications, table(applications));
};

const rotateSecret: CommandHandler = async ({ db, out }, args) => {
  const values = parseOptions(args, { app: { type: "string" } });
  const rotated = await rotateApplicationSecret(db, required(values, "app"));
  if (!rotated) throw new CommandFailedError(`no application '${values.app}'`);
  out.result(
    { id: rotated.application.id, name: rotated.application.name, secret: rotated.secret },
    `New secret for ${rotated.application.name}: ${rotated.secret}\nThe previous secret no longer works.`,
  );
};

export const appCommands: Record<string, CommandHandler> = {
  cas: appCas,
  create,
  list,
  nginx: appNginx,
  "rotate-secret": rotateSecret,
  update: updateApplication,
};
