#!/usr/bin/env bats
# The manual pages: mandoc -Tlint finds nothing (warnings, style and
# unsupported requests included); groff -ww neither; every page carries
# the same .TH date, a real one, and "gc manual"; gc(7), whose tool table
# once overflowed, fits an 80-column terminal.

load helpers

pages() {
	ls "$GC_ROOT"/share/man/man[157]/*.[157]
}

@test "man: mandoc -Tlint and groff -ww are clean on every page" {
	command -v mandoc >/dev/null || { echo "mandoc not found (tools/install-deps installs it)" >&2; return 1; }
	n=0
	for p in $(pages); do
		run mandoc -Tlint "$p"
		expect_empty "$output" "mandoc -Tlint $p"
		run groff -man -ww -z "$p"
		expect_empty "$output" "groff -ww $p"
		n=$((n + 1))
	done
	[ "$n" -ge 17 ]
}

@test "man: every page has the same .TH date, a valid one, and the footer gc manual" {
	dates=$(for p in $(pages); do sed -n 's/^\.TH [^ ]* [0-9] \([^ ]*\) .*/\1/p' "$p"; done | sort -u)
	expect_eq "$(echo "$dates" | wc -l)" 1 "distinct dates: $dates"
	expect_match "$dates" '^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$'
	date -d "$dates" +%F >/dev/null
	for p in $(pages); do
		expect_match "$(grep '^\.TH ' "$p")" ' "gc [0-9.]+" "gc manual"$'
	done
}

@test "man: gc(7) fits 80 columns, its tool table too, and calls no stage 'to come'" {
	command -v mandoc >/dev/null || { echo "mandoc not found" >&2; return 1; }
	man7="$GC_ROOT/share/man/man7/gc.7"
	wide=$(mandoc -Tascii -Owidth=80 "$man7" | col -bx | awk 'length($0) > 80')
	expect_empty "$wide" "lines over 80 columns"
	# the table lists every tool in filters/
	for f in "$GC_ROOT"/filters/*.c; do
		t=$(basename "$f" .c)
		grep -q "^$t;" "$man7" || { echo "$t is not in gc(7)'s table" >&2; return 1; }
	done
	expect_eq "$(grep -ci 'to come' "$man7")" 0
}
