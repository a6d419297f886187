import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";

/**
 * The rendered API reference at /api/docs. Swagger UI 5 loads only its own
 * script files (no inline script), so the service-wide CSP holds unchanged;
 * the validator badge is off because it would load an image from swagger.io.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    validatorUrl: false,
    uiConfig: { deepLinking: true },
    theme: { title: "KPI ID API reference" },
  });
}
