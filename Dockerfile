# Referee application image: one image, four entry points
#   node --max-semi-space-size=32 --max-old-space-size=1024 dist/server.js   API (default CMD; SERVICE_NODE_FLAGS.api)
#   node --max-old-space-size=1536 dist/worker.js   Temporal worker (its V8 flags: SERVICE_NODE_FLAGS.worker)
#   node --max-old-space-size=1024 dist/cli/main.js migrate   database migrations (one-shot; CLI_NODE_FLAGS)
#   node --max-old-space-size=1024 dist/cli/main.js           ops CLI (CLI_NODE_FLAGS)
# The current Node LTS: 26 (Active LTS since October 2026). Node 20 reached its end of life in April 2026 and
# the AWS SDK warns about it at every start. Local development keeps working on Node >= 20.19 (package.json
# engines). Dependency install scripts (esbuild, protobufjs, @swc/core, ...) must run during npm ci.
ARG NODE_IMAGE=node:26-trixie-slim

# --- build: all dependencies + TypeScript compile -----------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- deps: production dependencies only ---------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

# --- runtime -------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Code and dependencies stay root-owned (read-only for the process); the app runs as `node`.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# The API's V8 flags (infra/processes.ts SERVICE_NODE_FLAGS.api); the worker's command gives its own
# (SERVICE_NODE_FLAGS.worker, as docker-compose.yml does).
CMD ["node", "--max-semi-space-size=32", "--max-old-space-size=1024", "dist/server.js"]
