#!/bin/sh
# Renders config/docker.yaml from the official temporalio/ui image's variables and runs the UI server:
#   TEMPORAL_ADDRESS (gRPC frontend, default 127.0.0.1:7233), TEMPORAL_UI_IP (0.0.0.0), TEMPORAL_UI_PORT (8080),
#   TEMPORAL_UI_ENABLED (true), TEMPORAL_DEFAULT_NAMESPACE (default), TEMPORAL_DISABLE_WRITE_ACTIONS (false),
#   TEMPORAL_NOTIFY_ON_NEW_VERSION (true), TEMPORAL_CSRF_COOKIE_INSECURE (false), TEMPORAL_CORS_ORIGINS
#   (comma-separated), TEMPORAL_UI_PUBLIC_PATH.
set -eu

quote() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
bool() { # bool <value> <default>: true or false, as YAML reads it
  case "${1:-$2}" in
    true | TRUE | True | 1) echo true ;;
    false | FALSE | False | 0) echo false ;;
    *)
      echo "entrypoint: '$1' is not a boolean" >&2
      exit 1
      ;;
  esac
}
origins=""
for origin in $(echo "${TEMPORAL_CORS_ORIGINS:-}" | tr ',' ' '); do origins="$origins$(quote "$origin"), "; done

cat >config/docker.yaml <<YAML
temporalGrpcAddress: $(quote "${TEMPORAL_ADDRESS:-127.0.0.1:7233}")
host: $(quote "${TEMPORAL_UI_IP:-0.0.0.0}")
port: ${TEMPORAL_UI_PORT:-8080}
publicPath: $(quote "${TEMPORAL_UI_PUBLIC_PATH:-}")
enableUi: $(bool "${TEMPORAL_UI_ENABLED:-}" true)
defaultNamespace: $(quote "${TEMPORAL_DEFAULT_NAMESPACE:-default}")
disableWriteActions: $(bool "${TEMPORAL_DISABLE_WRITE_ACTIONS:-}" false)
notifyOnNewVersion: $(bool "${TEMPORAL_NOTIFY_ON_NEW_VERSION:-}" true)
refreshInterval: 1m
cors:
  cookieInsecure: $(bool "${TEMPORAL_CSRF_COOKIE_INSECURE:-}" false)
  allowOrigins: [${origins%, }]
YAML
exec ./ui-server --root . --config config --env docker start
