import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { Config } from "../config/index.ts";

/** The API reference integrators read; generated from the same zod schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "KPI ID API",
        description: "Campus single sign-on: sign-in, sessions, connected applications and the ticket exchange.",
        version: "1.0.0",
      },
      servers: [{ url: config.publicUrl }],
    },
    transform: jsonSchemaTransform,
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
