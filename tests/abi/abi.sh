#!/bin/sh
# Print libdamos's ABI, one fact a line, sorted:
#   sym NAME@@VERSION          every exported function, with its version node
#   enum NAME=VALUE            every enumerator of lib/damos.h (not the
#                              DAMOS_NR_* and DAMON_NR_* counts, which grow by design)
#   offset STRUCT.MEMBER=N     every member of every public struct
#   sizeof STRUCT=N            structs without .sz (those with .sz may grow)
# Usage: abi.sh HEADER SHARED_LIBRARY CC
set -eu
hdr=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") so=$2 cc=${3:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$so" | awk '$2 == "T" { print "sym " $3 }'

# enumerators: lines "\tDAMOS_X = 3," or "\tDAMOS_X," inside "enum ... {"
enums=$(awk '/^enum [a-z_]+ \{/ { e = 1; next } e && /^\};/ { e = 0 }
	e && /^\t[A-Z][A-Z0-9_]*/ { sub(/^\t/, ""); sub(/[ =,].*/, ""); print }' "$hdr" |
	grep -v '^DAMOS_NR_\|^DAMON_NR_\|^DAMON_LRU_NR_' || true)
# struct members: "\ttype name;" inside "struct NAME {"
members=$(awk '/^struct [a-z_]+ \{/ { s = $2; next } s && /^\};/ { s = "" }
	s && /^\t[^\/ \t*]/ { l = $0; sub(/;.*/, "", l); n = split(l, w, /[ *\t]+/);
		m = w[n]; sub(/\[.*/, "", m); print s "." m }' "$hdr")
sized=$(awk '/^struct [a-z_]+ \{/ { s = $2; next } s && /^\tsize_t sz;/ { print s }
	/^\};/ { s = "" }' "$hdr")
structs=$(printf '%s\n' "$members" | cut -d. -f1 | sort -u)

{
	echo '#include <stdio.h>'
	echo '#include <stddef.h>'
	echo "#include \"$hdr\""
	echo 'int main(void) {'
	for e in $enums; do
		printf 'printf("enum %s=%%lld\\n", (long long)%s);\n' "$e" "$e"
	done
	for m in $members; do
		printf 'printf("offset %s=%%zu\\n", offsetof(struct %s, %s));\n' \
			"$m" "${m%%.*}" "${m#*.}"
	done
	for s in $structs; do
		case " $(echo $sized) " in *" $s "*) continue ;; esac
		printf 'printf("sizeof %s=%%zu\\n", sizeof(struct %s));\n' "$s" "$s"
	done
	echo 'return 0; }'
} > "$tmp/dump.c"
$cc -std=gnu11 -o "$tmp/dump" "$tmp/dump.c"
"$tmp/dump"
