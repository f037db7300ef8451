# Atrium's ready-to-run server in a container: SQLite in the /data volume by default, or
# PostgreSQL with DATABASE_URL. `docker build -t atrium .` then
# `docker run -p 8080:8080 -v atrium-data:/data atrium` (README: "Running it for others").
# NODE_IMAGE: any Debian-based Node 20 image (the smoke test builds on a local one).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN npm install -g "pnpm@$(node -p "require('./package.json').packageManager.split('@')[1]")"
COPY . .
# node-gyp uses this Node's own headers instead of downloading them.
RUN export npm_config_nodedir="$(node -p "require('path').resolve(process.execPath, '..', '..')")" \
 && pnpm install --frozen-lockfile \
 && pnpm --filter "@atrium/server..." run build
# The command is one bundled file; only the native SQLite driver sits beside it in node_modules.
RUN mkdir -p /out/node_modules \
 && cp -r packages/server/dist /out/dist \
 && cp -rL node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3 node_modules/.pnpm/better-sqlite3@*/node_modules/bindings \
      node_modules/.pnpm/file-uri-to-path@*/node_modules/file-uri-to-path /out/node_modules/ \
 && rm -rf /out/node_modules/better-sqlite3/deps /out/node_modules/better-sqlite3/src /out/node_modules/better-sqlite3/build/Release/obj* \
 && printf '{"type":"module","private":true}\n' > /out/package.json

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/atrium.db
WORKDIR /app
COPY --from=build /out /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# /healthz answers 200 when the database answers, 503 when it does not.
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1: the command handles SIGTERM itself (answers requests under way, then exits 0).
CMD ["node", "dist/cli.js", "serve"]
