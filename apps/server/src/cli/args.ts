import { parseArgs } from "node:util";
import { UsageError } from "./usage.ts";

export type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

type OptionValue<S> = S extends { type: "string"; multiple: true }
  ? string[]
  : S extends { type: "string" }
    ? string
    : boolean;

export function parseOptions<T extends OptionSpec>(args: string[], options: T) {
  try {
    return parseArgs({
      args,
      options: { ...options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
      // --no-encrypt, --no-sign-response: a re-import keeps an SP's policy, so a flag must be able to turn it off.
      allowNegative: true,
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
