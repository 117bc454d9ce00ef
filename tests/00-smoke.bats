#!/usr/bin/env bats
# Smoke tests, run first: the tools are built and answer, and a stream
# goes through the library and back.  A failure here makes the rest moot.

load helpers

version() {
	sed -n 's/^#define GC_VERSION_STRING "\(.*\)"$/\1/p' "$GC_ROOT/lib/stream/format.h"
}

@test "smoke: every filter is built and answers --version" {
	local src tool v n=0
	v=$(version)
	[ -n "$v" ]
	for src in "$GC_ROOT"/filters/*.c; do
		[ -e "$src" ] || continue
		tool=$(basename "$src" .c)
		if [ ! -x "$GC_BIN/$tool" ]; then
			echo "$GC_BIN/$tool is missing" >&2
			return 1
		fi
		run_status 0 "$GC_BIN/$tool" --version
		expect_eq "${lines[0]}" "$tool (gc) $v"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ]
}

@test "smoke: the test programs are built" {
	[ -x "$GC_TESTBIN/gc-mkbad" ]
	[ -x "$GC_TESTBIN/test-lib" ]
	run_status 0 gc-mkbad --version
	expect_eq "$output" "gc-mkbad (gc) $(version)"
}

@test "smoke: a tiny stream round-trips through the library" {
	gc-mkbad good-access >"$T/s"
	run_status 0 gc-mkbad read "$T/s"
	expect_eq "$output" "records 19 data 7 kernels 2"
	test-lib write-stream | gc-mkbad read >"$T/out"
	expect_eq "$(cat "$T/out")" "records 4 data 1 kernels 1"
}

@test "smoke: a broken stream is refused" {
	gc-mkbad missing-end >"$T/s"
	run_status 1 gc-mkbad read "$T/s"
	expect_match "$output" "^gc-read-test: $T/s: record 8 \(offset 320\): missing end-of-stream record"
}
