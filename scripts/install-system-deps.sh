#!/usr/bin/env bash
# Installs the system packages the test suites need, if they are missing:
#   redis-server                   the BullMQ run queue's and the cluster state's Redis
#   radosgw ceph-mon ceph-osd      a one-node Ceph Object Gateway: a real S3 server on loopback
#   nauty                          graph tools (geng, labelg, countg, dreadnaut): a graph provider and
#                                  the independent truth the graph tests compare against
#   cadical                        the SAT solver of the SAT-based providers
#   singular                       the Groebner-basis provider, and the truth the TypeScript engine is compared with
#   pari-gp                        PARI/GP (gp): the exact linear algebra provider, and the truth our matrix engine is compared with
#   coinor-cbc                     CBC (cbc): the first mixed-integer programming provider of milp.solve; glpsol and cbc also read our written CPLEX LP and MPS in tests
#   glpk-utils                     GLPK (glpsol): milp.solve's provider when CBC is absent, CBC's peer in the agreement tests, the glpsol --exact reference
#   prometheus                     for promtool: the alert rules in infra/observability are checked and unit-tested
# Tests start and stop their own instances on free loopback ports; nothing here starts a service.
set -euo pipefail

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v radosgw >/dev/null 2>&1 || need+=(radosgw)
command -v ceph-mon >/dev/null 2>&1 || need+=(ceph-mon)
command -v ceph-osd >/dev/null 2>&1 || need+=(ceph-osd)
command -v nauty-geng >/dev/null 2>&1 || need+=(nauty)
command -v cadical >/dev/null 2>&1 || need+=(cadical)
command -v Singular >/dev/null 2>&1 || need+=(singular)
command -v gp >/dev/null 2>&1 || need+=(pari-gp)
command -v cbc >/dev/null 2>&1 || need+=(coinor-cbc)
command -v glpsol >/dev/null 2>&1 || need+=(glpk-utils)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
[ "${#need[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "install-system-deps: missing ${need[*]}; run as root (or: sudo apt-get install -y ${need[*]})" >&2
  exit 1
fi
echo "install-system-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian starts packaged services on install where it can; the tests run their own instances.
for unit in redis-server ceph-mon.target ceph-osd.target ceph-radosgw.target prometheus; do
  systemctl stop "$unit" >/dev/null 2>&1 || true
done
