import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { grantAccess } from "../access/applications.ts";
import { findApplicationByIdOrName } from "../apps/queries.ts";
import { createApplication } from "../apps/service.ts";
import { createPasswordHasher } from "../crypto/password.ts";
import { createUser } from "../users/service.ts";
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
  const existing = await app.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (existing) return undefined;

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
    for (const name of person.apps) {
      const application = await findApplicationByIdOrName(app.db, name);
      if (application) await grantAccess(app.db, user.id, application.id);
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
      `  ${person.username.padEnd(10)} ${person.password.padEnd(20)} ${person.fullName} (${person.apps.length} apps)`,
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
