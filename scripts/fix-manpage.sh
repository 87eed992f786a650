#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Finishes a page generate-manual wrote (mdoc):
# - every page: the header's middle reads "General Commands Manual" (groff 1.22's mdoc prefixes
#   its default operating system, "BSD", which Tender is not) and the footer "tender VERSION";
# - a subcommand's page ("tender verify", file tender.verify.1): its NAME becomes the page's name,
#   tender.verify, so that whatis/lexgrog can index it, while the synopsis still shows the command
#   as typed, tender verify;
# - the top page, tender.1: a SYNOPSIS and a DESCRIPTION listing every subcommand with its one-line
#   purpose (each sibling page's .Nd), where generate-manual lists none.
# Usage: fix-manpage.sh PAGE VERSION (rewritten in place)
set -eu
page=$1
version=$2
folder=$(dirname "$page")
sed -e '/^\.Dd /a\
.\\" The header reads "General Commands Manual", without groff mdoc'"'"'s default operating system\
.ds doc-volume-operating-system' -e "s/^\.Os\$/.Os \"tender $version\"/" "$page" > "$page.fixed"
mv -f "$page.fixed" "$page"
command=$(sed -n 's/^\.Nm "\(.*\)"$/\1/p' "$page" | head -1)
if [ -n "$command" ]; then
    name=$(echo "$command" | tr ' ' '.')
    sed -e "0,/^\.Nm \".*\"\$/s//.Nm $name/" -e "s/^\.Nm\$/.Nm \"$command\"/" "$page" > "$page.fixed"
    mv -f "$page.fixed" "$page"
    exit 0
fi
[ "$(basename "$page")" = tender.1 ] || exit 0
list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
    echo ".Sh SYNOPSIS"
    echo ".Nm"
    echo ".Ar subcommand"
    echo ".Op Ar options"
    echo ".Nm"
    echo ".Op Fl -version"
    echo ".Op Fl -help"
    echo ".Sh DESCRIPTION"
    echo ".Nm"
    echo "resolves, confirms and handles SiriKit-style payment intents with libtender: it plays the demo,"
    echo "runs dialogs from text or JSON, manages the directory, and verifies, checkpoints and signs the ledger."
    echo "Each subcommand has its own page,"
    echo ".Xr tender.SUBCOMMAND 1 ,"
    echo "and its own"
    echo ".Fl -help ."
    echo ".Ss Subcommands"
    echo ".Bl -tag -width \"directory signed-in\""
    for sub in "$folder"/tender.*.1; do
        base=$(basename "$sub" .1)
        [ "$base" != tender.help ] || continue
        words=$(echo "${base#tender.}" | tr '.' ' ')
        purpose=$(sed -n 's/^\.Nd "\(.*\)"$/\1/p' "$sub" | head -1)
        echo ".It Cm $words"
        echo "$purpose"
    done
    echo ".El"
    echo ".Ss Options"
} > "$list"
# The generated SYNOPSIS and the DESCRIPTION's heading give way to the list; the options' list stays.
awk -v list="$list" '
    /^\.Sh SYNOPSIS$/ { skipping = 1; while ((getline line < list) > 0) print line; next }
    skipping && /^\.Sh DESCRIPTION$/ { skipping = 0; next }
    !skipping { print }
' "$page" > "$page.fixed"
mv -f "$page.fixed" "$page"
