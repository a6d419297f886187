// `npm run release [-- --skip-build] [--out DIR]`: what a release hands to the people who run it, in release/:
//   kpi-id-<version>-<platform>.tar.gz  the built server as the tarball install runs it (docs/operations.md,
//                                       "systemd"): its bundle and the TypeScript its CLI runs, the web app's and
//                                       the sign-in button's builds, the production dependencies installed here
//                                       (argon2's native part is this platform's), the systemd unit, the docs
//   kpi-id-<version>-CHANGES.md         CHANGELOG.md's section for the version
//   SHA256SUMS                          both files' SHA-256, as `sha256sum -c` reads them
// and the image tag kpi-id:<version>: `podman tag` of the image `npm run test:image` built, when podman has it;
// otherwise the command that makes it is printed.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("../", import.meta.url));
const { values } = parseArgs({
  options: {
    out: { type: "string", default: join(root, "release") },
    "skip-build": { type: "boolean", default: false },
    image: { type: "string", default: "localhost/kpi-id:test" },
  },
});
const outDir = resolve(values.out ?? join(root, "release"));

/** What of the checkout the tarball carries besides the production dependencies (the Dockerfile's runtime list). */
const carried = [
  "package.json",
  "package-lock.json",
  "README.md",
  "CHANGELOG.md",
  ".env.example",
  "docs",
  "deploy",
  "packages/contracts/package.json",
  "packages/contracts/src",
  "packages/signin-button/package.json",
  "packages/signin-button/dist",
  "apps/web/package.json",
  "apps/web/dist",
  "apps/server/package.json",
  "apps/server/bin",
  "apps/server/dist",
  "apps/server/src",
  // The workspace links npm made: the server's own name and the contracts it imports.
  "node_modules/@kpi-id/server",
  "node_modules/@kpi-id/contracts",
];

/** The newest CHANGELOG.md section for `version`: from its `## <version>` heading to the next `## `. */
function changelogSection(changelog: string, version: string): string {
  const start = changelog.search(new RegExp(`^## ${version.replaceAll(".", "\\.")}(\\s|$)`, "m"));
  if (start < 0) throw new Error(`CHANGELOG.md has no section for ${version}`);
  const rest = changelog.slice(start);
  const next = rest.slice(3).search(/^## /m);
  return `${(next < 0 ? rest : rest.slice(0, next + 3)).trimEnd()}\n`;
}

/** The folders of the server's production dependencies, as installed in node_modules. */
function productionDependencies(): string[] {
  const listed = execFileSync("npm", ["ls", "--omit=dev", "--workspace", "apps/server", "--all", "--parseable"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  return (
    listed
      .split("\n")
      .map((path) => relative(root, path))
      // The server's own node_modules too: npm nests there the packages whose versions differ from the root's
      // (the tracing SDK's), and the bundle finds them from apps/server/dist.
      .filter(
        (path) =>
          (path.startsWith("node_modules/") && !path.startsWith("node_modules/@kpi-id/")) ||
          path.startsWith("apps/server/node_modules/"),
      )
  );
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function main(): void {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const changes = changelogSection(readFileSync(join(root, "CHANGELOG.md"), "utf8"), version);
  if (!values["skip-build"]) {
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const stale = execFileSync(
    process.execPath,
    ["-e", "import('./apps/server/bin/server-module.js').then((m) => console.log(m.staleBundleReason() ?? ''))"],
    { cwd: root, encoding: "utf8" },
  ).trim();
  if (stale) throw new Error(`the server's bundle is not current (${stale}): run npm run build`);
  const missing = carried.filter((path) => !existsSync(join(root, path)));
  if (missing.length > 0) throw new Error(`not built: ${missing.join(", ")} (npm run build makes them)`);

  mkdirSync(outDir, { recursive: true });
  const name = `kpi-id-${version}`;
  const tarball = `${name}-${process.platform}-${process.arch}.tar.gz`;
  const changesFile = `${name}-CHANGES.md`;
  const list = join(outDir, `${name}.files`);
  writeFileSync(list, `${[...carried, ...productionDependencies()].join("\n")}\n`);
  try {
    // One folder, kpi-id-<version>/, owned by root, in name order: the same tree gives the same listing.
    execFileSync(
      "tar",
      [
        "--create",
        "--gzip",
        `--file=${join(outDir, tarball)}`,
        "--exclude=*.test.ts",
        "--exclude=node_modules/.cache",
        "--sort=name",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        // S: the workspace links keep their relative targets.
        `--transform=s,^,${name}/,S`,
        `--directory=${root}`,
        `--files-from=${list}`,
      ],
      { stdio: "inherit" },
    );
  } finally {
    rmSync(list, { force: true });
  }
  writeFileSync(join(outDir, changesFile), changes);
  const sums = [tarball, changesFile].map((file) => `${sha256(join(outDir, file))}  ${file}`);
  writeFileSync(join(outDir, "SHA256SUMS"), `${sums.join("\n")}\n`);

  const tag = `localhost/kpi-id:${version}`;
  const podman = spawnSync("podman", ["image", "exists", values.image ?? ""], { stdio: "ignore" });
  let image: string;
  if (podman.error) image = `podman is not installed: docker build -t kpi-id:${version} . tags it`;
  else if (podman.status !== 0) image = `${values.image} is not built (npm run test:image): podman build -t ${tag} .`;
  else {
    execFileSync("podman", ["tag", values.image ?? "", tag]);
    image = `${tag} (podman tag ${values.image})`;
  }
  console.log(`release ${version} in ${relative(process.cwd(), outDir) || "."}:`);
  console.log(`  ${tarball}\n  ${changesFile}\n  SHA256SUMS (sha256sum -c SHA256SUMS checks them)`);
  console.log(`  image: ${image}`);
}

main();
