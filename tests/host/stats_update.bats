#!/usr/bin/env bats
# Which commands ask a running sysfs kdamond to update its statistics files.
# update_schemes_tried_bytes waits until every scheme has been applied again
# (measured in the guest: 4.7 s for a scheme of apply_interval_us 2 s; a
# scheme add, which reads the schemes three times, took 15 s), so only the
# commands that show statistics ask for it: stats show, the metrics and
# export damo.  The commands that read the schemes to change or list them
# write no update command.

load helper

setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	make_sysfs on 1
	# what 6.9+ shows, so that the three update commands apply
	S=$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/0
	put "$S/tried_regions/total_bytes" 0
	put "$S/quotas/effective_bytes" 0
	put "$S/quotas/goals/nr_goals" 0
	put "$S/filters/nr_filters" 0
	put "$S/apply_interval_us" 0
}

# commands_of ARGS...: damoctl ARGS on the tree; $output: its state
# commands, space-separated, in order (update_* and commit)
commands_of() {
	local st=$BATS_TEST_TMPDIR/st
	ASAN_OPTIONS=detect_leaks=0 strace --seccomp-bpf -f -qq -e trace=write -s 64 -o "$st" \
		"$DAMOCTL" --root "$ROOT" "$@" > "$BATS_TEST_TMPDIR/out" 2>&1 ||
		{ cat "$BATS_TEST_TMPDIR/out"; return 1; }
	output=$(grep -o '"\(update_[a-z_]*\|commit\)\\n"' "$st" | tr -d '"' |
		sed 's/\\n$//' | tr '\n' ' ')
	output=${output% }
}

@test "stats show, the metrics and export damo ask for all three statistics updates, once each" {
	commands_of stats show
	assert_output "update_schemes_stats update_schemes_effective_quotas update_schemes_tried_bytes"
	commands_of stats show --format openmetrics
	assert_output "update_schemes_stats update_schemes_effective_quotas update_schemes_tried_bytes"
	commands_of monitor status --format prometheus
	assert_output "update_schemes_stats update_schemes_effective_quotas update_schemes_tried_bytes"
	commands_of export damo
	assert_output "update_schemes_stats update_schemes_effective_quotas update_schemes_tried_bytes"
}

@test "scheme list, monitor status, scheme add, set and rm on a running kdamond ask for no statistics update" {
	commands_of scheme list
	assert_output ""
	commands_of monitor status
	assert_output ""
	commands_of scheme add stat
	assert_output "commit"
	commands_of scheme set 1 age 1 2
	assert_output "commit"
	commands_of scheme rm 1
	assert_output "commit"
	run cat "$ROOT/sys/kernel/mm/damon/admin/kdamonds/0/contexts/0/schemes/nr_schemes"
	assert_output 1
}

@test "a refused update is a warning naming the kernel's answer; stats show still shows the statistics" {
	# the fault layer fails the first write below --root with EBUSY
	run env DAMOS_FAULT=1:16 "$DAMOCTL_FAULT" --root "$ROOT" stats show
	echo "$output"
	assert_success
	assert_line --regexp "^damoctl: warning: the statistics are as the kernel last updated them: .*update_schemes_stats.*(busy|EBUSY)"
	assert_line --regexp "^ *0 +pageout"
}
