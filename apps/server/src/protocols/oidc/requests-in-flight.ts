import { machineryOn } from "../../platform/bench-switches.ts";

/**
 * How many provider requests this process is serving. A token request starts its one write before its answer is
 * ready (claims.ts, request-memory.ts `startFlush`) only when it is the only one: the process would otherwise sit
 * idle through the commit. With others in flight the processor is what bounds the rate and the commit's wait is
 * filled by them; starting early then measured slower (issue 63: 0.84× with eight refreshes in flight, 1.08–1.26×
 * with one).
 */
let inFlight = 0;

/** The provider's first middleware (provider.ts): counts each request until its answer is ready to leave. */
export async function countProviderRequests(_ctx: unknown, next: () => Promise<unknown>): Promise<void> {
  if (!machineryOn("early-write")) return void (await next());
  inFlight += 1;
  try {
    await next();
  } finally {
    inFlight -= 1;
  }
}

/** Whether the request asking is the only provider request this process is serving. */
export function aloneInFlight(): boolean {
  return inFlight <= 1;
}
