// What a person's browser and an application's server send during the rush, over undici (Node's fetch): a cookie
// jar, redirects followed by hand on KPI ID's origin, and a deadline on every request (a request past it is a
// failure, as a person gives up). No browser engine: the generator's own cost stays small beside the server's.

const deadlineMs = 30_000;

export class HttpError extends Error {}

/** HTTP requests sent so far (every hop of a redirect chain counts): what "CPU per request" divides by. */
export const sent = { requests: 0 };

/** A request that answers `expected` or throws HttpError naming what it got. */
export async function call(url: string, init: RequestInit, expected: number[], toKpiId = true): Promise<Response> {
  if (toKpiId) sent.requests += 1;
  const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(deadlineMs), ...init });
  if (!expected.includes(response.status)) {
    const text = await response.text().catch(() => "");
    throw new HttpError(`${init.method ?? "GET"} ${new URL(url).pathname} answered ${response.status} ${text}`);
  }
  return response;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  readonly origin: string;
  /** The person's own address, as nginx in front of KPI ID passes it on (X-Forwarded-For). */
  readonly address: string | undefined;
  /** Whether this origin is KPI ID's (its requests count in "CPU per request"), not a stand-in's. */
  readonly isKpiId: boolean;

  constructor(origin: string, address?: string, isKpiId = true) {
    this.origin = origin;
    this.address = address;
    this.isKpiId = isKpiId;
  }

  #cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(path: string, init: RequestInit = {}, expected = [200]): Promise<Response> {
    const headers = {
      cookie: this.#cookieHeader(),
      ...(this.address ? { "x-forwarded-for": this.address } : {}),
      ...(init.headers as Record<string, string> | undefined),
    };
    const response = await call(new URL(path, this.origin).href, { ...init, headers }, expected, this.isKpiId);
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  postJson(path: string, body: unknown): Promise<Response> {
    return this.request(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", origin: this.origin },
    });
  }

  /** Follows redirects while they stay on this origin; answers the first address elsewhere. */
  async leave(path: string): Promise<URL> {
    let next = new URL(path, this.origin);
    for (let hop = 0; hop < 10; hop++) {
      const response = await this.request(next.href, {}, [200, 302, 303]);
      await response.arrayBuffer();
      const location = response.headers.get("location");
      if (!location) throw new HttpError(`${next.pathname} answered ${response.status} without leaving ${this.origin}`);
      next = new URL(location, next);
      if (next.origin !== this.origin) return next;
    }
    throw new HttpError("too many redirects");
  }
}

let addressCount = 0;

/** A new person's own address (10.0.0.0/8 has room for 16 million). */
export function nextPersonAddress(): string {
  addressCount += 1;
  return `10.${(addressCount >> 16) & 255}.${(addressCount >> 8) & 255}.${addressCount & 255}`;
}
