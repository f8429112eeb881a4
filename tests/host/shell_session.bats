#!/usr/bin/env bats
# The interactive shell, driven through a pseudo-terminal against fake trees:
# prompt, errors that do not end it, help, quit and Ctrl-D, Ctrl-C, dry runs.

load helper
load pty

setup() {
	shell_setup
}

@test "no command on a terminal: the shell, its prompt, quit" {
	session_quit <<'EOF'
EOF
	assert_success
	assert_line --partial "type help for the commands"
}

@test "Ctrl-D leaves the shell with status 0" {
	session <<'EOF'
expect "damoctl> "
send "\x04"
EOF
	assert_success
}

@test "an error prints and the shell goes on; the next command works" {
	session <<'EOF'
expect "damoctl> "
send "scheme add pageout age 10s 5s\r"
expect "damoctl: scheme add: min age 10s > max age 5s"
expect "damoctl> "
send "frob\r"
expect "unknown object 'frob'"
expect "damoctl> "
send "scheme add 'unterminated\r"
expect "unterminated quote"
expect "damoctl> "
send -- "--json scheme list\r"
expect "options go on the damoctl command line"
expect "damoctl> "
send "scheme add lru_prio\r"
expect "damoctl> "
send "scheme list\r"
expect "0: lru_prio sz 4K max access 10 max"
expect "damoctl> "
send "exit\r"
EOF
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/schemes"
	assert_output "4096 18446744073709551615 10 4294967295 0 4294967295 6 5 0 1000 0 1 0 0 0 0 0 0"
}

@test "a kernel refusal (monitoring on) does not end the shell either" {
	echo on > "$ROOT/sys/kernel/debug/damon/monitor_on"
	session_quit <<'EOF'
expect "damoctl> "
send "scheme add stat\r"
expect "stop it first"
expect "damoctl> "
send "monitor status\r"
expect "on (dbgfs)"
EOF
	assert_success
}

@test "help, help OBJECT, help OBJECT COMMAND" {
	session_quit <<'EOF'
expect "damoctl> "
send "help\r"
expect "quit, exit, Ctrl-D"
expect "  scheme add ACTION"
expect "damoctl> "
send "help target\r"
expect "damoctl target: monitoring targets and regions"
expect "damoctl> "
send "help scheme rm\r"
expect "damoctl scheme rm INDEX"
expect "remove the scheme at INDEX"
expect "damoctl> "
send "help scheme frob\r"
expect "help: scheme has no command 'frob'"
EOF
	assert_success
}

@test "Ctrl-C drops the line being typed, not the shell" {
	session_quit <<'EOF'
expect "damoctl> "
send "scheme add wil"
send "\x03"
expect -ex "scheme add wil^C"
expect "damoctl> "
send "scheme list\r"
EOF
	assert_success
	run cat "$ROOT/sys/kernel/debug/damon/schemes"
	assert_output ""
	# the dropped line is not kept either
	run cat "$HOME/.damoctl_history"
	assert_output "scheme list
quit"
}

# Ctrl-C at the prompt is a key read in order with the others: what was
# typed before it is dropped (not discarded unseen by the tty, as a SIGINT
# would), what was typed after it runs.
@test "Ctrl-C typed ahead: the keys before it dropped, the keys after it run" {
	session_quit <<'EOF'
expect "damoctl> "
send "scheme add wil\x03scheme add stat\r"
expect -ex "scheme add wil^C"
expect "damoctl> scheme add stat"
EOF
	assert_success
	run dbgfs_actions
	assert_output 5
}

@test "Ctrl-C on a line recalled and edited leaves the history entry as it was" {
	printf '%s\n' "scheme add stat" > "$HOME/.damoctl_history"
	session_quit <<'EOF'
expect "damoctl> "
send "\033\[A"
expect "scheme add stat"
send "\x7f\x7f\x7f\x7fwil\x03"
expect -ex "^C"
expect "damoctl> "
send "\033\[A\r"
EOF
	assert_success
	run dbgfs_actions
	assert_output 5
}

@test "global options hold for the whole session (--dry-run: one script)" {
	session_quit --dry-run <<'EOF'
expect "damoctl> "
send "scheme add lru_prio\r"
expect "#!/bin/sh"
expect "# damoctl scheme add lru_prio (dbgfs)"
expect "damoctl> "
send "scheme add lru_deprio\r"
expect "# damoctl scheme add lru_deprio (dbgfs)"
EOF
	assert_success
	[ "$(grep -c '^#!/bin/sh' <<<"$output")" = 1 ]
	run cat "$ROOT/sys/kernel/debug/damon/schemes"
	assert_output ""
}

@test "stats --watch in the shell: Ctrl-C goes back to the prompt" {
	session_quit <<'EOF'
expect "damoctl> "
send "stats --watch 100ms\r"
expect "nr_tried"
expect "nr_tried"
send "\x03"
EOF
	assert_success
}

@test "not a terminal: no shell, the usage" {
	run "$DAMOCTL" --root "$ROOT" </dev/null
	assert_failure 2
	assert_line --index 0 "Usage: damoctl [OPTIONS] OBJECT COMMAND [ARGS]"
}

@test "the shell's help has no command-line options nor \"damoctl\" prefixes; quit now is not an object" {
	session_quit <<'EOF'
expect "damoctl> "
send "help\r"
expect "damoctl> "
send "quit now\r"
expect "quit takes nothing after it (got 'now')"
EOF
	assert_success
	refute_output --partial "--force"
	refute_output --partial "  damoctl scheme add"
	refute_output --partial "unknown object"
}

@test "Ctrl-C in --watch: the prompt comes back on a line of its own" {
	session_quit <<'EOF'
expect "damoctl> "
send "stats --watch 100ms\r"
expect "nr_tried"
send "\x03"
expect "damoctl> "
send "scheme list\r"
EOF
	assert_success
	refute_output --partial "^Cdamoctl>"
	# the prompt after the watch starts its line
	assert_line --regexp '^damoctl> scheme list$'
}
