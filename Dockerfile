# KPI ID container image. `npm run test:image` builds and runs it with podman on CI's machine
# (docs/container.md): signed in through, unprivileged, read-only root file system, SIGTERM and
# HEALTHCHECK checked, and compose.yaml's topology started from it.
#
#   docker build -t kpi-id .
#   docker run -e NODE_ENV=production -e PUBLIC_URL=https://id.kpi.ua \
#     -e SESSION_SECRET=... -e DATABASE_URL=postgres://... -p 3000:3000 --read-only --tmpfs /tmp kpi-id
#
# NODE_IMAGE: a Debian image with Node 24 and npm on PATH and a user `node` (uid 1000). The official image by
# default; `npm run test:image` passes one it makes without any registry (cluster/image/base.ts).
ARG NODE_IMAGE=node:24-bookworm-slim

# The previous release's image (--build-arg PREVIOUS_IMAGE=registry.example/kpi-id:0.4.0): its web app's hashed
# assets stay servable beside the new ones, for pages loaded from it during a rolling upgrade (docs/operations.md,
# "Pages open during the upgrade"). Without it, the base image, which has none.
ARG PREVIOUS_IMAGE=${NODE_IMAGE}
FROM ${PREVIOUS_IMAGE} AS previous

# --- build: npm ci and npm run build, as CI does ---
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/signin-button/package.json packages/signin-button/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY sandbox/package.json sandbox/
COPY examples/demo-app/package.json examples/demo-app/
COPY e2e/package.json e2e/
# The browsers of the end-to-end tests are never needed here (a browser test is not run in the image).
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 NPM_CONFIG_UPDATE_NOTIFIER=false
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund --loglevel=error
COPY . .
# The previous release's web build, which npm run build publishes beside (scripts/build-beside.ts keeps the
# assets of the two builds before the new one). The argument is named in the step so that a build cache never
# reuses the files of another previous image.
ARG PREVIOUS_IMAGE
RUN --mount=type=bind,from=previous,source=/,target=/previous \
    if [ -d /previous/app/apps/web/dist ]; then \
      mkdir -p apps/web/dist && cp -a /previous/app/apps/web/dist/. apps/web/dist/ && echo "kept the web assets of ${PREVIOUS_IMAGE}"; \
    fi
RUN npm run build
# The production dependencies of the server alone (not the web app's, the sandbox's or the tests'), installed
# afresh from the same lock file, so the image carries none of the build tools.
# What no running program reads goes too: source maps (Node reads them only with --enable-source-maps), type
# declarations, the packages' own TypeScript and their documents (32 MB of the 112), and the folders of tests,
# examples, benchmarks and documents at a package's root (14 MB more; a folder so named inside a package's code
# stays). find does not follow the workspace links, so the contracts' TypeScript, which the server runs, stays.
# The server's own node_modules holds the versions of its dependencies that differ from the ones the other
# workspaces hoisted (OpenTelemetry's trace SDK among them): it goes into the image too, made empty when there is none.
RUN --mount=type=cache,target=/root/.npm rm -rf node_modules */*/node_modules \
 && npm ci --omit=dev --workspace apps/server --no-audit --no-fund --loglevel=error \
 && mkdir -p apps/server/node_modules \
 && find node_modules apps/server/node_modules -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.md' \
      -o -name '*.yml' -o -name '.npmignore' -o -name '.eslintrc*' -o -name '*.tsbuildinfo' -o -name 'CHANGELOG*' \) -delete \
 && find node_modules apps/server/node_modules -type d \( -name test -o -name tests -o -name __tests__ -o -name fixtures \
      -o -name example -o -name examples -o -name bench -o -name benchmark -o -name benchmarks -o -name docs -o -name doc \
      -o -name coverage -o -name .github \) -prune \
      -exec sh -c 'for dir; do if [ -f "$dir/../package.json" ]; then rm -rf "$dir"; fi; done' sh {} +
# PGlite (the embedded database) is imported as an ES module, with the one extension the migrations create
# (pg_trgm, platform/db/index.ts): its CommonJS copies, its node-postgres adapter and the other 36 extensions go.
RUN cd node_modules/@electric-sql/pglite/dist \
 && test -f pg_trgm.tar.gz && test -f index.js && test -f contrib/pg_trgm.js \
 && find . -name '*.cjs' -delete && rm -rf node-postgres \
 && find . -maxdepth 1 -name '*.tar.gz' ! -name pg_trgm.tar.gz -delete

# --- the runtime's base: NODE_IMAGE without npm, npx, corepack and yarn, which nothing in the image runs (the server,
# the CLI and the health check run `node`). Removed in a layer of its own they would still be shipped in the base's
# layer, so the runtime starts from scratch with a copy of this stage's files: one layer, 16 MB smaller.
FROM ${NODE_IMAGE} AS node-only
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* /usr/local/include/node /usr/local/share/doc/node \
      /usr/local/share/man /root/.npm /tmp/* /var/cache/apt/*.bin /var/lib/apt/lists/* \
      /usr/share/bash-completion /usr/share/lintian /usr/share/zsh \
 && node --version

# --- runtime: Node 24 runs the server's bundle (apps/server/dist) as an unprivileged user ---
FROM scratch AS runtime
COPY --from=node-only / /
# The base image's PATH (an image made from scratch has none of its environment).
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/var/lib/kpi-id
# glibc reads this at start: see apps/server/src/platform/production-process.ts.
ENV MALLOC_MMAP_THRESHOLD_=32768
WORKDIR /app
# Only what runs: the server (its bundle, and the TypeScript the CLI and migrations run), the contracts it
# shares with the web app, the web app's and the sign-in button's builds, and the production dependencies.
COPY --from=build /src/package.json /app/
COPY --from=build /src/node_modules /app/node_modules
COPY --from=build /src/packages/contracts/package.json /app/packages/contracts/
COPY --from=build /src/packages/contracts/src /app/packages/contracts/src
COPY --from=build /src/packages/signin-button/package.json /app/packages/signin-button/
COPY --from=build /src/packages/signin-button/dist /app/packages/signin-button/dist
COPY --from=build /src/apps/web/dist /app/apps/web/dist
COPY --from=build /src/apps/server/package.json /app/apps/server/
COPY --from=build /src/apps/server/node_modules /app/apps/server/node_modules
COPY --from=build /src/apps/server/bin /app/apps/server/bin
COPY --from=build /src/apps/server/dist /app/apps/server/dist
COPY --from=build /src/apps/server/src /app/apps/server/src
# The server's bundle must still be current in what the image carries (apps/server/bin/server-module.js), or the image would run its source.
RUN node -e "import('./apps/server/bin/server-module.js').then((m) => { const why = m.staleBundleReason(); if (why) { console.error(why); process.exit(1); } })"
# The embedded database's folder when DATABASE_URL is unset; mount a volume there (the root file system may be
# read-only: `--read-only --tmpfs /tmp`).
RUN mkdir -p /var/lib/kpi-id && chown node:node /var/lib/kpi-id
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM finishes in-flight requests, then exits (within 15 s).
STOPSIGNAL SIGTERM
# The flags and entry of src/platform/production-process.ts (operations-doc.test checks they agree).
CMD ["node", "--max-semi-space-size=2", "--expose-gc", "apps/server/bin/kpi-id-server.js"]
