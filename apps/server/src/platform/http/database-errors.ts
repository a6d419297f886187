// Error codes and messages by which node-postgres and PGlite say the server
// cannot be reached or went away, as opposed to a bad query.
const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
  "53300", // too_many_connections
]);

const unreachableMessages = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection terminated unexpectedly",
  "PGlite is closed",
  "PGlite instance is already closed",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && unreachableCodes.has(code)) return true;
    if (unreachableMessages.some((message) => current instanceof Error && current.message.includes(message))) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
