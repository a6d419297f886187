// HTTP the way a browser would send it, against one instance or nginx.
export interface ClientOptions {
  /** The service's PUBLIC_URL origin: POSTs carry it as Origin (the CSRF check). */
  origin: string;
  /** The client address nginx passes on (X-Forwarded-For), so each simulated person has their own. */
  clientIp?: string;
  requestId?: string;
  /** Sent as `Authorization: Bearer …` (the /metrics scrape's METRICS_TOKEN). */
  bearer?: string;
  timeoutMs?: number;
  /**
   * A new connection for each request (Connection: close). nginx's reload closes its idle keep-alive
   * connections, and a request sent on one just then fails before reaching nginx; a browser sends it again,
   * this client would count it as failed. The rolling upgrade reloads nginx, so its load sets this.
   */
  closeConnection?: boolean;
}

export interface Answer {
  status: number;
  body: string;
  setCookie: string[];
  /** Set when no HTTP answer came at all (connection reset, timeout). */
  error?: string;
  ms: number;
}

export async function call(
  url: string,
  options: ClientOptions & { method?: string; json?: unknown; cookie?: string },
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.clientIp) headers["x-forwarded-for"] = options.clientIp;
  if (options.requestId) headers["x-request-id"] = options.requestId;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.closeConnection) headers.connection = "close";
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    headers.origin = options.origin;
  }
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: options.method ?? (options.json === undefined ? "GET" : "POST"),
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const body = await response.text();
    return {
      status: response.status,
      body,
      setCookie: response.headers.getSetCookie(),
      ms: performance.now() - started,
    };
  } catch (error) {
    return { status: 0, body: "", setCookie: [], error: String(error), ms: performance.now() - started };
  }
}

export function sessionCookie(answer: Answer): string | undefined {
  const header = answer.setCookie.find((each) => /^(__Host-)?kpi_id_session=[^;]+/.test(each));
  return header?.split(";")[0];
}

export interface SignInResult {
  cookie?: string;
  /** Which step failed and how, when it did. */
  failure?: { step: "credentials" | "grant"; status: number; error?: string; code?: string };
  requestIds: string[];
}

function codeOf(answer: Answer): string | undefined {
  try {
    return (JSON.parse(answer.body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

/** The password sign-in: credentials for a one-time grant, the grant for a session cookie. */
export async function signIn(
  base: string,
  username: string,
  password: string,
  options: ClientOptions,
  grantBase = base,
): Promise<SignInResult> {
  const first = `${options.requestId ?? username}-auth`;
  const auth = await call(`${base}/api/auth`, { ...options, requestId: first, json: { username, password } });
  if (auth.status !== 200) {
    return {
      failure: { step: "credentials", status: auth.status, error: auth.error, code: codeOf(auth) },
      requestIds: [first],
    };
  }
  const { sessionId } = JSON.parse(auth.body) as { sessionId: string };
  const second = `${options.requestId ?? username}-grant`;
  const grant = await call(`${grantBase}/api/auth/internal`, { ...options, requestId: second, json: { sessionId } });
  const cookie = sessionCookie(grant);
  if (grant.status !== 200 || !cookie) {
    return {
      failure: { step: "grant", status: grant.status, error: grant.error, code: codeOf(grant) },
      requestIds: [first, second],
    };
  }
  return { cookie, requestIds: [first, second] };
}

/** True when the cookie still opens GET /user. */
export async function sessionWorks(base: string, cookie: string, options: ClientOptions): Promise<boolean> {
  return (await call(`${base}/user`, { ...options, cookie })).status === 200;
}

export { codeOf };
