import type { FastifyInstance } from "fastify";

/**
 * The web app sends `Content-Type: application/json` on every call, also on
 * body-less POSTs such as logout; an empty body then means "no body", not an error.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const defaultParser = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    defaultParser(request, text, done);
  });
}
