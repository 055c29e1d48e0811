#!/bin/sh
# Runs a test as an unprivileged user, from a private copy of the files it needs.
#   run-as-user.sh [--stage SRC DEST]... [--] COMMAND [ARGS...]
#
# The build and source trees may sit under a directory only their owner can enter (a clone under
# `mktemp -d`, a 0700 home): the unprivileged user cannot reach them there, and opening those
# directories would open the owner's files to everyone. So every `--stage SRC DEST` copies SRC
# (a file, or a directory with all it holds; links followed) to DEST inside a fresh stage
# directory, and every "@STAGE@" in COMMAND and ARGS becomes that directory's path. The command
# runs with the stage as its working directory and GL_TEST_STAGE naming it (the test binaries
# then take every built path from GL_TEST_* variables inside it, tests/sandbox/TestSupport.h);
# the stage is removed afterwards.
#
# As root: a throw-away system user is created for the run and removed afterwards; the stage is
# root:<that user's group>, mode 0750, in /tmp (or /var/tmp): only root and that user can enter
# it, and the user can read but not change what it holds. The command runs as that user with a
# clean environment (HOME=/nonexistent, a plain PATH, the sanitizer options and the test time
# scale when set).
# As anyone else: the command runs as the caller, from a stage only the caller can enter.
#
# Exits 77 (ctest's SKIP_RETURN_CODE), after printing "SKIP: <why>", only when the environment
# cannot give the run its user (no useradd/setpriv, useradd refused) or a stage that user can
# reach. The command's own exit status 77 becomes 1, so that a test binary that happens to exit
# 77 (Catch2 exits with its failure count) is never taken for a skip.
set -u

stage=""
user=""
cleanup() {
  if [ -n "$stage" ]; then rm -rf "$stage"; fi
  if [ -n "$user" ]; then userdel "$user" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

skip() {
  echo "SKIP: $*"
  exit 77
}
die() {
  echo "run-as-user.sh: $*" >&2
  exit 1
}

# The --stage pairs, kept as positional parameters after the command is read off.
pairs=""
npairs=0
while [ $# -gt 0 ]; do
  case "$1" in
    --stage)
      [ $# -ge 3 ] || die "--stage needs SRC and DEST"
      [ -e "$2" ] || die "--stage: $2 does not exist (not built?)"
      case "$3" in /* | ../* | */../* | .. | */..) die "--stage: DEST must be a relative path inside the stage: $3" ;; esac
      npairs=$((npairs + 1))
      # Each pair is stored as two numbered variables: paths may hold any character but NUL.
      eval "src_$npairs=\$2 dest_$npairs=\$3"
      shift 3
      ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || die "no command"

root=0
[ "$(id -u)" -eq 0 ] && root=1

if [ "$root" -eq 1 ]; then
  for tool in useradd userdel setpriv; do
    command -v "$tool" >/dev/null 2>&1 || skip "running as root, but $tool is not found (PATH=$PATH): cannot run as a throw-away unprivileged user"
  done
  name="glsbx$$"
  tries=0
  # useradd waits a while for the passwd lock; another lane's useradd may still hold it. A run
  # killed before its cleanup (a ctest timeout) may have left a user of this name: take another.
  until err=$(useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$name" 2>&1); do
    tries=$((tries + 1))
    [ "$tries" -lt 3 ] || skip "useradd $name failed, cannot create the unprivileged user: $err"
    name="glsbx$$-$tries"
    sleep 1
  done
  user=$name
  gid=$(id -g "$user") || die "id -g $user failed"
  as_user() { setpriv --reuid="$user" --regid="$user" --init-groups --reset-env -- "$@"; }
  # The stage must be reachable by the user: /tmp normally is (mode 1777).
  for base in /tmp /var/tmp; do
    as_user test -x "$base" 2>/dev/null || continue
    stage=$(mktemp -d "$base/gl-unpriv-XXXXXX") || continue
    break
  done
  [ -n "$stage" ] || skip "neither /tmp nor /var/tmp can be entered by the unprivileged user: nowhere to stage the test"
else
  stage=$(mktemp -d "${TMPDIR:-/tmp}/gl-unpriv-XXXXXX") || die "mktemp -d failed"
fi

i=1
while [ "$i" -le "$npairs" ]; do
  eval "src=\$src_$i dest=\$dest_$i"
  mkdir -p "$stage/$(dirname "$dest")" || die "cannot make $stage/$(dirname "$dest")"
  cp -RL "$src" "$stage/$dest" || die "cannot stage $src"
  i=$((i + 1))
done

if [ "$root" -eq 1 ]; then
  # Readable by the user whatever modes the build's umask gave (a 077 umask makes 0600 files):
  # the stage directory itself is what keeps everyone else out.
  chmod -R u+rwX,go+rX,go-w "$stage" && chgrp "$gid" "$stage" && chmod 0750 "$stage" ||
    die "cannot set the stage's modes"
  as_user test -r "$stage" -a -x "$stage" 2>/dev/null ||
    skip "the unprivileged user cannot enter the stage $stage (a mount option or security module forbids it)"
fi

# Replace every @STAGE@ in the command and its arguments.
n=$#
while [ "$n" -gt 0 ]; do
  arg=$1
  out=""
  while :; do
    case "$arg" in
      *@STAGE@*) out="$out${arg%%@STAGE@*}$stage"; arg=${arg#*@STAGE@} ;;
      *) out="$out$arg"; break ;;
    esac
  done
  shift
  set -- "$@" "$out"
  n=$((n - 1))
done

# The clean environment keeps what tunes a test run and holds nothing private: the sanitizers'
# options (the ASan lane's) and the test time scale.
for var in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS GREENLIGHT_TEST_TIME_SCALE; do
  eval "isset=\${$var+x} value=\${$var-}"
  if [ -n "$isset" ]; then set -- "$var=$value" "$@"; fi
done

cd "$stage" || die "cannot enter $stage"
if [ "$root" -eq 1 ]; then
  as_user env HOME=/nonexistent PATH=/usr/local/bin:/usr/bin:/bin GL_TEST_STAGE="$stage" "$@"
else
  env GL_TEST_STAGE="$stage" "$@"
fi
status=$?
if [ "$status" -eq 77 ]; then
  echo "run-as-user.sh: the command exited 77; reported as a failure (77 means skipped to ctest)" >&2
  status=1
fi
exit "$status"
