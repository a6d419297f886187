import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { environmentSchema } from "../../src/platform/config/schema.ts";
import {
  productionCommand,
  productionEnvironment,
  productionNodeFlags,
  productionStartScript,
} from "../../src/platform/production-process.ts";

const root = new URL("../../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

describe("operator documentation", () => {
  it("names every configuration variable in docs/operations.md and .env.example", () => {
    const operations = read("docs/operations.md");
    const example = read(".env.example");
    const variables = Object.keys(environmentSchema().shape);
    expect(variables.filter((name) => !operations.includes(`\`${name}\``))).toEqual([]);
    expect(variables.filter((name) => !example.includes(name))).toEqual([]);
  });

  it("shows the nginx configuration the cluster test runs", () => {
    const operations = read("docs/operations.md");
    const template = read("cluster/nginx.conf.template");
    for (const directive of [
      "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
      "proxy_next_upstream error timeout;",
      "keepalive 32;",
    ]) {
      expect(template).toContain(directive);
      expect(operations).toContain(directive);
    }
  });

  it("starts the service the same way in the guide, the Docker image and the package script", () => {
    expect(read("docs/operations.md")).toContain(productionCommand);
    const dockerCommand = JSON.stringify(["node", ...productionNodeFlags, "apps/server/bin/kpi-id-server.js"]);
    const dockerfile = read("Dockerfile");
    expect(dockerfile.replaceAll(", ", ",")).toContain(`CMD ${dockerCommand}`);
    for (const [name, value] of Object.entries(productionEnvironment)) {
      expect(dockerfile).toContain(`ENV ${name}=${value}`);
    }
    const { scripts } = JSON.parse(read("apps/server/package.json")) as { scripts: { start: string } };
    expect(scripts.start).toBe(productionStartScript);
  });
});
