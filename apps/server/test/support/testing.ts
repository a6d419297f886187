/**
 * What other workspaces (bench, cluster, sandbox, the demo site's tests) may use of the server,
 * as `@kpi-id/server/testing`: a test app and database, people and applications to sign in with,
 * and the few production parts a stand-in is checked against. Nothing imports apps/server/src directly.
 */
export { grantAccess, hasApplicationAccess } from "../../src/access/applications.ts";
export { addAccessRule } from "../../src/access/rules.ts";
export { buildApp } from "../../src/app.ts";
export { createApplication } from "../../src/apps/service.ts";
export { createPasswordHasher, type PasswordHasher } from "../../src/crypto/password.ts";
export { hashToken } from "../../src/crypto/tokens.ts";
export { openDatabase } from "../../src/db/index.ts";
export { migrate } from "../../src/db/migrate.ts";
export { DiiaClient } from "../../src/diia/client.ts";
export { hashRequestId } from "../../src/diia/crypto/gost-hash.ts";
export { JkurwaSignatureVerifier } from "../../src/diia/crypto/jkurwa-verifier.ts";
export { parseTrustAnchors } from "../../src/diia/crypto/trust-anchors.ts";
export { parseMultipart } from "../../src/diia/multipart.ts";
export { issueTicket } from "../../src/tickets/store.ts";
export { createUser } from "../../src/users/service.ts";
export { createTestApp, type TestApp, testConfig } from "./app.ts";
export { addPerson, signIn } from "./campus.ts";
export { addOperator } from "./console.ts";
export { createTestDatabase, databaseKinds } from "./databases.ts";
export { freePort } from "./listening.ts";
export { addOidcClient, TestBrowser } from "./oidc.ts";
