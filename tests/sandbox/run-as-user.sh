#!/bin/sh
# Runs a test binary as an unprivileged user. As root it creates a throw-away system user for
# the duration of the run and removes it afterwards; as anyone else it just runs the binary.
#   run-as-user.sh BINARY [ARGS...]
set -u
if [ "$(id -u)" -ne 0 ]; then
  exec "$@"
fi
user="glsbx$$"
if ! useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"; then
  echo "run-as-user.sh: useradd $user failed" >&2
  exit 1
fi
cleanup() { userdel "$user" >/dev/null 2>&1 || true; }
trap cleanup EXIT INT TERM
setpriv --reuid="$user" --regid="$user" --init-groups --reset-env -- \
  env HOME=/nonexistent PATH=/usr/local/bin:/usr/bin:/bin "$@"
status=$?
exit $status
