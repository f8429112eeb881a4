#!/usr/bin/env bats
# Batch input that runs damoctl out of memory (issue 45): getline's ENOMEM
# is an error, not the end of the file (-f /dev/zero exited 0 having run
# nothing), and a batch that cannot be held stops at the first "out of
# memory" (yes | damoctl -f - repeated it without end).

load helper

# limited CMD...: run CMD with about 100 MB to allocate.  Under ASan
# (make check-sanitize) an address-space limit would stop its shadow
# memory, so its allocator is what refuses, as malloc would.
limited() {
	if ldd "$DAMOCTL" 2>/dev/null | grep -q libasan; then
		ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=4:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$@"
	else
		(ulimit -v 100000 && exec "$@")
	fi
}

@test "-f /dev/zero out of memory: an error naming the file, status 1, nothing run" {
	make_sysfs off 0
	before=$(tree_sum)
	run limited timeout 120 "$DAMOCTL" --root "$ROOT" -f /dev/zero
	assert_failure 1
	# (less ASan's warning that its allocator refused)
	output=$(grep -v '^==[0-9]*==WARNING: AddressSanitizer failed to allocate' <<<"$output")
	assert_output "damoctl: /dev/zero: Cannot allocate memory"
	[ "$(tree_sum)" = "$before" ]
}

@test "an endless batch on stdin out of memory: one 'out of memory', status 1, nothing run" {
	make_sysfs off 0
	before=$(tree_sum)
	run bash -c "$(declare -f limited); DAMOCTL='$DAMOCTL'
		yes 'scheme add stat' | limited timeout 120 '$DAMOCTL' --root '$ROOT' -f - 2>&1 |
			grep -v '^==[0-9]*==WARNING: AddressSanitizer failed to allocate' | head -c 4096
		exit \${PIPESTATUS[1]}"
	assert_failure 1
	assert_output "damoctl: out of memory"
	[ "$(tree_sum)" = "$before" ]
}
