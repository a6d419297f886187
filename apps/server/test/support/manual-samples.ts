import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export const manual = (lang: "uk" | "en") => readFileSync(join(repoRoot, `docs/integration-manual/${lang}.md`), "utf8");

/** The fenced block of the given language whose first lines are `opening`, exactly as the manual shows it. */
export function manualBlock(lang: "uk" | "en", fence: string, opening: string): string {
  const blocks = [...manual(lang).matchAll(new RegExp(`\`\`\`${fence}\\n([\\s\\S]*?)\\n\`\`\``, "g"))];
  const found = blocks.map((block) => block[1] ?? "").find((code) => code.startsWith(opening));
  if (!found) throw new Error(`no ${opening} sample in the ${lang} manual`);
  return found;
}

export interface ManualSample {
  name: string;
  file: string;
  fence: string;
  opening: string;
  /** Where the sample takes KPI ID's answer, which it must be registered with. */
  callbackPath: "/kpi-id/callback" | "/oidc/callback";
  protocol: "ticket" | "oidc";
  /** The run command the manual gives, with the port the test chose. */
  command: (file: string, port: number) => { command: string; args: string[] };
}

export const manualSamples: ManualSample[] = [
  {
    name: "Node.js",
    file: "callback.mjs",
    fence: "js",
    opening: "// callback.mjs",
    callbackPath: "/kpi-id/callback",
    protocol: "ticket",
    command: (file) => ({ command: process.execPath, args: [file] }),
  },
  {
    name: "Python",
    file: "callback.py",
    fence: "python",
    opening: "# callback.py",
    callbackPath: "/kpi-id/callback",
    protocol: "ticket",
    command: (file) => ({ command: "python3", args: [file] }),
  },
  {
    name: "PHP",
    file: "callback.php",
    fence: "php",
    opening: "<?php\n// callback.php",
    callbackPath: "/kpi-id/callback",
    protocol: "ticket",
    // As the manual tries it: PHP's built-in server with the sample as the router for every path.
    command: (file, port) => ({ command: "php", args: ["-S", `localhost:${port}`, file] }),
  },
  {
    name: "OpenID Connect",
    file: "oidc.mjs",
    fence: "js",
    opening: "// oidc.mjs",
    callbackPath: "/oidc/callback",
    protocol: "oidc",
    command: (file) => ({ command: process.execPath, args: [file] }),
  },
];

/**
 * Under the repository, so the OpenID Connect sample's `import "openid-client"` finds the package the
 * manual tells integrators to install (already in node_modules: nothing is downloaded).
 */
export function sampleDirectory(): string {
  // Two callers in one millisecond (a describe.each's blocks) must not share a folder one of them removes.
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
  return mkdtempSync(join(repoRoot, ".tmp", `manual-samples-${process.pid}-`));
}

/** The openid-client major version the repository has, which the OpenID Connect sample runs with. */
export function installedOpenidClientMajor(): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, "node_modules/openid-client/package.json"), "utf8")) as {
    version: string;
  };
  return pkg.version.split(".")[0] ?? "";
}

/** The web app's build, whose sign-in pages the person goes through; `npm test` builds it first. */
export function webDist(): string {
  const dist = join(repoRoot, "apps/web/dist");
  if (!existsSync(join(dist, "index.html"))) {
    throw new Error(`${dist} has no build: run npm run build (the samples sign in through KPI ID's own pages)`);
  }
  return dist;
}

export interface RunningSample {
  site: string;
  child: ChildProcess;
  /** What the sample printed, for the failure message. */
  output(): string;
}

/** Saves the sample as the manual names it and starts it on loopback with the given settings. */
export async function startSample(
  directory: string,
  sample: ManualSample,
  code: string,
  env: Record<string, string>,
  port: number,
): Promise<RunningSample> {
  const file = join(directory, sample.file);
  writeFileSync(file, code);
  const { command, args } = sample.command(file, port);
  const child = spawn(command, args, {
    cwd: directory,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const site = `http://localhost:${port}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) break;
    try {
      await fetch(`${site}/`, { redirect: "manual" });
      return { site, child, output: () => printed };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill();
  throw new Error(`the ${sample.name} sample never answered at ${site}:\n${printed}`);
}
