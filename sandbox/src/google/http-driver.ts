/**
 * Walks the stand-in's sign-in over plain HTTP the way a browser would:
 * follows the provider's redirects with its cookies and picks an account on
 * the chooser. Tests use it to get a real authorization response.
 */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const separator = pair.indexOf("=");
      if (separator > 0) this.#cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const MAX_REDIRECTS = 10;

export interface StandInAnswer {
  /** Where the provider finally sent the browser: the product's redirect URI with code and state, or an error. */
  redirectedTo: URL;
  /** Whether the account page was shown (the provider answered without asking otherwise). */
  choseAccount: boolean;
}

async function request(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.store(response);
  return response;
}

/** Follows redirects while they stay on the stand-in; returns the first page or the way out. */
async function follow(jar: CookieJar, start: URL, response: Response): Promise<{ url: URL; response: Response }> {
  let url = start;
  let current = response;
  for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
    const location = current.headers.get("location");
    if (current.status < 300 || current.status >= 400 || !location) return { url, response: current };
    const next = new URL(location, url);
    if (next.origin !== start.origin) return { url: next, response: current };
    url = next;
    current = await request(jar, url);
  }
  throw new Error("too many redirects at the Google stand-in");
}

/**
 * Opens an authorization URL, chooses the account with this subject, and
 * returns where the browser is sent. Pass a jar to play one browser across calls.
 */
export async function signInAtStandIn(
  authorizationUrl: string | URL,
  subject: string,
  jar: CookieJar = new CookieJar(),
): Promise<StandInAnswer> {
  const start = new URL(authorizationUrl);
  const chooser = await follow(jar, start, await request(jar, start));
  if (chooser.url.origin !== start.origin) return { redirectedTo: chooser.url, choseAccount: false };
  if (chooser.response.status !== 200) throw new Error(`the account page answered ${chooser.response.status}`);
  await chooser.response.text();
  const submitted = await request(jar, new URL(`${chooser.url.pathname}/login`, chooser.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ sub: subject }).toString(),
  });
  const end = await follow(jar, start, submitted);
  if (end.url.origin === start.origin) {
    const page = await end.response.text().catch(() => "");
    const reason = /class="lead">([^<]*)/.exec(page)?.[1] ?? page.slice(0, 200);
    throw new Error(`the stand-in stopped at ${end.url} (${end.response.status}): ${reason}`);
  }
  return { redirectedTo: end.url, choseAccount: true };
}
