#!/usr/bin/env bats
# tests/lint-bats: no assertion in the bats files that cannot fail, and
# the lint itself fails on a file that has them (tests/fixtures/lint).

load helpers

@test "lint: the bats files and helpers pass tests/lint-bats" {
	cd "$GC_ROOT"
	run_status 0 sh tests/lint-bats
	expect_empty "$output" "lint-bats findings"
}

@test "lint: each mistake in a bad file at its line; exit 1" {
	cd "$GC_ROOT"
	local f=tests/fixtures/lint/bad.bats
	local neg='"! command" that is not the last command: errexit ignores it; use "run ! command" or "run_status 1 command"'
	run_status 1 sh tests/lint-bats "$f"
	expect_eq "${#lines[@]}" 5 "number of findings"
	expect_eq "${lines[0]}" "$f:7: $neg" "a helper's negation"
	expect_eq "${lines[1]}" "$f:13: $neg" "a negation in the middle"
	expect_eq "${lines[2]}" "$f:19: $neg" "a negation in a loop"
	expect_eq "${lines[3]}" "$f:24: \"| true\" at the end of a line: the pipeline cannot fail"
	expect_eq "${lines[4]}" "$f:29: $neg" "a negation over lines"
}

@test "lint: a good file: negations last, look-alikes in heredocs and comments" {
	cd "$GC_ROOT"
	run_status 0 sh tests/lint-bats tests/fixtures/lint/good.bats
	expect_empty "$output" "lint-bats findings"
	# a bad file among good ones still fails, and only it is named
	run_status 1 sh tests/lint-bats tests/fixtures/lint/good.bats tests/fixtures/lint/bad.bats tests/lint.bats
	expect_eq "$(printf '%s\n' "$output" | cut -d: -f1 | sort -u)" tests/fixtures/lint/bad.bats
	run_status 2 sh tests/lint-bats tests/fixtures/lint/no-such.bats
	expect_match "$output" "no-such.bats: cannot read"
}
