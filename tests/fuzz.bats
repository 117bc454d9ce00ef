#!/usr/bin/env bats
# The libFuzzer targets of tests/fuzz (issue 22): they build (clang,
# ASan, UBSan, at -O0 into build-fuzz-O0/), every seed and regression
# input of each corpus passes, and 2,000 mutations each (seed 1; a
# second at most) find nothing.  `make fuzz SECONDS=N` is the long run
# (-O1, build-fuzz/).
# Skipped, and saying so, without clang.

load helpers

TARGETS="cachestr gpu-file import-csv import-kernelslist import-nvbit import-ocelot
import-ppt-config import-ppt-mem import-trace import-traceg input jsonflat plot-csv
profile stream"

need_clang() {
	command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 ||
		skip "clang not found: the fuzz targets are not built (tools/install-deps installs it on Debian)"
}

@test "fuzz: every target builds, and every file of tests/fuzz has one" {
	need_clang
	run_status 0 make -C "$GC_ROOT" -s -j2 fuzz-build FUZZ_OPT=-O0
	local have=""
	for f in "$GC_ROOT"/tests/fuzz/*.c; do
		f=${f##*/}
		case $f in fuzz.c | fuzz_import.c) continue ;; esac
		have="$have ${f%.c}"
	done
	expect_eq "$(echo $have)" "$(echo $TARGETS)" "targets"
	for t in $TARGETS; do
		[ -x "$GC_ROOT/build-fuzz-O0/fuzz/$t" ] || { echo "no build-fuzz-O0/fuzz/$t" >&2; return 1; }
		[ -d "$GC_ROOT/tests/fuzz/corpus/$t" ] || { echo "no corpus for $t" >&2; return 1; }
	done
}

@test "fuzz: each target passes over its corpus, then 2,000 mutations (a second at most) find nothing" {
	need_clang
	run_status 0 make -C "$GC_ROOT" -s -j2 fuzz-build FUZZ_OPT=-O0
	# One run a target: libFuzzer runs every input of the corpus first
	# ("INITED" once they all passed), then mutates them.
	for t in $TARGETS; do
		mkdir -p "$T/work-$t" "$T/crash-$t"
		if ! "$GC_ROOT/build-fuzz-O0/fuzz/$t" -seed=1 -runs=2000 -max_total_time=1 -timeout=10 -max_len=65536 \
			-artifact_prefix="$T/crash-$t/" "$T/work-$t" "$GC_ROOT/tests/fuzz/corpus/$t" \
			>"$T/$t.fuzz" 2>&1; then
			if grep -q "INITED" "$T/$t.fuzz"; then
				echo "$t: found a failure (make fuzz FUZZ=$t to reproduce):" >&2
			else
				echo "$t: a seed or regression input fails:" >&2
			fi
			grep -E 'ERROR|SUMMARY|runtime error|Test unit' "$T/$t.fuzz" >&2
			ls "$T/crash-$t" >&2
			return 1
		fi
		grep -q "INITED" "$T/$t.fuzz" || { echo "$t: did not run its corpus" >&2; return 1; }
	done
}
