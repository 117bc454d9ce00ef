#!/usr/bin/env bats
# The L1 engine (lib/model/l1*.c behind model/l1.h) driven directly by the
# unit-test program l1-test: no command line, no streams; each unit a
# hand-worked example with exact counts.

load helpers

# unit NAME: l1-test runs that unit alone and it passes (TAP "ok 1 NAME").
unit() {
	run_status 0 l1-test "$1"
	expect_eq "${lines[0]}" "1..1"
	expect_eq "${lines[${#lines[@]}-1]}" "ok 1 $1"
}

@test "l1 engine: 2 sets x 2 ways LRU: hits, misses and sector misses of a load sequence" {
	unit lru-2x2
}

@test "l1 engine: a fully associative LRU L1 of n lines misses exactly on reuse distance >= n" {
	unit fully-assoc
}

@test "l1 engine: compulsory, capacity and conflict misses of two hand-worked sequences" {
	unit classes
}

@test "l1 engine: write-through no-write-allocate stores go on and take no line" {
	unit write-through
}

@test "l1 engine: write-back write-allocate dirties, writes back at eviction and flush" {
	unit write-back
}

@test "l1 engine: timing: an MSHR merge and an MSHR stall with exact times" {
	unit timing-mshr
}

@test "l1 engine: failures return -1 with a message, and the engine stays failed" {
	unit errors
}

@test "l1 engine: the 3C shadow's index: runs that wrap round, deletions inside them, every class as defined" {
	unit shadow-index
}

@test "l1 engine: every unit at once, and an unknown unit is refused" {
	run_status 0 l1-test
	expect_eq "${lines[0]}" "1..8"
	expect_eq "$(printf '%s\n' "${lines[@]}" | grep -c '^ok ')" 8
	run_status 2 l1-test no-such-unit
}
