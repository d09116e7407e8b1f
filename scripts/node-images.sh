#!/usr/bin/env bash
# Prints the path of a Node binary of the release line the role images run (their Dockerfiles
# start FROM node:24), installing it first if needed: the official build, from the npm
# registry's node-linux-<arch> package, into .tmp/node-images/ (not the machine's Node).
# scripts/test.sh runs the end-to-end suites under it as well, so what ships is what is tested.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${JACOBIAN_IMAGE_NODE_VERSION:-24.22.3}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-images: no Node build for $(uname -m)" >&2; exit 1 ;;
esac
prefix=".tmp/node-images/$version"
node_bin="$prefix/node_modules/node-linux-$arch/bin/node"
if [ ! -x "$node_bin" ] || [ "$("$node_bin" --version)" != "v$version" ]; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  npm install --no-save --no-audit --no-fund --ignore-scripts --prefix "$prefix" "node-linux-$arch@$version" >&2
fi
echo "$(pwd)/$node_bin"
