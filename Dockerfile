# notification-emulator as an image (docs/reference.md#running-it): build with the dev tools, run dist/ only,
# as the non-root node user. The CLI is one bundle (scripts/build.mjs) that carries its
# dependencies, so the runtime stage needs no node_modules.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency needs its install script (package.json allowScripts); the build comes next.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# The web inspector's sources: the build bundles them into dist/ui (served at /__/).
COPY web ./web
RUN npm run build

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    EMULATOR_FIXTURES=/fixtures \
    EMULATOR_SCENARIOS_DIR=/scenarios
WORKDIR /app
# package.json: the version /__health reports.
COPY package.json ./
COPY --from=build /app/dist ./dist
# The bundled examples; mount your own over them with -v $PWD/fixtures:/fixtures.
COPY fixtures /fixtures
COPY scenarios /scenarios
# A writable place for --data-file (EMULATOR_DATA_FILE=/data/state.json -v emulator-data:/data).
# and for --export-on-exit: EMULATOR_EXPORT_ON_EXIT=/out/trace.json -v $PWD/out:/out keeps the trace
# written when the container stops (docs/reference.md#traces).
RUN mkdir -p /data /out && chown node:node /data /out
USER node
EXPOSE 4010
# node, not curl/wget (the slim base has neither); sends the admin token when one is set
# through EMULATOR_ADMIN_TOKEN (pass the token by env rather than --admin-token in Docker).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "const t=process.env.EMULATOR_ADMIN_TOKEN;fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/__health',{headers:t?{authorization:'Bearer '+t}:{}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and gets SIGTERM itself (the CLI closes and exits at once).
CMD ["node", "dist/cli.js"]
