#!/bin/sh
# Refresh the browser editor component served by `rulekit serve` (the rules editor page):
# Ace, from the npm package ace-builds, its minified no-conflict build, only the files used.
#   scripts/vendor_editor.sh            # the version pinned below
#   scripts/vendor_editor.sh 1.46.0     # another version (then update VERSION below)
# Needs npm (to fetch the package) and tar; run from the repository's root.
set -eu
VERSION="${1:-1.45.2}"
DEST="rulekit/web/static/vendor/ace"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && npm pack --silent "ace-builds@$VERSION" >/dev/null && tar xzf ace-builds-*.tgz)
SRC="$WORK/package/src-min-noconflict"
rm -rf "$DEST"
mkdir -p "$DEST"
cp "$SRC/ace.js" "$SRC/theme-textmate.js" "$DEST/"
cp "$WORK/package/LICENSE" "$DEST/LICENSE"
cat > "$DEST/README.md" <<README
# Ace (vendored)

The code editor of the rules editor page: Ace $VERSION, from the npm package ace-builds
(https://github.com/ajaxorg/ace-builds), the \`src-min-noconflict\` build; only \`ace.js\` and
\`theme-textmate.js\` are kept. License: BSD 3-clause, in LICENSE beside this file.
Served from here by \`rulekit serve\`: nothing is fetched from the internet at run time.
Refresh: \`scripts/vendor_editor.sh [VERSION]\` from the repository's root.
README
echo "vendored Ace $VERSION into $DEST"
