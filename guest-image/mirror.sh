#!/bin/bash
# Print the first Debian mirror from this machine's apt configuration that
# serves dists/$SUITE/Release. Nothing is hard-coded: the candidates are the
# URIs of deb822 .sources files and the URIs of one-line sources.list entries.
# Those whose path ends in /debian come first (security and update mirrors do
# not carry the main suite). $DAMOS_MIRROR, when set, is tried alone.
set -euo pipefail
suite=${1:-bookworm}

candidates() {
	if [ -n "${DAMOS_MIRROR:-}" ]; then
		echo "$DAMOS_MIRROR"
		return
	fi
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# deb822 stanzas: "URIs: a b c"; skip commented-out lines.
		sed -n 's/^URIs:[[:space:]]*//p' "$f" | tr ' \t' '\n\n'
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		# "deb [opts] URI suite comps": the URI is the first field with ://
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' "$f"
	done
}

mapfile -t uris < <(candidates | sed 's,/*$,,' | grep -E '^https?://' | awk '!seen[$0]++')
ordered=()
for u in "${uris[@]}"; do [[ $u == */debian ]] && ordered+=("$u"); done
for u in "${uris[@]}"; do [[ $u == */debian ]] || ordered+=("$u"); done

for u in "${ordered[@]}"; do
	if curl -fsS -o /dev/null --max-time 20 "$u/dists/$suite/Release" 2>/dev/null; then
		echo "$u"
		exit 0
	fi
	echo "mirror.sh: $u does not serve dists/$suite/Release, trying next" >&2
done
echo "mirror.sh: no mirror in the apt configuration serves dists/$suite/Release" >&2
echo "mirror.sh: (set DAMOS_MIRROR=URI to name one)" >&2
exit 1
