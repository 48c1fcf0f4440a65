#!/bin/sh
# Copies the README's screenshots from the browser tests' output (build/screenshots, or
# $TINSEL_SCREENSHOT_DIR) to docs/screenshots. Run the browser tests first:
#   ctest --test-dir build -R browser_ && scripts/update_screenshots.sh
# Fails, copying nothing, when a screenshot the README shows is missing.
set -eu
cd "$(dirname "$0")/.."
src=${TINSEL_SCREENSHOT_DIR:-build/screenshots}
# The files the README shows: desktop in English, phones in German, one of each game and the frame.
files="happy-holidays.png happy-holidays-phone.png happy-holidays-results.png
unterm-baum.png unterm-baum-memorize-phone-de.png unterm-baum-reveal-phone-de.png
christmas-penguins.png christmas-penguins-phone-de.png christmas-penguins-stop.png
lobby.png invite-de-390.png"
for f in $files; do
  [ -f "$src/$f" ] || { echo "missing $src/$f: run the browser tests first" >&2; exit 1; }
done
mkdir -p docs/screenshots
rm -f docs/screenshots/*.png
for f in $files; do cp "$src/$f" docs/screenshots/; done
echo "copied $(echo $files | wc -w) screenshots to docs/screenshots"
