import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { grantAccess } from "../../model/access/applications.ts";
import { findApplicationByIdOrName } from "../../model/apps/queries.ts";
import { createApplication } from "../../model/apps/service.ts";
import { addIdentityDocument } from "../../model/bankid/person.ts";
import { anyoneRegistered, markEmailVerified } from "../../model/users/method-lookups.ts";
import { grantRole } from "../../model/users/operator-roles.ts";
import { findUserByUsername } from "../../model/users/queries.ts";
import { createUser } from "../../model/users/service.ts";
import { createPasswordHasher } from "../../platform/crypto/password.ts";
import { demoApplications, demoPeople } from "./demo-data.ts";
import { enableDemoOidcClient } from "./demo-oidc-client.ts";

export interface DemoSecrets {
  [applicationName: string]: { id: string; secret: string };
}

/**
 * Seeds the demo campus into an empty database and prints how to sign in.
 * Application secrets go to DATA_DIR/demo-apps.json for the demo site to read.
 */
export async function seedDemoData(app: FastifyInstance): Promise<DemoSecrets | undefined> {
  if (app.config.isProduction) throw new Error("demo data is never seeded in production");
  if (await anyoneRegistered(app.db)) return undefined;

  const hasher = createPasswordHasher(app.config.argon2);
  const secrets: DemoSecrets = {};
  for (const application of demoApplications) {
    const known = await findApplicationByIdOrName(app.db, application.name);
    if (known) continue;
    const created = await createApplication(app.db, application);
    secrets[application.name] = { id: created.application.id, secret: created.secret };
  }
  await enableDemoOidcClient(app);
  for (const person of demoPeople) {
    const user = await createUser(app.db, hasher, person, person.password);
    if (person.emailVerified) {
      await markEmailVerified(app.db, user.id, person.email);
    }
    for (const name of person.apps) {
      const application = await findApplicationByIdOrName(app.db, name);
      if (application) await grantAccess(app.db, user.id, application.id);
    }
    for (const role of person.roles ?? []) await grantRole(app.db, user.id, role);
    for (const { kind, series, number } of person.documents ?? []) {
      await addIdentityDocument(app.db, user.id, { kind, series, number });
    }
  }
  writeFileSync(join(app.config.database.dataDir, "demo-apps.json"), `${JSON.stringify(secrets, null, 2)}\n`, {
    mode: 0o600,
  });
  printCredentials(app.config.publicUrl);
  return secrets;
}

function printCredentials(publicUrl: string): void {
  const lines = demoPeople.map(
    (person) =>
      `  ${person.username.padEnd(10)} ${person.password.padEnd(20)} ${person.fullName} (${person.apps.length} apps)` +
      (person.emailVerified ? `, e-mail ${person.email} (confirmed)` : ""),
  );
  console.log(
    [
      "",
      `KPI ID demo campus seeded. Sign in at ${publicUrl}/uk/ with:`,
      "  username   password             person",
      ...lines,
      "",
    ].join("\n"),
  );
}

/** The demo people still present and active with their published passwords. */
export async function demoAccountsWithPublishedPasswords(app: FastifyInstance): Promise<string[]> {
  const found: string[] = [];
  for (const person of demoPeople) {
    const user = await findUserByUsername(app.db, person.username);
    if (user?.status !== "active") continue;
    if (await app.passwordHasher.verify(user.password_hash, person.password)) found.push(person.username);
  }
  return found;
}

/** The start-up warning while demo accounts exist: anyone who read the README can sign in as them. */
export function demoAccountsBanner(usernames: string[]): string {
  const rule = "!".repeat(78);
  return [
    rule,
    `!! DEMO ACCOUNTS EXIST with published passwords: ${usernames.join(", ")}`,
    "!! Anyone can sign in as them. Never serve real people from this database;",
    "!! disable them with `npx kpi-id user disable --username <name>`.",
    rule,
  ].join("\n");
}
