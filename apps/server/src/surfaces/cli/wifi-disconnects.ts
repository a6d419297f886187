import { WifiDisconnects } from "../../protocols/radius/disconnect.ts";
import type { CliContext } from "./context.ts";

/**
 * The CLI's Disconnect-Requests (protocols/radius/disconnect.ts): the command waits for the answers before it
 * exits, and a failure is written to standard error beside its audit row.
 */
export function cliWifiDisconnects(context: CliContext): WifiDisconnects {
  const tell = (facts: object, message: string) => process.stderr.write(`${message}: ${JSON.stringify(facts)}\n`);
  return new WifiDisconnects({
    db: context.db,
    clock: () => new Date(),
    log: { warn: tell, error: tell },
    coa: context.config.wifi.coa,
  });
}

/** The words a command adds to its answer: how many connected devices were disconnected. */
export const disconnectedNote = (answers: string[]) =>
  answers.length === 0
    ? ""
    : `; ${answers.filter((answer) => answer === "ack").length} of ${answers.length} connected device(s) disconnected`;

/** The answer's field, only when devices were connected (the answer otherwise stays as it was). */
export const disconnectedCount = (answers: string[]): { disconnected?: number } =>
  answers.length === 0 ? {} : { disconnected: answers.filter((answer) => answer === "ack").length };
