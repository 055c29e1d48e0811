#!/usr/bin/env bash
# The real-VS-Code lane (CTest: editors.vscode_real): installs what is missing into CACHE,
# packages the extension, then runs the scenarios in code-server + chromium.
#   run.sh EXT_DIR CACHE SERVER EXAMPLES SCRIPTED_MODEL [lane.mjs options]
# GREENLIGHT_UPDATE_SCREENSHOT=1 also writes scenario 3's screenshot to
# EXT_DIR/images/generate.png and scenarios 7, 8 and 13's to EXT_DIR/images/testing-{view,peek,coverage}.png
# (the images the READMEs show).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ext=$1 cache=$2 server=$3 examples=$4 model=$5
shift 5
start=$SECONDS
"$here/setup.sh" "$ext" "$cache"
echo "setup: $((SECONDS - start)) s"
readme=()
if [ "${GREENLIGHT_UPDATE_SCREENSHOT:-}" = 1 ]; then
  mkdir -p "$ext/images"
  readme=(--readme-image "$ext/images/generate.png")
fi
set +e
node "$here/lane.mjs" --cache "$cache" --out "$cache/run" --server "$server" --examples "$examples" \
  --scripted-model "$model" "${readme[@]}" "$@"
code=$?
if [ "${GREENLIGHT_UPDATE_SCREENSHOT:-}" = 1 ]; then
  # The Testing view's images (scenarios 7, 8 and 13), shown by the README's "The Testing view".
  for image in testing-view.png testing-peek.png testing-coverage.png; do
    if [ -f "$cache/run/screenshots/$image" ]; then cp "$cache/run/screenshots/$image" "$ext/images/$image"; fi
  done
fi
echo "lane total (setup included): $((SECONDS - start)) s"
exit $code
