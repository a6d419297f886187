// Where each server test belongs (issue 58's convention, docs/architecture.md "Tests"): apps/server/test/ is a
// tree mirroring apps/server/src/ (test/protocols/oidc/…, test/sign-in/diia/…, test/model/…, test/surfaces/…,
// test/platform/…), with the suites that cross every layer in their own folders: test/attacks/, test/fuzz/,
// test/app/ (the whole server: startup, bundle, documentation and samples). Names stay as they are.
// scripts/place-server-tests.ts prints and applies the plan; the `server-tests-mirror-src` rule checks it is empty.

/** A test file's first name part (or a longer prefix, tried first) → its folder under apps/server/test. */
const folderByPrefix: readonly [prefix: string, folder: string][] = [
  ["attacks-", "attacks"],
  ["fuzz", "fuzz"],
  ["forward-auth-", "protocols/forward-auth"],
  ["nginx-auth-request", "protocols/forward-auth"],
  ["app-link-protocol", "protocols/tickets"],
  ["oidc-", "protocols/oidc"],
  ["openid-connect-doc", "protocols/oidc"],
  ["saml-", "protocols/saml"],
  ["cas-", "protocols/cas"],
  ["eduroam", "protocols/radius"],
  ["wifi-", "model/wifi"],
  ["grafana-dashboard", "platform/http"],
  ["tracing", "platform/tracing"],
  ["systemd-unit", "app"],
  ["bench-goal-line", "app"],
  ["admin-", "surfaces/admin"],
  ["account-", "surfaces/account"],
  ["audit-cli", "surfaces/cli"],
  ["cli-", "surfaces/cli"],
  ["cli.", "surfaces/cli"],
  ["doctor", "surfaces/doctor"],
  ["health", "surfaces/health"],
  ["demo-data", "surfaces/seed"],
  ["cleanup", "surfaces/maintenance"],
  ["secret-rotation", "model/housekeeping"],
  ["web-", "surfaces/web"],
  ["missing-translations", "surfaces/web"],
  ["diia", "sign-in/diia"],
  ["bankid", "sign-in/bankid"],
  ["google", "sign-in/google"],
  ["mfa-", "sign-in/mfa"],
  ["passkey", "sign-in/passkeys"],
  ["recovery", "sign-in/recovery"],
  ["signin-", "sign-in/password"],
  ["access-", "model/access"],
  ["developers-", "model/developers"],
  ["people-", "model/people"],
  ["privacy-", "model/privacy"],
  ["user-", "model/users"],
  ["csv-", "model/users"],
  ["complete-sign-in", "sign-in/session"],
  ["session-", "model/sessions"],
  ["prune", "model/sessions"],
  ["audit-", "platform/audit"],
  ["throttle-", "platform/throttle"],
  ["config", "platform/config"],
  ["key-ids", "platform/crypto"],
  ["test-signing-keys", "platform/crypto"],
  ["release", "platform/release"],
  ["metrics", "platform/http"],
  ["log-", "platform/http"],
  ["http-", "platform/http"],
  ["quiet-collection", "platform/http"],
  ["compiled-serializer", "platform/http"],
  ["outbound-trust", "platform/http"],
  ["test-clock", "platform/http"],
  ["boundaries", "platform/http"],
  ["ascii-chunks", "platform/http"],
  ["unstorable-text", "platform/db"],
  ["backup-", "platform/db"],
  ["restore-", "platform/db"],
  ["data-dir-modes", "platform/db"],
  ["database-", "platform/db"],
  ["lock-file", "platform/db"],
  ["migrat", "platform/db"],
  ["pglite-", "platform/db"],
  ["precompiled-", "platform/db"],
  ["prepared-", "platform/db"],
  ["statement-counts", "platform/db"],
  ["test-databases", "platform/db"],
  ["upgrade-", "platform/db"],
  ["startup-", "app"],
  ["check-dependencies", "app"],
  ["server-bundle", "app"],
  ["manual-", "app"],
  ["operations-doc", "app"],
];

const testRoot = "apps/server/test/";

/** Sub-folders that move whole, tests, helpers and recordings alike (they belong to one protocol). */
const helperFolders: readonly [from: string, to: string][] = [
  ["scim/", "protocols/scim/"],
  ["saml/", "protocols/saml/"],
];

/** The folder (below apps/server/test) a test file belongs in, or undefined when no prefix names one. */
export function folderOfTest(name: string): string | undefined {
  const sorted = [...folderByPrefix].sort((a, b) => b[0].length - a[0].length);
  return sorted.find(([prefix]) => name.startsWith(prefix))?.[1];
}

export interface TestMove {
  from: string;
  to: string;
}

/**
 * The moves that put the server's tests in the tree: every `*.test.ts` directly in apps/server/test, and the
 * old per-protocol folders (test/scim, test/saml) whole. Paths repository-relative; nothing else moves
 * (test/support, test/fuzz's helpers, fixtures and vectors are shared and stay).
 * `unplaced` lists tests no prefix names: give them a prefix above.
 */
export function planTestPlacement(paths: readonly string[]): { moves: TestMove[]; unplaced: string[] } {
  const moves: TestMove[] = [];
  const unplaced: string[] = [];
  for (const path of paths) {
    if (!path.startsWith(testRoot)) continue;
    const inside = path.slice(testRoot.length);
    const helperFolder = helperFolders.find(([from]) => inside.startsWith(from));
    if (helperFolder) {
      moves.push({ from: path, to: `${testRoot}${helperFolder[1]}${inside.slice(helperFolder[0].length)}` });
      continue;
    }
    if (!path.endsWith(".test.ts")) continue;
    if (inside.includes("/")) continue;
    const folder = folderOfTest(inside);
    if (folder === undefined) unplaced.push(path);
    else moves.push({ from: path, to: `${testRoot}${folder}/${inside}` });
  }
  return { moves, unplaced };
}
