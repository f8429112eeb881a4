#!/usr/bin/env bats
# damoctl against fake trees of Linux 6.12's sysfs layout
# (mm/damon/sysfs-schemes.c): the files 6.12 adds to a scheme directory,
# the rule that writing nr_schemes recreates every scheme directory with
# defaults (libdamos emulates it on fake trees), and what another tool
# set, which must survive every command that does not change it.

load helper

CTX() { echo "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0"; }

# The files 6.12 adds to scheme directory $1, at its defaults.
add_612_files() {
	local s=$1

	put "$s/apply_interval_us" 0
	put "$s/target_nid" -1
	put "$s/quotas/goals/nr_goals" 0
	put "$s/quotas/effective_bytes" 0
	put "$s/filters/nr_filters" 0
	put "$s/tried_regions/total_bytes" 0
	# a file of a kernel newer than this library: kept all the same
	put "$s/future_knob" 0
}

# make_sysfs, in 6.12's layout, with the release the probe reads.
make_sysfs612() {
	make_sysfs "$@"
	put "$ROOT/proc/sys/kernel/osrelease" 6.12.118-amd64
	for ((i = 0; i < ${2:-0}; i++)); do
		add_612_files "$(CTX)/schemes/$i"
	done
}

# Scheme $1 as another tool (damo, a script) leaves it: a node, an apply
# interval, a quota goal, an anon filter and a memcg filter, a future file.
foreign() {
	local s
	s="$(CTX)/schemes/$1"

	put "$s/target_nid" 0
	put "$s/apply_interval_us" 1000000
	put "$s/quotas/goals/nr_goals" 1
	put "$s/quotas/goals/0/target_metric" some_mem_psi_us
	put "$s/quotas/goals/0/target_value" 1000
	put "$s/quotas/goals/0/current_value" 0
	put "$s/filters/nr_filters" 2
	for f in 0 1; do
		put "$s/filters/$f/type" anon
		put "$s/filters/$f/matching" Y
		put "$s/filters/$f/memcg_path" ""
		put "$s/filters/$f/addr_start" 0
		put "$s/filters/$f/addr_end" 0
		put "$s/filters/$f/damon_target_idx" 0
	done
	put "$s/filters/1/type" memcg
	put "$s/filters/1/matching" N
	put "$s/filters/1/memcg_path" /workload
	put "$s/future_knob" 7
}

# Every file of scheme directory $1 with its content, one a line.
scheme_files() {
	(cd "$1" && find . -type f ! -path './stats/*' ! -path './tried_regions/*' |
		sort | while read -r f; do printf '%s=%s\n' "$f" "$(cat "$f")"; done)
}

FOREIGN_LINE="pageout sz 4K 8K access 0 5 age 10 20 quota time 0 size 0 reset 0 weights 0 0 0 wmarks none 0 0 0 0 nid 0 apply_interval 1s filter anon filter not memcg /workload goal some_mem_psi_us 1000 0"

@test "6.12: scheme add and rm keep every file of the other schemes" {
	make_sysfs612 off 3
	foreign 1
	local before
	before=$(scheme_files "$(CTX)/schemes/1")
	run damoctl scheme list
	assert_success
	assert_line --index 1 "1: $FOREIGN_LINE"
	run damoctl scheme add stat
	assert_success
	[ "$(scheme_files "$(CTX)/schemes/1")" = "$before" ]
	[ "$(cat "$(CTX)/schemes/nr_schemes")" = 4 ]
	# the new scheme has 6.12's defaults
	[ "$(cat "$(CTX)/schemes/3/target_nid")" = -1 ]
	[ "$(cat "$(CTX)/schemes/3/future_knob")" = 0 ]
	# removing the scheme before it moves it down, whole
	run damoctl scheme rm 0
	assert_success
	[ "$(scheme_files "$(CTX)/schemes/0")" = "$before" ]
	run damoctl scheme list
	assert_line --index 0 "0: $FOREIGN_LINE"
	assert_line --index 2 --partial "2: stat "
}

@test "6.12: on a running kdamond, the kept schemes are committed whole" {
	make_sysfs612 on 2
	foreign 0
	local before
	before=$(scheme_files "$(CTX)/schemes/0")
	run damoctl -n scheme add stat
	assert_success
	assert_output --partial "echo 0 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/target_nid"
	# memcg_path as read, without the newline the kernel would keep
	assert_output --partial "printf '%s' /workload > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/filters/1/memcg_path"
	assert_output --partial "echo 7 > $ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0/future_knob"
	assert_output --partial "echo commit > "
	run damoctl scheme add stat
	assert_success
	[ "$(scheme_files "$(CTX)/schemes/0")" = "$before" ]
}

@test "6.12: the new keywords set, list and read back; JSON has them" {
	make_sysfs612 off 0
	run damoctl scheme add migrate_cold nid 0 age 10s max apply_interval 500ms \
		filter not anon filter addr 0x1000 0x2000 filter target 1 \
		filter memcg /a/b goal user_input 100 40
	assert_success
	local s
	s="$(CTX)/schemes/0"
	[ "$(cat "$s/action")" = migrate_cold ]
	[ "$(cat "$s/target_nid")" = 0 ]
	[ "$(cat "$s/apply_interval_us")" = 500000 ]
	[ "$(cat "$s/filters/nr_filters")" = 4 ]
	[ "$(cat "$s/filters/0/matching")" = N ]
	[ "$(cat "$s/filters/1/addr_end")" = 8192 ]
	[ "$(cat "$s/filters/2/damon_target_idx")" = 1 ]
	[ "$(cat "$s/filters/3/memcg_path")" = /a/b ]
	[ "$(cat "$s/quotas/goals/0/current_value")" = 40 ]
	run damoctl scheme list
	assert_output "0: migrate_cold sz 0 max access 0 max age 100 max quota time 0 size 0 reset 0 weights 0 0 0 wmarks none 0 0 0 0 nid 0 apply_interval 500ms filter not anon filter addr 0x1000 0x2000 filter target 1 filter memcg /a/b goal user_input 100 40"
	# the listed line makes the same scheme again
	line=${output#0: }
	run damoctl scheme add $line
	assert_success
	[ "$(scheme_files "$s" | sed 's/^/x/')" = "$(scheme_files "$(CTX)/schemes/1" | sed 's/^/x/')" ]
	run damoctl --json scheme list
	assert_output --partial '"target_nid":0,'
	assert_output --partial '"filters":[{"type":"anon","matching":false},{"type":"addr","matching":true,"addr_start":4096,"addr_end":8192},{"type":"target","matching":true,"target_idx":1},{"type":"memcg","matching":true,"memcg_path":"/a/b"}],"goals":[{"metric":"user_input","target":100,"current":40}]'
}

@test "migrate_cold: needs nid; refused on 6.1 and on dbgfs, naming the feature" {
	make_sysfs612 off 0
	run damoctl scheme add migrate_cold
	assert_failure
	assert_output --partial "migrate_cold: needs nid N"
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	make_sysfs off 1
	before=$(tree_sum)
	run damoctl scheme add migrate_cold nid 0
	assert_failure
	assert_output "damoctl: scheme add: scheme 1: migrate_cold needs the migrate_hot and migrate_cold actions (target_nid) (Linux 6.11+), which this kernel (sysfs, Linux 6.1 layout) lacks; nothing was changed"
	run damoctl scheme add stat filter anon
	assert_failure
	assert_output --partial "filter anon needs scheme filters (filters/) (Linux 6.3+)"
	[ "$(tree_sum)" = "$before" ]
	make_dbgfs
	run damoctl --interface dbgfs scheme add migrate_cold nid 0
	assert_failure
	assert_output --partial "which dbgfs does not have (the sysfs interface of Linux 6.11+ does)"
}

@test "unknown action and filter type: listed by their word, kept, not fatal" {
	make_sysfs612 off 2
	foreign 0
	put "$(CTX)/schemes/0/action" migrate_warm
	put "$(CTX)/schemes/0/filters/0/type" hugepage_size
	before=$(scheme_files "$(CTX)/schemes/0")
	run damoctl scheme list
	assert_success
	assert_line --index 0 --partial "0: migrate_warm sz 4K 8K"
	assert_line --index 0 --partial "filter hugepage_size filter not memcg"
	run damoctl --json scheme list
	assert_success
	assert_output --partial '"action":"migrate_warm"'
	run damoctl stats show
	assert_success
	assert_line --index 1 --partial "migrate_warm"
	run damoctl monitor status
	assert_line "schemes   2: migrate_warm, pageout"
	run damoctl scheme rm 1
	assert_success
	run damoctl scheme add stat
	assert_success
	[ "$(scheme_files "$(CTX)/schemes/0")" = "$before" ]
}

@test "min > max left by another tool: a warning, and later commands work" {
	make_sysfs612 off 1
	# 6.12 makes max 0; a tool that sets only a min age leaves 50 > 0
	put "$(CTX)/schemes/0/access_pattern/age/min" 50
	put "$(CTX)/schemes/0/access_pattern/age/max" 0
	run damoctl scheme list
	assert_success
	assert_output --partial "damoctl: warning: scheme 0: min age 50 > max age 0"
	run damoctl scheme add stat
	assert_success
	[ "$(cat "$(CTX)/schemes/0/access_pattern/age/min")" = 50 ]
	[ "$(cat "$(CTX)/schemes/0/access_pattern/age/max")" = 0 ]
	[ "$(cat "$(CTX)/schemes/nr_schemes")" = 2 ]
}

@test "6.12: writing nr_schemes recreates every scheme directory with defaults" {
	make_sysfs612 off 2
	foreign 1
	run damoctl scheme clear
	assert_success
	[ ! -e "$(CTX)/schemes/0" ]
	run damoctl scheme add stat
	assert_success
	s="$(CTX)/schemes/0"
	for f in apply_interval_us quotas/goals/nr_goals filters/nr_filters \
		quotas/effective_bytes tried_regions/total_bytes; do
		[ "$(cat "$s/$f")" = 0 ] || fail "$f: $(cat "$s/$f")"
	done
	[ "$(cat "$s/target_nid")" = -1 ]
}

@test "features: monitor status names them and the kernel" {
	make_sysfs612 off 1
	run damoctl monitor status
	assert_line "features  sysfs, Linux 6.12: lru_actions migrate apply_interval filters filter_addr filter_young quota_goals goal_metric effective_bytes tried_regions tried_bytes commit"
	run damoctl --json monitor status
	assert_output --partial '"kernel":"sysfs, Linux 6.12","features":["lru_actions","migrate",'
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	make_sysfs off 1
	run damoctl monitor status
	assert_line "features  sysfs, Linux 6.1 layout: lru_actions commit"
}
