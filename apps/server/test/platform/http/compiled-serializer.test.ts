import { type CurrentUser, currentUserSchema, type ErrorBody, errorBodySchema } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { compiledSerializerCompiler } from "../../../src/platform/http/compiled-serializer.ts";

const answer: CurrentUser = {
  fullName: "Олена Коваленко",
  data: { NAME: "Олена Коваленко", EMAIL: "olena@lll.kpi.ua", TAX_ID: "", AUTH_METHOD: "PASSWORD" },
  applications: [{ id: "a1", name: "campus", title: 'Кампус "КПІ"', description: "Розклад\nі оцінки" }],
};

describe("a response serializer compiled from the route's schema", () => {
  it("writes what zod's serializer writes, quotes, line breaks and Cyrillic included", () => {
    const write = compiledSerializerCompiler({ schema: currentUserSchema });
    expect(JSON.parse(write(answer))).toEqual(currentUserSchema.parse(answer));
    const error: ErrorBody = { code: "auth.not_authenticated", message: "Увійдіть" };
    expect(JSON.parse(compiledSerializerCompiler({ schema: errorBodySchema })(error))).toEqual(error);
  });

  it("leaves out every field the schema does not name, at any depth", () => {
    const write = compiledSerializerCompiler({ schema: currentUserSchema });
    const carrying = {
      ...answer,
      password_hash: "$argon2id$secret",
      applications: answer.applications.map((app) => ({ ...app, secret_hash: "s3cr3t" })),
    };
    const written = write(carrying);
    expect(written).not.toContain("argon2id");
    expect(written).not.toContain("s3cr3t");
    expect(JSON.parse(written)).toEqual(answer);
  });
});
