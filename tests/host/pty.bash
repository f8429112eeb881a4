# Interactive sessions of damoctl through a pseudo-terminal, driven by
# expect(1): the shell sees a real terminal, so readline, completion and
# history work as they do for a user.  Loaded after helper.bash.

# A home of its own (the history goes to ~/.damoctl_history) and an inputrc
# without bracketed paste, whose escapes would get in the transcripts' way.
pty_setup() {
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	export INPUTRC="$BATS_TEST_TMPDIR/inputrc"
	printf 'set enable-bracketed-paste off\nset bell-style none\n' > "$INPUTRC"
	export TERM=vt100
}

# session [DAMOCTL ARGS...] <<'EOF' ... EOF
# Runs damoctl --root $ROOT ARGS under expect with the expect script on
# stdin (spawned as $spawn_id; "send" and "expect" as usual, a 10 s timeout
# fails the session).  Sets $output to the transcript and $status to the
# exit status of damoctl, or 99 on a timeout.
session() {
	local script="$BATS_TEST_TMPDIR/session.exp"

	{
		cat <<-EXP
		set timeout 10
		log_user 1
		proc fail {why} { puts "\nSESSION FAILED: \$why"; exit 99 }
		spawn -noecho {*}\$env(SESSION_CMD)
		expect_after timeout { fail "timeout" } eof { fail "unexpected end" }
		EXP
		cat
		cat <<-'EXP'
		expect_after
		expect eof
		lassign [wait] pid spawnid os_error value
		exit $value
		EXP
	} > "$script"
	# tcl list of the command: every word braced
	SESSION_CMD="$(printf '{%s} ' "$DAMOCTL" --root "$ROOT" "$@")" \
		run expect -f "$script"
	# expect's transcript has CR LF line ends
	output=$(printf '%s' "$output" | tr -d '\r')
	mapfile -t lines <<<"$output"
}

# session_quit [DAMOCTL ARGS...] <<'EOF' ... EOF: session, then at the next
# prompt "quit" (the end of most sessions).
session_quit() {
	{
		cat
		printf '%s\n' 'expect "damoctl> "' 'send "quit\r"'
	} > "$BATS_TEST_TMPDIR/session.in"
	session "$@" < "$BATS_TEST_TMPDIR/session.in"
}

# The setup of the shell suites: a pty and a dbgfs tree.
shell_setup() {
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	pty_setup
	make_dbgfs
}

# The dbgfs action numbers of the schemes, one a line.
dbgfs_actions() {
	cut -d' ' -f7 "$ROOT/sys/kernel/debug/damon/schemes"
}
