# KPI ID container image. NOT EXERCISED HERE: the machine CI runs on has no Docker
# engine, so this file has never been built by CI. The tested deployment is
# docs/operations.md (processes behind nginx, `npm run test:cluster`).
#
#   docker build -t kpi-id .
#   docker run -e NODE_ENV=production -e PUBLIC_URL=https://id.kpi.ua \
#     -e SESSION_SECRET=... -e DATABASE_URL=postgres://... -p 3000:3000 kpi-id

# The previous release's image (docker build --build-arg PREVIOUS_IMAGE=registry.example/kpi-id:0.4.0): its web
# app's hashed assets stay servable beside the new ones, for pages loaded from it during a rolling upgrade
# (docs/operations.md, "Pages open during the upgrade"). Without it, the base image, which has none.
ARG PREVIOUS_IMAGE=node:24-bookworm-slim
FROM ${PREVIOUS_IMAGE} AS previous

# --- build: the same npm commands CI runs (npm ci, npm run check, npm run build) ---
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/signin-button/package.json packages/signin-button/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY sandbox/package.json sandbox/
COPY examples/demo-app/package.json examples/demo-app/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
# The previous release's web build, which npm run build publishes beside (scripts/build-beside.ts keeps the
# assets of the two builds before the new one). The argument is named in the step so that a build cache never
# reuses the files of another previous image.
ARG PREVIOUS_IMAGE
RUN --mount=type=bind,from=previous,source=/,target=/previous \
    if [ -d /previous/app/apps/web/dist ]; then \
      mkdir -p apps/web/dist && cp -a /previous/app/apps/web/dist/. apps/web/dist/ && echo "kept the web assets of ${PREVIOUS_IMAGE}"; \
    fi
RUN npm run check && npm run build
# Only what runs in production stays: no dev dependencies, tests or sources of the web app.
RUN npm prune --omit=dev --no-audit --no-fund \
 && rm -rf apps/web/src apps/server/test e2e bench cluster .ci
# The server's bundle must still be current (apps/server/bin/server-module.js), or the image would run its source.
RUN node -e "import('./apps/server/bin/server-module.js').then((m) => { const why = m.staleBundleReason(); if (why) { console.error(why); process.exit(1); } })"

# --- runtime: Node 24 runs the server's bundle (npm run build, apps/server/dist) as an unprivileged user ---
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/var/lib/kpi-id
# glibc reads this at start: see apps/server/src/platform/production-process.ts.
ENV MALLOC_MMAP_THRESHOLD_=32768
WORKDIR /app
COPY --from=build --chown=root:root /src /app
RUN mkdir -p /var/lib/kpi-id && chown node:node /var/lib/kpi-id
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3000/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SIGTERM finishes in-flight requests, then exits (within 15 s).
STOPSIGNAL SIGTERM
# The flags and entry of src/platform/production-process.ts (operations-doc.test checks they agree).
CMD ["node", "--max-semi-space-size=2", "--expose-gc", "apps/server/bin/kpi-id-server.js"]
