import { z } from "zod";
import { grantAccess } from "../../../model/access/applications.ts";
import { revokeAccess } from "../../../model/admission/applications.ts";
import { findApplicationByIdOrName } from "../../../model/apps/queries.ts";
import { revokeOidcGrants } from "../../../model/oidc/grants.ts";
import { disableUser } from "../../../model/sessions/disable.ts";
import { type ImportProgress, importUsersCsv } from "../../../model/users/import.ts";
import { findUserByUsername, listUsers, updateUser } from "../../../model/users/queries.ts";
import { PersonRuleError } from "../../../model/users/rule-error.ts";
import { createUser, setPassword } from "../../../model/users/service.ts";
import { recordAuditEvent } from "../../../platform/audit/record.ts";
import type { User } from "../../../platform/db/schema.ts";
import { parseOptions, required } from "../args.ts";
import type { CliContext, CommandHandler } from "../context.ts";
import { table } from "../output.ts";
import { CommandFailedError, UsageError } from "../usage.ts";
import { cliWifiDisconnects, disconnectedNote } from "../wifi-disconnects.ts";

function publicUser(user: User) {
  return {
    id: user.id,
    username: user.username,
    fullName: user.full_name,
    email: user.email,
    studentId: user.student_id,
    employeeId: user.employee_id,
    hasTaxId: user.tax_id !== null,
    status: user.status,
  };
}

function asUsageError(error: unknown): never {
  // A rule about the person (a retired username, an unknown unit) is the command failing, not a usage mistake.
  if (error instanceof PersonRuleError) throw new CommandFailedError(error.message);
  if (error instanceof z.ZodError) {
    throw new UsageError(
      error.issues.map((issue) => `${issue.path.join(".") || "value"}: ${issue.message}`).join("; "),
    );
  }
  throw error;
}

async function requireUser(context: CliContext, username: string): Promise<User> {
  const user = await findUserByUsername(context.db, username);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  return user;
}

const create: CommandHandler = async (context, args) => {
  const values = parseOptions(args, {
    username: { type: "string" },
    "full-name": { type: "string" },
    email: { type: "string" },
    "tax-id": { type: "string" },
    "student-id": { type: "string" },
    "employee-id": { type: "string" },
    "password-stdin": { type: "boolean" },
  });
  const person = {
    username: required(values, "username"),
    fullName: required(values, "full-name"),
    email: values.email,
    taxId: values["tax-id"],
    studentId: values["student-id"],
    employeeId: values["employee-id"],
  };
  const password = values["password-stdin"] ? await context.readStdin() : undefined;
  try {
    const user = await createUser(context.db, context.hasher, person, password);
    context.out.result(publicUser(user), `Created user ${user.username} (${user.id})`);
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw new CommandFailedError(`user '${person.username}' or that tax id exists already`);
    }
    asUsageError(error);
  }
};

const setPasswordCommand: CommandHandler = async (context, args) => {
  const values = parseOptions(args, { username: { type: "string" }, "password-stdin": { type: "boolean" } });
  const username = required(values, "username");
  if (!values["password-stdin"])
    throw new UsageError("--password-stdin is required (passwords never go on the command line)");
  const password = await context.readStdin();
  const user = await setPassword(context.db, context.hasher, username, password).catch(asUsageError);
  if (!user) throw new CommandFailedError(`no user '${username}'`);
  context.out.result({ username: user.username, passwordSet: true }, `Password set for ${user.username}`);
};

const disable: CommandHandler = async (context, args) => {
  const user = await requireUser(context, required(parseOptions(args, { username: { type: "string" } }), "username"));
  await disableUser({ db: context.db, now: new Date(), signOut: await context.signOut() }, user.id);
  // The applications are told by the service's participants; the devices here, so their answers are printed.
  const disconnects = cliWifiDisconnects(context);
  const answers = await disconnects.send(await disconnects.sessionsOf({ userId: user.id }), "disabled");
  context.out.result(
    { username: user.username, status: "disabled" },
    `Disabled ${user.username}; their sessions have ended${disconnectedNote(answers)}`,
  );
};

const enable: CommandHandler = async (context, args) => {
  const user = await requireUser(context, required(parseOptions(args, { username: { type: "string" } }), "username"));
  if (user.anonymised_at) throw new CommandFailedError(`${user.username} was erased: no one signs in as them again`);
  await updateUser(context.db, user.id, { status: "active" });
  context.out.result({ username: user.username, status: "active" }, `Enabled ${user.username}`);
};

const list: CommandHandler = async (context, args) => {
  parseOptions(args, {});
  const users = (await listUsers(context.db)).map(publicUser);
  context.out.result(
    users,
    table(users.map(({ username, fullName, email, status }) => ({ username, fullName, email: email ?? "", status }))),
  );
};

/** The operator at the command line is named "cli" in the row, as `role grant` does. */
function auditAccess(
  context: CliContext,
  type: "access_granted" | "access_revoked",
  userId: string,
  applicationId: string,
) {
  return recordAuditEvent(context.db, { type, result: "success", userId, applicationId, reason: "cli" });
}

function accessCommand(action: "grant" | "revoke"): CommandHandler {
  return async (context, args) => {
    const values = parseOptions(args, { username: { type: "string" }, app: { type: "string" } });
    const username = required(values, "username");
    const appName = required(values, "app");
    const user = await requireUser(context, username);
    const application = await findApplicationByIdOrName(context.db, appName);
    if (!application) throw new CommandFailedError(`no application '${appName}'`);
    if (action === "grant") {
      const changed = await grantAccess(context.db, user.id, application.id);
      if (changed) await auditAccess(context, "access_granted", user.id, application.id);
      context.out.result(
        { username: user.username, application: application.name, access: true },
        `${user.username} now has access to ${application.name}`,
      );
      return;
    }
    // A rule may still let the person in; then revoking records an exclusion, so access does end.
    const outcome = await revokeAccess(context.db, user.id, application.id);
    await revokeOidcGrants(context.db, { userId: user.id, clientId: application.id });
    if (outcome !== "none") await auditAccess(context, "access_revoked", user.id, application.id);
    context.out.result(
      { username: user.username, application: application.name, access: false, outcome },
      `${user.username} no longer has access to ${application.name}` +
        (outcome === "excluded" ? " (excluded: the application's rules would let them in)" : ""),
    );
  };
}

/** A line on the terminal that rewrites itself with each batch; nothing when the output is a file or a pipe. */
function terminalProgress(verb: string) {
  const tty = process.stderr.isTTY === true;
  return async (progress: ImportProgress) => {
    if (tty) process.stderr.write(`\r${verb} ${progress.processed} of ${progress.total} lines`);
    return "go on" as const;
  };
}

const importCommand: CommandHandler = async (context, args) => {
  const options = parseOptions(args, { file: { type: "string" }, "dry-run": { type: "boolean" } });
  const file = required(options, "file");
  const dryRun = options["dry-run"] === true;
  let text: string;
  try {
    text = await context.readFile(file);
  } catch (error) {
    throw new CommandFailedError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const report = await importUsersCsv(context.db, context.hasher, text, {
    dryRun,
    onProgress: terminalProgress(dryRun ? "checked" : "imported"),
  });
  if (process.stderr.isTTY) process.stderr.write("\n");
  const rejectedLines = report.rejected.map(
    (r) => `  line ${r.line}${r.username ? ` (${r.username})` : ""}: ${r.reason}`,
  );
  context.out.result(
    report,
    [
      ...(dryRun ? ["dry run: nothing was changed"] : []),
      `created: ${report.created}`,
      `updated: ${report.updated}`,
      `unchanged: ${report.unchanged}`,
      `rejected: ${report.rejected.length}`,
      ...rejectedLines,
    ].join("\n"),
  );
};

export const userCommands: Record<string, CommandHandler> = {
  create,
  "set-password": setPasswordCommand,
  disable,
  enable,
  list,
  grant: accessCommand("grant"),
  revoke: accessCommand("revoke"),
  import: importCommand,
};
