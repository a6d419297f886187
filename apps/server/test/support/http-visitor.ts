import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

/**
 * A visitor without a browser: plain HTTP(S) requests with a browser's cookie rules (per host and port, by path,
 * removed by Max-Age=0 or a past Expires), following redirects from one site to another. Enough to walk a person
 * through KPI ID and a web server's sign-in module (mod_auth_cas, mod_auth_openidc) as a browser would; the paths
 * matter there, since mod_auth_cas keeps its gateway cookie on the gateway's path only.
 */

export interface VisitorAnswer {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The redirect's target as an absolute address ("" when there is none). */
  location: string;
}

interface StoredCookie {
  host: string;
  name: string;
  value: string;
  path: string;
}

/** RFC 6265 §5.1.4: the cookie's path is the request path itself or a parent of it. */
function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/** RFC 6265 §5.1.4's default path: the request path up to its last "/". */
function defaultPath(requestPath: string): string {
  const last = requestPath.lastIndexOf("/");
  return last <= 0 ? "/" : requestPath.slice(0, last);
}

/** What every browser sends: mod_auth_openidc answers 401 instead of a redirect to a client that accepts no HTML. */
const browserHeaders = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) kpi-id-test",
};

export class HttpVisitor {
  private cookies: StoredCookie[] = [];
  /** The certificates of the test's own TLS servers, trusted as a campus trusts its CA. */
  private readonly trusted: string[];

  constructor(trusted: string[] = []) {
    this.trusted = trusted;
  }

  /** Hands the visitor a cookie a site would have set (KPI ID's session, made without a sign-in screen). */
  addCookie(origin: string, pair: string, path = "/"): void {
    const [name = "", ...value] = pair.split("=");
    this.store(new URL(origin).host, name, value.join("="), path);
  }

  cookieNames(origin: string): string[] {
    const host = new URL(origin).host;
    return this.cookies.filter((cookie) => cookie.host === host).map((cookie) => cookie.name);
  }

  private store(host: string, name: string, value: string, path: string): void {
    this.cookies = this.cookies.filter((c) => !(c.host === host && c.name === name && c.path === path));
    if (value !== "") this.cookies.push({ host, name, value, path });
  }

  private remember(url: URL, setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const [name = "", ...value] = pair.split("=");
      const attribute = (wanted: string) =>
        attributes.find((part) => part.toLowerCase().startsWith(`${wanted}=`))?.slice(wanted.length + 1);
      const path = attribute("path") || defaultPath(url.pathname);
      const expires = attribute("expires");
      const gone = attribute("max-age") === "0" || (expires !== undefined && Date.parse(expires) <= Date.now());
      this.store(url.host, name.trim(), gone ? "" : value.join("="), path);
    }
  }

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((cookie) => cookie.host === url.host && pathMatches(cookie.path, url.pathname))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }

  /** One request with this visitor's cookies and the given headers; remembers the cookies it sets. */
  get(address: string, headers: Record<string, string> = {}): Promise<VisitorAnswer> {
    return this.send(address, headers);
  }

  /** A form's submission (application/x-www-form-urlencoded), as a browser posts a page's form. */
  post(address: string, fields: Record<string, string>): Promise<VisitorAnswer> {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    return this.send(address, headers, new URLSearchParams(fields).toString());
  }

  private send(address: string, headers: Record<string, string>, body?: string): Promise<VisitorAnswer> {
    const url = new URL(address);
    const cookie = this.cookieHeader(url);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const sent = send(
        url,
        {
          method: body === undefined ? "GET" : "POST",
          headers: { ...browserHeaders, ...(cookie ? { cookie } : {}), ...headers },
          ...(this.trusted.length ? { ca: this.trusted } : {}),
        },
        (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            body += chunk;
          });
          response.on("end", () => {
            this.remember(url, response.headers["set-cookie"]);
            const location = response.headers.location ? new URL(response.headers.location, url).href : "";
            resolve({ url: url.href, status: response.statusCode ?? 0, headers: response.headers, body, location });
          });
        },
      );
      sent.on("error", reject);
      sent.end(body);
    });
  }

  /**
   * Follows redirects wherever they lead (KPI ID, the site, back), sending `headers` at every hop as a browser
   * extension would; stops at the first answer that is no redirect, or before an address `stopAt` accepts.
   */
  async follow(
    address: string,
    headers: Record<string, string> = {},
    stopAt: (url: URL) => boolean = () => false,
  ): Promise<{ answer: VisitorAnswer; visited: string[] }> {
    const visited = [address];
    let answer = await this.get(address, headers);
    for (let hop = 0; answer.location && hop < 20; hop += 1) {
      if (stopAt(new URL(answer.location))) break;
      visited.push(answer.location);
      answer = await this.get(answer.location, headers);
    }
    return { answer, visited };
  }
}
