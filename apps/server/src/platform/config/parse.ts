import type { z } from "zod";
import { ConfigError } from "./error.ts";
import { withSecretFiles } from "./secret-files.ts";

function formatIssue(issue: z.core.$ZodIssue): string {
  const variable = issue.path.join(".") || "environment";
  return `${variable}: ${issue.message}`;
}

/**
 * The environment (with its `*_FILE` secrets read) as the schema parses it; throws ConfigError naming the first bad
 * variable. Every loader reads through here, so each reports a bad value the same way.
 */
export function parseEnvironment<Schema extends z.ZodType>(
  schema: Schema,
  source: Record<string, string | undefined>,
): z.output<Schema> {
  const parsed = schema.safeParse(withSecretFiles(source));
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw new ConfigError(first ? formatIssue(first) : "environment: invalid");
  }
  return parsed.data;
}
