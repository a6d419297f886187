/**
 * What other workspaces (bench, cluster, sandbox, the demo site's tests) may use of the server,
 * as `@kpi-id/server/testing`: a test app and database, people and applications to sign in with,
 * and the few production parts a stand-in is checked against. Nothing imports apps/server/src directly.
 */

export { buildApp } from "../../src/app.ts";
export { grantAccess } from "../../src/model/access/applications.ts";
export { addAccessRule } from "../../src/model/access/rules.ts";
export { hasApplicationAccess } from "../../src/model/admission/applications.ts";
export { createApplication } from "../../src/model/apps/service.ts";
export { setCasService } from "../../src/model/cas/services.ts";
export { upsertServiceProvider } from "../../src/model/saml/service-providers.ts";
export { consumeTicket, issueTicket } from "../../src/model/tickets/store.ts";
export { createUser } from "../../src/model/users/service.ts";
export { type MachineryPiece, machineryPieces, switchMachinery } from "../../src/platform/bench-switches.ts";
export { createPasswordHasher, type PasswordHasher } from "../../src/platform/crypto/password.ts";
export { hashToken } from "../../src/platform/crypto/tokens.ts";
export { openDatabase } from "../../src/platform/db/index.ts";
export { migrate } from "../../src/platform/db/migrate.ts";
export { startBindResponder } from "../../src/protocols/ldap/responder.ts";
export { libraryClientFind } from "../../src/protocols/oidc/parsed-clients.ts";
export { parseSpMetadata } from "../../src/protocols/saml/sp-metadata.ts";
export { DiiaClient } from "../../src/sign-in/diia/client.ts";
export { hashRequestId } from "../../src/sign-in/diia/crypto/gost-hash.ts";
export { JkurwaSignatureVerifier } from "../../src/sign-in/diia/crypto/jkurwa-verifier.ts";
export { parseTrustAnchors } from "../../src/sign-in/diia/crypto/trust-anchors.ts";
export { parseMultipart } from "../../src/sign-in/diia/multipart.ts";
export { apacheModules, phpModule, type RunningApache, runApache } from "./apache-process.ts";
export { createTestApp, type TestApp, testConfig } from "./app.ts";
export { addPerson, signIn } from "./campus.ts";
export { runCliOn } from "./cli.ts";
export { addOperator, sessionCookieOf } from "./console.ts";
export { aboveModelDatabase, aboveModelDatabases, createTestDatabase, databaseKinds } from "./databases.ts";
export { documentedBlock, kpiIdCommands, replaceEvery } from "./doc-blocks.ts";
export { makeCertificates, renderFreeradius, startProcess } from "./freeradius.ts";
export { type HomeUniversityOptions, researcher, startHomeUniversity } from "./home-university.ts";
export { freePort } from "./listening.ts";
export { addAuthenticator } from "./mfa.ts";
export { serveThroughServiceStack, serviceStack } from "./mounted-provider.ts";
export { type RunningSites, startProtectedSites } from "./nginx-site.ts";
export { addProtectedSite } from "./nginx-visit.ts";
export { addOidcClient, TestBrowser } from "./oidc.ts";
export {
  type ClientCredentials,
  passwordLoginCodeFlow,
  pkceChallenge,
  pkceVerifier,
  signedInCodeFlowTokens,
  type TokenSet,
  tokenRequest,
} from "./oidc-code-flow.ts";
export { ldapTools, personWithApplicationPassword, startTestSlapd, type TestSlapd } from "./openldap.ts";
export { type SoftAuthenticator, softAuthenticator } from "./passkey-authenticator.ts";
export {
  databaseUrl,
  dropAbandonedRunDatabases,
  dropRunDatabases,
  holdRunLock,
  runDatabasePrefix,
  withClient,
} from "./postgres-pool.ts";
export type { HomeIdp, HomeUser } from "./simplesamlphp.ts";
