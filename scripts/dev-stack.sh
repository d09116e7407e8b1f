#!/usr/bin/env bash
# Jacobian's cluster roles on this machine, from docker-compose.yml: Redis, MinIO, the API, two
# runner pools, the checker and Jaeger.
#   npm run dev:stack                  build the images and start the stack in the foreground
#   npm run dev:stack -- -d            the same, detached (any further arguments go to `up`)
#   npm run dev:stack -- down          stop it (arguments after `down` go to `down`, e.g. -v
#                                      also deletes the volumes: MinIO's data and the checker key)
# Then MCP over Streamable HTTP is at http://127.0.0.1:8752/mcp and traces at http://127.0.0.1:16686.
set -euo pipefail
cd "$(dirname "$0")/.."

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1 && docker-compose version >/dev/null 2>&1; then
  compose=(docker-compose)
else
  echo "dev-stack: Docker Compose is not installed: neither \`docker compose\` (the Compose plugin) nor \`docker-compose\` works." >&2
  echo "dev-stack: install Docker Engine with the Compose plugin: https://docs.docker.com/compose/install/" >&2
  exit 1
fi

if ! docker info >/dev/null 2>&1; then
  echo "dev-stack: cannot reach a Docker daemon (\`docker info\` failed). Start Docker, or point DOCKER_HOST at a running daemon." >&2
  exit 1
fi

# Recorded in the images' OCI labels.
export JACOBIAN_VERSION="${JACOBIAN_VERSION:-$(node -p 'require("./package.json").version')}"

if [ "${1:-}" = "down" ]; then
  shift
  exec "${compose[@]}" -f docker-compose.yml down "$@"
fi
exec "${compose[@]}" -f docker-compose.yml up --build "$@"
