#!/usr/bin/env bats
# Tab completion and history in the interactive shell (through a pty).

load helper
load pty

setup() {
	shell_setup
}

@test "TAB completes objects, commands and actions; the line then runs" {
	session_quit <<'EOF'
expect "damoctl> "
send "sch\t"
expect "scheme "
send "ad\t"
expect "add "
send "lru_d\t"
expect "lru_deprio "
send "\r"
EOF
	assert_success
	run dbgfs_actions
	assert_output 7
}

@test "TAB TAB lists the candidates: objects (and quit), actions" {
	session_quit <<'EOF'
expect "damoctl> "
send "\t\t"
expect "damoctl> "
send "scheme add lru_\t\t"
expect -re "lru_deprio +lru_prio"
expect "damoctl> scheme add lru_"
send "\x03"
EOF
	assert_success
	for w in apply attrs help lru-sort monitor quit exit scheme stats target; do
		assert_line --regexp "(^| )$w( |\$)"
	done
}

@test "keywords and their fixed values: unused keywords, quota words, metrics, min/max" {
	session_quit <<'EOF'
expect "damoctl> "
send "scheme add pageout sz 4K 8K \t\t"
expect "damoctl> scheme add pageout sz 4K 8K "
send "quota \t\t"
expect "reset"
expect "size"
expect "time"
expect "damoctl> scheme add pageout sz 4K 8K quota "
send "\x03"
expect "damoctl> "
send "scheme add pageout wmarks fr\t"
expect "free_mem_rate "
send "\x03"
expect "damoctl> "
send "scheme add cold age 10s m\t\t"
expect -re "max +min"
send "\x03"
expect "damoctl> "
send "target set pa\t"
expect "paddr "
send "\x03"
expect "damoctl> "
send "help sch\t"
expect "help scheme "
send "en\t"
expect "encode "
send "\r"
expect "print the dbgfs schemes line"
EOF
	assert_success
	# after "sz 4K 8K": the keywords not used yet, and no sz
	assert_line --regexp '^access +filter +quota *$'
	assert_line --regexp '^age +goal +weights *$'
	assert_line --regexp '^apply_interval +nid +wmarks *$'
}

@test "history: kept in ~/.damoctl_history, recalled with the up arrow" {
	session_quit <<'EOF'
expect "damoctl> "
send "scheme add stat\r"
expect "damoctl> "
send "scheme add stat\r"
expect "damoctl> "
send "scheme list\r"
EOF
	assert_success
	# consecutive duplicates are kept once
	run cat "$HOME/.damoctl_history"
	assert_output "scheme add stat
scheme list
quit"
	# a new session recalls the last commands
	session <<'EOF'
expect "damoctl> "
send "\033\[A\033\[A\033\[A\r"
expect "damoctl> "
send "scheme list\r"
expect "2: stat"
expect "damoctl> "
send "\x04"
EOF
	assert_success
	run wc -l < "$ROOT/sys/kernel/debug/damon/schemes"
	assert_output 3
}

@test "without HOME the shell still works, with no history" {
	HOME= session_quit <<'EOF'
expect "damoctl> "
send "scheme list\r"
EOF
	assert_success
	[ ! -e "$BATS_TEST_TMPDIR/home/.damoctl_history" ]
}

@test "scheme rm TAB offers the indexes of the schemes there are, in a dry-run session too" {
	damoctl scheme add stat
	damoctl scheme add pageout
	damoctl scheme add lru_prio
	session_quit <<'EOF2'
expect "damoctl> "
send "scheme rm \t\t"
expect -re "0 +1 +2"
expect "damoctl> scheme rm "
send "2\r"
expect "damoctl> "
send "scheme rm \t\t"
expect -re "0 +1"
expect "damoctl> scheme rm "
send "\x03"
EOF2
	assert_success
	# after rm 2, two are left to offer
	assert_line --regexp '^0 +1 +2 *$'
	assert_line --regexp '^0 +1 *$'
	run dbgfs_actions
	assert_output "5
2"
	# a dry-run session: what its commands would have done
	session_quit --dry-run <<'EOF2'
expect "damoctl> "
send "scheme add stat\r"
expect "damoctl> "
send "scheme rm \t\t"
expect -re "0 +1 +2"
expect "damoctl> scheme rm "
send "\x03"
EOF2
	assert_success
}
