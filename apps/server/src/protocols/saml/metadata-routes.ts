import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { samlPaths } from "./paths.ts";

/** The IdP's metadata: what federations and SPs load to trust KPI ID. */
export const metadataRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    samlPaths.metadata,
    {
      schema: {
        tags: ["saml"],
        summary: "SAML 2.0 identity provider metadata",
        description:
          "entityID, signing certificates, SSO and Single Logout endpoints (HTTP-Redirect and HTTP-POST), mdui, " +
          "shibmd:Scope, REFEDS security contact, Sirtfi and R&S when enabled. Signed when a metadata key is configured.",
      },
    },
    async (_request, reply) => {
      const { published } = await app.saml.currentKeys();
      // metadata.ts signs with samlify: loaded on the first request for the metadata (issue 41).
      const { buildIdpMetadata } = await import("./metadata.ts");
      const xml = buildIdpMetadata({
        config: app.config.saml,
        publicUrl: app.config.publicUrl,
        supportEmail: app.config.support.email,
        keys: published,
        now: app.clock(),
      });
      return reply
        .type("application/samlmetadata+xml; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .send(xml);
    },
  );
};
