// A Linux lab machine logging people in through KPI ID's LDAP (issue 77): Debian's sssd (sssd-ldap) as the
// machine's NSS and PAM provider against the shipped slapd, asked by getent, id and pamtester (libpam-sss).
// Nothing of the machine changes: sssd, its cache, nsswitch.conf and the PAM service live in a private mount
// namespace (unshare -m) over tmpfs and bind mounts made for this test alone.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CreatedLdapPassword } from "@kpi-id/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUnit } from "../../../src/model/people/units.ts";
import { createTestApp, type TestApp } from "../../support/app.ts";
import { runCliOn } from "../../support/cli.ts";
import { aboveModelDatabase } from "../../support/databases.ts";
import { personWithApplicationPassword, startTestSlapd, type TestSlapd } from "../../support/openldap.ts";

const base = "dc=kpi,dc=ua";
const accountPassword = "campus-password-of-olena-2026";
let dir: string;
let slapd: TestSlapd;
let kpi: TestApp;
let olenaPassword: CreatedLdapPassword;
let labSecret: string;

function sssdConf(): string {
  return `[sssd]
services = nss, pam
domains = kpi

[nss]

[pam]

[domain/kpi]
id_provider = ldap
auth_provider = ldap
ldap_uri = ${slapd.url}
ldap_search_base = ${base}
ldap_user_search_base = ou=people,${base}
ldap_group_search_base = ou=groups,${base}
ldap_default_bind_dn = cn=lab,ou=clients,${base}
ldap_default_authtok = ${labSecret}
ldap_id_use_start_tls = true
ldap_tls_reqcert = demand
ldap_tls_cacert = ${slapd.caFile}
ldap_schema = rfc2307bis
ldap_group_object_class = groupOfNames
ldap_group_member = member
cache_credentials = false
entry_cache_timeout = 1
`;
}

/**
 * The lab machine, in a private mount namespace: tmpfs over sssd's state and /run, the test's nsswitch.conf
 * and PAM service bound over the machine's; sssd started in the foreground, then the commands, then sssd stopped.
 */
function labMachine(commands: string): Promise<string> {
  const lab = join(dir, "lab");
  mkdirSync(join(lab, "pam.d"), { recursive: true });
  writeFileSync(join(lab, "sssd.conf"), sssdConf());
  chmodSync(join(lab, "sssd.conf"), 0o600);
  writeFileSync(join(lab, "nsswitch.conf"), "passwd: files sss\ngroup: files sss\nshadow: files\n");
  writeFileSync(join(lab, "pam.d", "kpi-id-lab"), "auth required pam_sss.so\naccount required pam_sss.so\n");
  const script = `set -e
mount -t tmpfs tmpfs /var/lib/sss
mkdir -p /var/lib/sss/db /var/lib/sss/pipes/private /var/lib/sss/mc /var/lib/sss/pubconf /var/lib/sss/gpo_cache
mount -t tmpfs tmpfs /run
mount --bind ${lab}/nsswitch.conf /etc/nsswitch.conf
mount --bind ${lab}/pam.d /etc/pam.d
sssd -i -c ${lab}/sssd.conf --logger=stderr -d 1 2>${lab}/sssd.log &
sssd_pid=$!
for i in $(seq 1 100); do [ -S /var/lib/sss/pipes/nss ] && [ -S /var/lib/sss/pipes/pam ] && break; sleep 0.1; done
set +e
${commands}
kill $sssd_pid; wait $sssd_pid 2>/dev/null
true
`;
  return new Promise((resolve) => {
    execFile("unshare", ["-m", "sh", "-c", script], { timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "kpi-id-sssd-"));
  slapd = await startTestSlapd(dir);
  kpi = await createTestApp(
    aboveModelDatabase,
    {
      LDAP_LDAPI_PATH: slapd.ldapiPath,
      LDAP_BIND_SOCKET: slapd.bindSocket,
    },
    { protocols: ["ldap"] },
  );
  const db = kpi.app.db;
  await upsertUnit(db, { code: "FICT", kind: "faculty", nameUk: "ФІОТ" });
  const olena = await personWithApplicationPassword(
    kpi.app,
    { username: "olena", fullName: "Olena Shevchenko", studentId: "KV-1", unit: "FICT" },
    accountPassword,
  );
  olenaPassword = olena.created;
  const lab = await runCliOn(kpi.database.handle, [
    "ldap",
    "client",
    "add",
    "--name",
    "lab",
    "--title",
    "Lab machines",
    "--subtree",
    "directory",
    "--attributes",
    "uid,cn,uidNumber,gidNumber,homeDirectory,loginShell,memberOf",
  ]);
  labSecret = /secret \(shown once\): (\S+)/.exec(lab.stdout)?.[1] ?? "";
  await kpi.app.ldap?.syncNow();
}, 60_000);

afterAll(async () => {
  await kpi?.close();
  await slapd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("sssd on a lab machine", () => {
  it("knows the person (getent passwd, id with groups) and logs in with the application password only", async () => {
    const output = await labMachine(`
echo "getent: $(getent passwd olena)"
echo "id: $(id olena)"
printf '%s\\n' '${olenaPassword.password}' | pamtester kpi-id-lab olena authenticate; echo "app-password: $?"
printf '%s\\n' '${accountPassword}' | pamtester kpi-id-lab olena authenticate; echo "kpi-id-password: $?"
`);
    expect(output).toMatch(/getent: olena:\*:\d+:\d+:Olena Shevchenko:\/home\/olena:\/bin\/bash/);
    expect(output).toMatch(/id: uid=\d+\(olena\) gid=\d+.* groups=.*\d+\(FICT\)/);
    expect(output).toContain("pamtester: successfully authenticated");
    expect(output).toContain("app-password: 0");
    expect(output).toMatch(/kpi-id-password: [1-9]/);
  });
});
