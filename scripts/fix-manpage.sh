#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Makes a page generate-manual wrote for a subcommand ("tender verify", file tender.verify.1)
# one whatis/lexgrog can index: its NAME becomes the page's name, tender.verify, while the
# synopsis still shows the command as typed, tender verify. The top page is left as it is.
# Usage: fix-manpage.sh PAGE (rewritten in place)
set -eu
page=$1
command=$(sed -n 's/^\.Nm "\(.*\)"$/\1/p' "$page" | head -1)
[ -n "$command" ] || exit 0
name=$(echo "$command" | tr ' ' '.')
sed -e "0,/^\.Nm \".*\"\$/s//.Nm $name/" -e "s/^\.Nm\$/.Nm \"$command\"/" "$page" > "$page.fixed"
mv -f "$page.fixed" "$page"
