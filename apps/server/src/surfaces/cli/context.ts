import type { Kysely } from "kysely";
import type { SignOutParticipants } from "../../model/sessions/sign-out.ts";
import type { Config } from "../../platform/config/index.ts";
import type { PasswordHasher } from "../../platform/crypto/password.ts";
import type { Database } from "../../platform/db/schema.ts";
import type { Output } from "./output.ts";

export interface CliContext {
  config: Config;
  db: Kysely<Database>;
  hasher: PasswordHasher;
  out: Output;
  readStdin(): Promise<string>;
  readFile(path: string): Promise<string>;
  /** Who is told when the command ends sessions: the service's participants, built on first use (sign-out.ts). */
  signOut(): Promise<SignOutParticipants>;
}

export type CommandHandler = (context: CliContext, args: string[]) => Promise<void>;
