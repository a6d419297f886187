// The Dockerfile's NODE_IMAGE made on this machine without any registry: `debootstrap --variant=minbase bookworm`
// from the Debian mirror apt already uses, imported with `podman import`, then the project's own Node 24 (the
// `node` npm package's binary) and npm on top (base.Containerfile). Each step is kept for the next run: the
// trimmed Debian tree as a tarball in the cache folder (one a month and mirror), the images in podman's storage.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { must, run } from "./podman.ts";

const repository = fileURLToPath(new URL("../../", import.meta.url));
const suite = "bookworm";

/** The first Debian mirror in apt's sources (deb822 or one-line form), or deb.debian.org. */
export function aptMirror(): string {
  for (const file of ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"]) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    const deb822 = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text);
    const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text);
    const found = deb822?.[1] ?? oneLine?.[1];
    if (found) return found;
  }
  return "http://deb.debian.org/debian";
}

/** The `node` package's binary and the npm running this script (npm_execpath), or the system's npm. */
function nodeAndNpm(): { node: string; npm: string; version: string } {
  const node = join(repository, "node_modules/node/bin/node");
  if (!existsSync(node)) throw new Error(`${node} is missing: npm ci installs the project's Node`);
  const manifest = JSON.parse(readFileSync(join(repository, "node_modules/node/package.json"), "utf8")) as {
    version: string;
  };
  const execPath = process.env.npm_execpath;
  const npm = execPath?.endsWith("npm-cli.js") ? dirname(dirname(execPath)) : "/usr/lib/node_modules/npm";
  if (!existsSync(join(npm, "package.json"))) throw new Error(`no npm at ${npm}`);
  return { node, npm, version: manifest.version };
}

async function imageExists(name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await run("podman", ["image", "exists", name], { env })).code === 0;
}

/** Debian's minimal tree as a tarball in the cache, made once a month per mirror (about a minute). */
async function debianTarball(cacheDir: string, log: (line: string) => void): Promise<string> {
  const mirror = aptMirror();
  const month = new Date().toISOString().slice(0, 7);
  const key = createHash("sha256").update(mirror).digest("hex").slice(0, 8);
  const tarball = join(cacheDir, `debian-${suite}-minbase-${key}-${month}.tar`);
  if (existsSync(tarball)) return tarball;
  mkdirSync(cacheDir, { recursive: true });
  const root = join(cacheDir, `rootfs-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  log(`image: debootstrap --variant=minbase ${suite} from ${mirror} (once a month; kept in ${cacheDir})`);
  try {
    await must("debootstrap", ["--variant=minbase", suite, root, mirror]);
    // What no container reads: apt's package lists and downloads, documentation, translations.
    for (const folder of [
      "var/cache/apt",
      "var/lib/apt/lists",
      "usr/share/doc",
      "usr/share/man",
      "usr/share/info",
      "usr/share/locale",
    ]) {
      rmSync(join(root, folder), { recursive: true, force: true });
      mkdirSync(join(root, folder), { recursive: true });
    }
    const partial = `${tarball}.partial`;
    await must("tar", ["--numeric-owner", "-C", root, "-cf", partial, "."]);
    renameSync(partial, tarball);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return tarball;
}

export interface BaseImages {
  /** Debian from debootstrap: compose.ts's PostgreSQL and nginx start from it. */
  debian: string;
  /** Debian with Node and npm: the Dockerfile's NODE_IMAGE. */
  node: string;
}

/** The images' names (made now unless podman already holds them). */
export async function ensureBaseImage(options: {
  env: NodeJS.ProcessEnv;
  cacheDir: string;
  workDir: string;
  log: (line: string) => void;
}): Promise<BaseImages> {
  const { node, npm, version } = nodeAndNpm();
  const month = new Date().toISOString().slice(0, 7);
  const debianImage = `localhost/kpi-id-debian:${suite}-${month}`;
  const baseImage = `localhost/kpi-id-node:${version}-${suite}-${month}`;
  const images = { debian: debianImage, node: baseImage };
  if (!(await imageExists(debianImage, options.env))) {
    const tarball = await debianTarball(options.cacheDir, options.log);
    await must("podman", ["import", "--quiet", tarball, debianImage], { env: options.env });
  }
  if (await imageExists(baseImage, options.env)) return images;
  options.log(`image: ${baseImage} from ${debianImage} with Node ${version} (node_modules/node) and ${npm}`);
  const context = join(options.workDir, "base-context");
  rmSync(context, { recursive: true, force: true });
  mkdirSync(context, { recursive: true });
  cpSync(node, join(context, "node"));
  // The symbol table Node ships with (18 MB of its 127) is only read by debuggers.
  if ((await run("strip", [join(context, "node")])).code !== 0) options.log("image: strip failed; Node kept whole");
  cpSync(npm, join(context, "npm"), {
    recursive: true,
    filter: (path) => !/\/npm\/(docs|man)(\/|$)/.test(path),
  });
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  const trustsExtra = extraCa !== undefined && existsSync(extraCa);
  writeFileSync(join(context, "extra-ca.crt"), trustsExtra ? readFileSync(extraCa) : "");
  await must(
    "podman",
    [
      "build",
      "--quiet",
      "--build-arg",
      `EXTRA_CA=${trustsExtra ? "/usr/local/share/kpi-id/extra-ca.crt" : ""}`,
      "--build-arg",
      `DEBIAN_IMAGE=${debianImage}`,
      "-f",
      fileURLToPath(new URL("base.Containerfile", import.meta.url)),
      "-t",
      baseImage,
      context,
    ],
    { env: options.env },
  );
  rmSync(context, { recursive: true, force: true });
  return images;
}
