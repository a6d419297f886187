import { parseArgs } from "node:util";
import { UsageError } from "./usage.ts";

export type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

type OptionValue<S> = S extends { type: "string"; multiple: true }
  ? string[]
  : S extends { type: "string" }
    ? string
    : boolean;

/**
 * `allowNegative`: each boolean flag also reads as `--no-FLAG` (false). Only for commands whose flags are
 * kept between runs (`saml sp add` re-imports keep an SP's policy, so a flag must be able to turn it off);
 * elsewhere a `--no-…` option may be its own flag (`app oidc --no-require-mfa`).
 */
export function parseOptions<T extends OptionSpec>(args: string[], options: T, { allowNegative = false } = {}) {
  try {
    return parseArgs({
      args,
      options: { ...options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
      allowNegative,
    }).values as { [K in keyof T]?: OptionValue<T[K]> } & { json?: boolean };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("--password-stdin expects the password on standard input");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // Only the line break that `echo` or a here-string adds is dropped; the rest is the password.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}
