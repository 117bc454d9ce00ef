#!/usr/bin/env bats
# The libFuzzer targets of tests/fuzz (issue 22): they build (clang,
# ASan, UBSan, at -O0 into build-fuzz-O0/), every seed and regression
# input of each corpus passes, and a fixed number of mutations each (seed
# 1: the same inputs every run) find nothing.  `make fuzz SECONDS=N` is
# the long run (-O1, build-fuzz/).
# Skipped, and saying so, without clang.

load helpers

TARGETS="cachestr gpu-file import-csv import-kernelslist import-nvbit import-ocelot
import-ppt-config import-ppt-mem import-trace import-traceg input jsonflat plot-csv
profile stream"

# mutations TARGET: how many the short run makes.  2,000 where a run costs
# under 2 ms at -O0; 16 where it costs 7 to 25 ms (the importers, input,
# plot-csv, stream: each run a file written and read through the library's
# buffers).  The second-long run this replaces made 2,000 of the cheap
# ones and, after their corpus, what was left of the second of the others
# (0 for stream, some 30 at most on a quiet machine, 5 to 10 under load).
mutations() {
	case $1 in
	cachestr | gpu-file | jsonflat | profile) echo 2000 ;;
	*) echo 16 ;;
	esac
}

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

@test "fuzz: each target passes over its corpus, then 2,000 mutations (16 where a run is slow) from seed 1 find nothing" {
	need_clang
	run_status 0 make -C "$GC_ROOT" -s -j2 fuzz-build FUZZ_OPT=-O0
	# One run a target: libFuzzer runs every input of the corpus first
	# ("#N INITED" once they all passed: N counts runs, at most two an
	# input, and an empty one), then mutates them until -runs runs in all
	# ("Done R runs"): R - N mutations.  No time
	# limit: the same mutations whatever the load.  -print_funcs=0: no
	# llvm-symbolizer started to name the functions a mutation reaches
	# first (~0.5 s a target).  Leaks: libFuzzer checks after every input
	# that freed less than it allocated (-detect_leaks, on); the scan at
	# exit (leak_check_at_exit=0, 125 ms a target) would only add what no
	# input allocated.
	local t m n r log inited corpus
	for t in $TARGETS; do
		corpus=("$GC_ROOT/tests/fuzz/corpus/$t"/*)
		m=$(mutations "$t")
		r=$((2 * ${#corpus[@]} + 2 + m))
		mkdir -p "$T/work-$t" "$T/crash-$t"
		if ! ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}leak_check_at_exit=0 \
			"$GC_ROOT/build-fuzz-O0/fuzz/$t" -seed=1 -runs=$r -print_funcs=0 -timeout=10 -max_len=65536 \
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
		log=$(<"$T/$t.fuzz")
		[[ $log =~ \#([0-9]+)[[:space:]]INITED ]] || { echo "$t: did not run its corpus" >&2; return 1; }
		inited=${BASH_REMATCH[1]}
		[[ $log =~ Done\ ([0-9]+)\ runs ]] || { echo "$t: did not end its runs" >&2; return 1; }
		n=$((BASH_REMATCH[1] - inited))
		[ "$n" -ge "$m" ] || { echo "$t: $n mutations after the corpus, expected $m at least" >&2; return 1; }
	done
}
