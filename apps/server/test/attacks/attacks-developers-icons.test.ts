import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, postJson, type TestApp } from "../support/app.ts";
import { aboveModelDatabases } from "../support/databases.ts";
import { addStudent, registerApplication } from "../support/developers.ts";

/**
 * Attacks on an application's icon (issue 56): an address on the owner's host is refused, so the icon is uploaded and
 * served from KPI ID's own origin; an uploaded SVG must therefore be a plain drawing — only SVG elements and
 * attributes a drawing needs, nothing that runs, fetches or navigates — and no file, however broken, answers 500.
 */
describe.each(aboveModelDatabases)("attacks on application icons (%s)", (kind) => {
  let t: TestApp;
  let upload: (source: string) => ReturnType<typeof postJson>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const owner = await addStudent(t.app, "owner");
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Бот",
      titleEn: "Bot",
      callbackUrls: ["https://bot.example.edu/cb"],
    });
    const url = `/api/developers/applications/${application.id}/icon`;
    upload = (source) =>
      postJson(
        t.app,
        url,
        { contentType: "image/svg+xml", data: Buffer.from(source).toString("base64") },
        { headers: { cookie: owner.cookie } },
      );
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
  const post = (url: string, body: unknown, cookie: string) => postJson(t.app, url, body, { headers: { cookie } });

  it("refuses an icon from the owner's host and serves uploaded ones from KPI ID only", async () => {
    const owner = await addStudent(t.app, "owner");
    const outside = await post(
      "/api/developers/applications",
      {
        title: "Бот",
        titleEn: "Bot",
        callbackUrls: ["https://bot.example.edu/cb"],
        iconUrl: "https://bot.example.edu/i.png",
      },
      owner.cookie,
    );
    expect(outside.json()).toMatchObject({ code: "developer.invalid_icon" });
    const { application } = await registerApplication(t.app, owner.cookie, {
      title: "Бот",
      titleEn: "Bot",
      callbackUrls: ["https://bot.example.edu/cb"],
    });
    const url = `/api/developers/applications/${application.id}`;
    const upload = (contentType: string, source: string | Buffer) =>
      post(`${url}/icon`, { contentType, data: Buffer.from(source).toString("base64") }, owner.cookie);
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink"><image x:href="https://bot.example.edu/t.png"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://bot.example.edu/p)"/></svg>',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
    ]) {
      expect((await upload("image/svg+xml", svg)).json(), svg).toMatchObject({ code: "developer.invalid_icon" });
    }
    expect((await upload("image/png", "<html>not a png</html>")).json()).toMatchObject({
      code: "developer.invalid_icon",
    });
    const drawing =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2" fill="#0a5"/></svg>';
    const stored = await upload("image/svg+xml", drawing);
    expect(stored.statusCode).toBe(200);
    const { iconUrl } = stored.json() as { iconUrl: string };
    expect(iconUrl).toMatch(/^\/api\/developers\/icons\/[0-9a-f]{64}\.svg$/);
    const served = await t.app.inject({ url: iconUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(served.body).toBe(drawing);
    expect((await post(url, { iconUrl }, owner.cookie)).json()).toMatchObject({ iconUrl });
    // An icon address on the owner's host written before uploads existed is kept but never shown.
    await t.app.db
      .updateTable("applications")
      .set({ icon_url: "https://bot.example.edu/old.png" })
      .where("id", "=", application.id)
      .execute();
    expect((await get(url, owner.cookie)).json()).toMatchObject({ iconUrl: "" });
    expect((await post(url, { iconUrl: "https://bot.example.edu/new.png" }, owner.cookie)).json()).toMatchObject({
      code: "developer.invalid_icon",
    });
  });

  const svg = (inside: string, attributes = "") =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"${attributes}>${inside}</svg>`;

  it.each([
    ["a mismatched tag", svg("<g></svg>")],
    ["a duplicate attribute", '<svg xmlns="http://www.w3.org/2000/svg" width="1" width="2"/>'],
    ["an empty document", " "],
    ["text only", "not an svg at all"],
    ["5,000 nested groups", svg(`${"<g>".repeat(5000)}${"</g>".repeat(5000)}`)],
    ["65 nested groups", svg(`${"<g>".repeat(65)}${"</g>".repeat(65)}`)],
    [
      "an XHTML refresh",
      svg('<meta xmlns="http://www.w3.org/1999/xhtml" http-equiv="refresh" content="0;url=//x.example"/>'),
    ],
    ["an XHTML form", svg('<form xmlns="http://www.w3.org/1999/xhtml" action="https://x.example"><input/></form>')],
    ["an element of another namespace", svg('<x:rect xmlns:x="urn:other"/>')],
    ["an unknown SVG element", svg("<discard/>")],
    ["a cursor", svg('<cursor x="0"/>')],
    ["a src attribute", svg('<rect src="https://x.example/t.png"/>')],
    ["an href to another place", svg('<linearGradient id="a" href="https://x.example/g.svg"/>')],
    ["an unknown attribute", svg('<rect width="2" data-x="1"/>')],
    ["a CSS escape hiding url(", svg('<rect style="fill:u\\72l(https://x.example/p)"/>')],
    ["a backslash in an attribute", svg('<rect fill="u\\72l(https://x.example/p)"/>')],
    ["a style with a property outside the list", svg('<rect style="background-image:none"/>')],
    ["a style with an outside url", svg('<rect style="fill:url(//x.example/p)"/>')],
    ["a processing instruction", `<?xml-stylesheet href="https://x.example/s.css"?>${svg("")}`],
  ])("refuses an icon with %s, never with 500", async (_, source) => {
    const response = await upload(source);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "developer.invalid_icon" });
  });

  it.each([
    ["an XML declaration", `<?xml version="1.0" encoding="UTF-8"?>\n${svg('<rect width="2" height="2"/>')}`],
    ["a byte order mark", `\uFEFF<?xml version="1.0"?>${svg('<circle cx="1" cy="1" r="1"/>')}`],
    [
      "gradients, text and a style of drawing properties",
      svg(
        '<defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0a5"/><stop offset="1" style="stop-color:#fff;stop-opacity:0.5"/></linearGradient></defs>' +
          '<g transform="scale(1)"><path d="M0 0L2 2" stroke="url(#g)" style="fill:url(#g); stroke-width: 0.1"/><text x="0" y="1" font-family="sans-serif">K</text></g>',
        ' xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64"',
      ),
    ],
    ["64 levels below the root", svg(`${"<g>".repeat(63)}<rect width="1"/>${"</g>".repeat(63)}`)],
  ])("accepts an ordinary drawing with %s", async (_, source) => {
    const response = await upload(source);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().iconUrl).toMatch(/^\/api\/developers\/icons\/[0-9a-f]{64}\.svg$/);
  });
});
