import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
}

/** Drives a listening server with autocannon and answers the mean requests per second. */
export async function httpLoad(url: string, seconds: number, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    failed: result.non2xx + result.errors,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  } satisfies LoadResult;
}
