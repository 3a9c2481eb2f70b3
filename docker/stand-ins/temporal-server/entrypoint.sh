#!/bin/sh
# Renders /etc/temporal/config/docker.yaml from the official temporalio/server image's variables, then runs
# `temporal-server --env docker start` (every service in this one process, or those SERVICES names):
#   DB (postgres12), DB_PORT, POSTGRES_SEEDS, POSTGRES_USER, POSTGRES_PWD, DBNAME, VISIBILITY_DBNAME,
#   NUM_HISTORY_SHARDS, BIND_ON_IP, TEMPORAL_BROADCAST_ADDRESS, FRONTEND_GRPC_PORT, FRONTEND_HTTP_PORT,
#   DYNAMIC_CONFIG_FILE_PATH, LOG_LEVEL, SQL_MAX_CONNS, SQL_MAX_IDLE_CONNS, SERVICES (frontend:history:...),
#   PROMETHEUS_ENDPOINT (host:port; no metrics listener without it).
set -eu

case "${DB:-postgres12}" in
  postgres12 | postgres12_pgx) ;;
  *)
    echo "entrypoint: DB=$DB: this stand-in image serves PostgreSQL (postgres12) only" >&2
    exit 1
    ;;
esac
: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
bind=${BIND_ON_IP:-127.0.0.1}
broadcast=${TEMPORAL_BROADCAST_ADDRESS:-}
if [ -z "$broadcast" ]; then
  # As the official image does: bound to every interface, the cluster reaches this host at its own address.
  if [ "$bind" = 0.0.0.0 ]; then broadcast=$(hostname -I | awk '{print $1}'); else broadcast=$bind; fi
fi
# YAML double-quoted scalars: a password may hold any character but " and \ need escaping.
quote() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
datastore() { # datastore <name> <database>
  cat <<YAML
    $1:
      sql:
        pluginName: ${DB:-postgres12}
        databaseName: $(quote "$2")
        connectAddr: $(quote "${POSTGRES_SEEDS%%,*}:${DB_PORT:-5432}")
        connectProtocol: tcp
        user: $(quote "$POSTGRES_USER")
        password: $(quote "${POSTGRES_PWD:-}")
        maxConns: ${SQL_MAX_CONNS:-20}
        maxIdleConns: ${SQL_MAX_IDLE_CONNS:-20}
        maxConnLifetime: 1h
YAML
}
service() { # service <name> <grpc port> <membership port> [http port]
  cat <<YAML
  $1:
    rpc:
      grpcPort: $2
      membershipPort: $3
      bindOnIP: $bind
YAML
  if [ -n "${4:-}" ]; then echo "      httpPort: $4"; fi
}

config=/etc/temporal/config/docker.yaml
umask 077 # the file holds the database password
{
  cat <<YAML
log:
  stdout: true
  level: ${LOG_LEVEL:-info}
persistence:
  numHistoryShards: ${NUM_HISTORY_SHARDS:-4}
  defaultStore: default
  visibilityStore: visibility
  datastores:
YAML
  datastore default "${DBNAME:-temporal}"
  datastore visibility "${VISIBILITY_DBNAME:-temporal_visibility}"
  cat <<YAML
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: $(quote "$broadcast")
YAML
  if [ -n "${PROMETHEUS_ENDPOINT:-}" ]; then
    cat <<YAML
  metrics:
    prometheus:
      framework: tally
      timerType: histogram
      listenAddress: $(quote "$PROMETHEUS_ENDPOINT")
YAML
  fi
  echo 'services:'
  service frontend "${FRONTEND_GRPC_PORT:-7233}" 6933 "${FRONTEND_HTTP_PORT:-7243}"
  service matching 7235 6935
  service history 7234 6934
  service worker 7239 6939
  cat <<YAML
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: $(quote "127.0.0.1:${FRONTEND_GRPC_PORT:-7233}")
dcRedirectionPolicy:
  policy: noop
dynamicConfigClient:
  filepath: $(quote "${DYNAMIC_CONFIG_FILE_PATH:-/etc/temporal/config/dynamicconfig/docker.yaml}")
  pollInterval: 60s
YAML
} >"$config"

set --
for name in $(echo "${SERVICES:-}" | tr ':,' '  '); do set -- "$@" "--service=$name"; done
exec temporal-server --root /etc/temporal --config config --env docker --allow-no-auth start "$@"
