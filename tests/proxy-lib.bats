#!/usr/bin/env bats
# lib/proxy: the distributions of a G-MAP profile (pdist.c), the profile,
# its anchors and obfuscation (profile.c) and its text, gc-profile(5)
# (profile_text.c), through the unit-test program proxy-test
# (tests/src/proxy-test.c), one case a test.

load helpers
use_asan_units

@test "proxy-test: every unit, and nothing else on its output" {
	tap_all_ok proxy-test
}

@test "pdist: up to max_exact distinct values is lossless, by descending count" {
	run_status 0 proxy-test pdist-lossless
}

@test "pdist: the rest go to log2 bins by sign and exponent, with their alignment" {
	run_status 0 proxy-test pdist-bins
}

@test "pdist: a builder counts at most GC_PDIST_TRACK values one by one" {
	run_status 0 proxy-test pdist-track
}

@test "pdist: exact values by count then value, bins + before -, the mode and a copy" {
	run_status 0 proxy-test pdist-order
}

@test "pdist: merging builders adds their counts, nones and bins" {
	run_status 0 proxy-test pdist-merge
}

@test "pdist: draws in proportion to the counts, bin draws aligned inside the bin" {
	run_status 0 proxy-test pdist-draw
}

@test "pdist: the support: exact values and aligned values of nonempty bins" {
	run_status 0 proxy-test pdist-has
}

@test "pdist: the text form round-trips" {
	run_status 0 proxy-test pdist-text
}

@test "pdist: malformed and inconsistent text is refused, naming the field" {
	run_status 0 proxy-test pdist-bad
}

@test "proxy-test: an unknown unit is an error" {
	run_status 2 proxy-test no-such-unit
}

@test "profile: a hand-built profile writes gc-profile(5) text that reads back and writes the same" {
	run_status 0 proxy-test profile-text
}

@test "profile: entries compress by the greedy period rule and expand back" {
	run_status 0 proxy-test profile-entries
}

@test "profile: malformed, inconsistent or cut-short text is refused with NAME: line N: field" {
	run_status 0 proxy-test profile-bad
}

@test "profile: thread coordinates, slowest first" {
	run_status 0 proxy-test profile-coords
}

@test "profile: inter-thread contexts and anchors on a 2-D block" {
	run_status 0 proxy-test profile-anchor
}

@test "profile: obfuscation moves whole regions to aligned places, drops address attributes" {
	run_status 0 proxy-test profile-obfuscate
}

# The profile between the BEGIN and END EXAMPLE marks of gc-profile(5),
# its roff escapes undone.
man_example() {
	sed -n '/^\.\\" BEGIN EXAMPLE/,/^\.\\" END EXAMPLE/p' "$GC_ROOT/share/man/man5/gc-profile.5" |
		sed '1d;$d' | sed 's/\\-/-/g'
}

@test "gc-profile(5): formats without warnings; its example is a profile that reads back the same" {
	if command -v groff >/dev/null; then
		run_status 0 groff -man -ww -z "$GC_ROOT/share/man/man5/gc-profile.5"
		expect_empty "$output" "groff's warnings"
	fi
	man_example > "$T/example.gcp"
	[ -s "$T/example.gcp" ]
	run_status 0 proxy-test parse "$T/example.gcp"
	expect_same <(printf '%s\n' "$output") "$T/example.gcp"
}

@test "proxy-test parse: a refused profile is exit 1 and the reader's message" {
	man_example | sed 's/^threads 8$/threads 9/' > "$T/bad.gcp"
	run_status 1 proxy-test parse "$T/bad.gcp"
	expect_eq "$output" "proxy-test: $T/bad.gcp: line 16: threads: 9, but the grid and block make 8"
}
