# Multi-stage: build with dev dependencies, run with production ones only, as a non-root
# user. The runtime stage needs nothing but node: no npm, no shell (exec-form commands).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY operations ./operations
# The build script (`npm run build`): after compiling it runs the operations' prebuild
# modules, which write the data they read at run time into dist/ (the word index of
# misc/password-strength, 1.6 MB), so that the image carries it.
COPY scripts/build.mjs ./scripts/build.mjs
# Production dependencies only, less what node never loads (types, sources, maps, docs;
# GraphiQL's ESM bundle, loaded as CommonJS; Swagger UI's builds other than the bundle;
# zxcvbn-ts's sources, browser bundles and ESM builds, required as CommonJS; the Temporal
# polyfill's global and full builds).
RUN node scripts/build.mjs && npm prune --omit=dev --no-audit --no-fund \
  && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
    -o -name '*.map' -o -name '*.md' \) -exec rm -f {} + \
  && rm -rf node_modules/@zxcvbn-ts/*/src node_modules/@zxcvbn-ts/*/dist/zxcvbn-ts.js \
  && find node_modules/@zxcvbn-ts -type f -name '*.mjs' -exec rm -f {} + \
  && rm -rf node_modules/temporal-polyfill/full node_modules/temporal-polyfill/global*.js \
  && rm -rf node_modules/@graphql-yoga/render-graphiql/esm \
  && rm -f node_modules/swagger-ui-dist/swagger-ui-es-bundle*.js node_modules/swagger-ui-dist/swagger-ui.js \
    node_modules/swagger-ui-dist/swagger-ui-standalone-preset.js

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Files stay root-owned: the service only reads them (run with a read-only root filesystem).
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The service handles SIGTERM itself (drain, then exit 0); no shell in between. The heap caps
# (old space 128 MB, young semi-spaces 8 MB) and no Maglev tier keep a process under 150 MB
# RSS under load and hold the worst case the request and connection bounds admit (see
# docs/budgets-and-fairness.md, Memory envelope); as npm start. MALLOC_ARENA_MAX=2: V8's helper
# threads would otherwise each grow a malloc arena of their own (~8 MB more under costly load).
# MALLOC_MMAP_THRESHOLD_ fixed at 128 KiB: a large answer's buffer is mapped and unmapped,
# never left as a hole in malloc's heap (glibc raises a dynamic threshold past such sizes).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "--no-maglev", "dist/src/server.js"]
