# Shared by the host bats suites: fake trees and golden-file checks.
# The binary under test is $DAMOCTL (make check-bats sets it), so the same
# tests can run it under valgrind or from an installed prefix.  It is the
# test build (build/tests/damoctl-test): only its fake kernel makes a fake
# tree act as the kernel's; $DAMOCTL_SHIPPED is the damoctl that ships.

bats_load_library bats-support
bats_load_library bats-assert

: "${DAMOCTL:=$BATS_TEST_DIRNAME/../../build/tests/damoctl-test}"
: "${DAMOCTL_SHIPPED:=$BATS_TEST_DIRNAME/../../build/damoctl}"
GOLDEN="$BATS_TEST_DIRNAME/golden"

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
}

damoctl() {
	"$DAMOCTL" --root "$ROOT" "$@"
}

# nobody_damoctl: print the path of a copy of $DAMOCTL that user nobody can
# run (the clone may sit below a 0700 home directory, as CI's may), in a
# 0755 directory of its own that the test's teardown need not remove: bats
# removes $BATS_TEST_TMPDIR, and the copy is below a sibling of it.
nobody_damoctl() {
	local dir
	dir=$(mktemp -d "${TMPDIR:-/tmp}/damos-bin.XXXXXX") || return 1
	chmod 755 "$dir"
	cp "$DAMOCTL" "$dir/damoctl" && chmod 755 "$dir/damoctl" || return 1
	echo "$dir/damoctl"
}

# The fake trees are below $ROOT, never the machine's own: with ROOT unset
# (the helper sourced outside bats) "$ROOT/sys/..." is the host's sysfs.
fake_root() {
	case ${ROOT:-} in
	/?*) ;;
	*) echo "helper.bash: ROOT='${ROOT:-}' is no fake tree's root: refusing to write below /" >&2
	   return 1 ;;
	esac
}

# A debugfs damon directory of plain files, as a stock 6.1 kernel shows it.
make_dbgfs() {
	local d="$ROOT/sys/kernel/debug/damon"

	fake_root || return 1

	mkdir -p "$d"
	echo "5000 100000 60000000 10 1000" > "$d/attrs"
	: > "$d/schemes"
	echo > "$d/target_ids"
	: > "$d/init_regions"
	echo none > "$d/kdamond_pid"
	echo off > "$d/monitor_on"
	: > "$d/mk_contexts"
	: > "$d/rm_contexts"
}

put() {	# put FILE CONTENT: mkdir -p and write a line, below $ROOT only
	fake_root || return 1
	case $1 in
	/sys/* | /proc/* | /dev/* | /run/*)
		echo "helper.bash: put $1: the machine's own file, not a fake tree's" >&2
		return 1 ;;
	esac
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" > "$1"
}

# One sysfs scheme directory with the files of mm/damon/sysfs.c (6.1).
make_sysfs_scheme() {	# DIR ACTION SZMIN SZMAX ACCMIN ACCMAX AGEMIN AGEMAX
	local s=$1

	put "$s/action" "$2"
	put "$s/access_pattern/sz/min" "$3"
	put "$s/access_pattern/sz/max" "$4"
	put "$s/access_pattern/nr_accesses/min" "$5"
	put "$s/access_pattern/nr_accesses/max" "$6"
	put "$s/access_pattern/age/min" "$7"
	put "$s/access_pattern/age/max" "$8"
	for f in ms bytes reset_interval_ms; do put "$s/quotas/$f" 0; done
	for f in sz_permil nr_accesses_permil age_permil; do
		put "$s/quotas/weights/$f" 0
	done
	put "$s/watermarks/metric" none
	for f in interval_us high mid low; do put "$s/watermarks/$f" 0; done
	for f in nr_tried sz_tried nr_applied sz_applied qt_exceeds; do
		put "$s/stats/$f" 0
	done
}

# kdamond 0 with one context; $1 = state (off/on), $2 = number of schemes
# (each a pageout of the kernel documentation's access pattern).
make_sysfs() {
	local a="$ROOT/sys/kernel/mm/damon/admin"
	local k="$a/kdamonds/0" c="$a/kdamonds/0/contexts/0"
	local i

	fake_root || return 1

	put "$a/kdamonds/nr_kdamonds" 1
	put "$k/state" "${1:-off}"
	put "$k/pid" "$([ "${1:-off}" = on ] && echo 4242 || echo -1)"
	put "$k/contexts/nr_contexts" 1
	mkdir -p "$c"
	printf 'vaddr\nfvaddr\npaddr\n' > "$c/avail_operations"
	put "$c/operations" paddr
	put "$c/monitoring_attrs/intervals/sample_us" 5000
	put "$c/monitoring_attrs/intervals/aggr_us" 100000
	put "$c/monitoring_attrs/intervals/update_us" 1000000
	put "$c/monitoring_attrs/nr_regions/min" 10
	put "$c/monitoring_attrs/nr_regions/max" 1000
	put "$c/targets/nr_targets" 1
	put "$c/targets/0/pid_target" 0
	put "$c/targets/0/regions/nr_regions" 1
	put "$c/targets/0/regions/0/start" 4294967296
	put "$c/targets/0/regions/0/end" 8589934592
	put "$c/schemes/nr_schemes" "${2:-0}"
	for ((i = 0; i < ${2:-0}; i++)); do
		make_sysfs_scheme "$c/schemes/$i" pageout 4096 8192 0 5 10 20
	done
}

# An empty sysfs interface: no kdamond yet.
make_sysfs_empty() {
	put "$ROOT/sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds" 0
}

# Compare $output (with $ROOT shown as $ROOT) to golden/NAME; with
# UPDATE_GOLDEN=1 (make update-golden) write it instead.
assert_golden() {
	local want="$GOLDEN/$1" got

	got=$(printf '%s\n' "$output" | sed "s|$ROOT|\$ROOT|g")
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		printf '%s\n' "$got" > "$want"
		return 0
	fi
	[ -f "$want" ] || fail "missing golden file $want (make update-golden)"
	diff -u "$want" <(printf '%s\n' "$got") ||
		fail "output differs from golden/$1 (make update-golden, then review the diff)"
}

# A digest of every file below $ROOT, to prove nothing changed.
tree_sum() {
	(cd "$ROOT" && find . -type f -print0 | sort -z | xargs -0 md5sum)
}

# The Nth no-fill block of libdamos(3) EXAMPLES as a reader sees it (1: the
# program, 3: what it prints).
libdamos3_example() {
	sed -n '/^\.SH EXAMPLES/,/^\.SH [A-Z]/p' "$BATS_TEST_DIRNAME/../../man/libdamos.3" |
		awk -v n="$1" '/^\.nf/ { k++; in_nf = 1; next } /^\.fi/ { in_nf = 0 }
			in_nf && !/^\.R[SE]/ && k == n' |
		sed -e 's/\\e/\\/g' -e 's/\\-/-/g'
}

# The files a dry run's plan (on stdin) writes, one a line, in order:
# "echo|printf ... > FILE" and "cat|dd ... > FILE <<'EOF'" (whose body is
# skipped), the quotes taken off.
plan_paths() {
	awk '
		d != "" { if ($0 == d) d = ""; next }
		/^(cat|dd bs=[0-9]+ count=1) > .* <<\047EOF[0-9]*\047$/ {
			p = $0; sub(/^(cat|dd bs=[0-9]+ count=1) > /, "", p)
			d = p; sub(/.* <</, "", d); gsub(/\047/, "", d)
			sub(/ <<.*$/, "", p); gsub(/\047/, "", p); print p; next
		}
		/^(echo|printf) / && / > / {
			p = $0; sub(/.* > /, "", p); gsub(/\047/, "", p); print p
		}'
}
