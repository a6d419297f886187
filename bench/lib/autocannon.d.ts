// The few parts of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Requests per second across all connections (open-loop pacing). */
    overallRate?: number;
    /** Rewrites each request before it is sent, e.g. to rotate a query parameter. */
    requests?: { setupRequest?: (request: { path: string }) => { path: string } }[];
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    /** Answers counted by HTTP status, e.g. { "200": { count: 123 } }. */
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
