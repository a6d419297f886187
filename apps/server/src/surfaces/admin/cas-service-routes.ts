import {
  type CasServices,
  casServiceRemoveSchema,
  casServiceRequestSchema,
  casServicesSchema,
  errorBodySchema,
  personIdParamsSchema,
} from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { casRenameProblem, mailWithoutConsent } from "../../model/cas/release-policy.ts";
import {
  type CasServiceSettings,
  CasServiceTakenError,
  casServiceProblem,
  casServicesOf,
  removeCasService,
  setCasService,
} from "../../model/cas/services.ts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { requireApplication } from "./application-detail-routes.ts";
import { auditByOperator, guardConsoleRoutes } from "./plugin.ts";

const refusals = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ["admin"];

async function servicesView(db: Db, publicUrl: string, applicationId: string): Promise<CasServices> {
  const services = await casServicesOf(db, applicationId);
  return {
    serverUrl: `${publicUrl}/cas`,
    services: services.map(({ url, match, attributes, renames, singleLogout, proxy }) => ({
      url,
      match,
      attributes,
      renames,
      singleLogout,
      proxy,
    })),
  };
}

/** The console's view of an application's CAS services (docs/cas.md); the CLI's `app cas` does the same. */
export const adminCasServiceRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);
  const path = "/api/admin/applications/:id/cas-services";

  app.get(
    path,
    {
      config: { permission: "apps.view", subject: "application" },
      schema: {
        tags,
        summary: "An application's CAS services",
        description: "The CAS server URL its clients are given and each service: address, exact or prefix, settings.",
        params: personIdParamsSchema,
        response: { 200: casServicesSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      return servicesView(app.db, app.config.publicUrl, application.id);
    },
  );

  app.post(
    path,
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Register or change a CAS service",
        description:
          'An exact https URL, or with `prefix` every address under a path ending in "/" (plain http only on ' +
          "this computer). 400 `cas.service_invalid`; 409 `cas.service_taken` when another application's service " +
          "reaches the same addresses; 400 `cas.rename_invalid` for a rename that could not run (`details` says " +
          "which attribute and why), `cas.mail_not_consented` for `mail` to an application whose people consent. " +
          "Audited.",
        params: personIdParamsSchema,
        body: casServiceRequestSchema,
        response: { 200: casServicesSchema, 409: errorBodySchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      const { url, prefix, singleLogout, proxy, attributes, renames } = request.body;
      const match = prefix ? "prefix" : "exact";
      const problem = casServiceProblem(url, match);
      if (problem) throw new AppError("cas.service_invalid", { details: [{ path: "body.url", message: problem }] });
      const renameProblem = casRenameProblem(attributes, renames);
      if (renameProblem) {
        const details = [{ path: `body.renames.${renameProblem.attribute}`, message: renameProblem.problem }];
        throw new AppError("cas.rename_invalid", { details });
      }
      if (mailWithoutConsent(application, attributes)) throw new AppError("cas.mail_not_consented");
      const settings: CasServiceSettings = {
        url,
        applicationId: application.id,
        match,
        attributes,
        renames,
        singleLogout,
        proxy,
      };
      try {
        await setCasService(app.db, settings);
      } catch (error) {
        if (error instanceof CasServiceTakenError) throw new AppError("cas.service_taken");
        throw error;
      }
      await auditByOperator(request, {
        type: "application_updated",
        result: "success",
        applicationId: application.id,
        details: { casService: url, match, attributes, renames },
      });
      return servicesView(app.db, app.config.publicUrl, application.id);
    },
  );

  app.post(
    `${path}/remove`,
    {
      config: { permission: "apps.manage", subject: "application" },
      schema: {
        tags,
        summary: "Forget a CAS service",
        description: "Its address gets no more service tickets. Audited.",
        params: personIdParamsSchema,
        body: casServiceRemoveSchema,
        response: { 200: casServicesSchema, ...refusals },
      },
    },
    async (request) => {
      const application = await requireApplication(app.db, request.params.id);
      if (await removeCasService(app.db, application.id, request.body.url)) {
        await auditByOperator(request, {
          type: "application_updated",
          result: "success",
          applicationId: application.id,
          details: { casServiceRemoved: request.body.url },
        });
      }
      return servicesView(app.db, app.config.publicUrl, application.id);
    },
  );
};
