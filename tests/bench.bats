#!/usr/bin/env bats
# tools/bench and its floor (issue 20): the test program pipe-floor moves
# a stream through a pipe set as our stages set it, and the bench's stats
# section runs on a tiny stream and prints the floor beside its rates.

load helpers

@test "bench: pipe-floor passes every record of a real trace through a 1 MiB pipe" {
	# matrixmul's stream is 1.4 MB: more than the pipe and a write block
	gc-import "$FIX/traces/accelsim-v4-pascal-matrixmul/kernelslist.g" >"$T/s"
	gc-stats --json "$T/s" >"$T/j"
	local want
	want="records $(jnum stream_records) bytes $(jnum stream_bytes) pipe 1048576"
	sh_status 0 "pipe-floor write '$T/s' | pipe-floor read"
	expect_eq "$(cat "$T/out")" "$want" "the default sizes"
	# small writes and reads, the pages handed over by vmsplice
	sh_status 0 "pipe-floor write -s 8K --vmsplice '$T/s' | pipe-floor read -s 4K"
	expect_eq "$(cat "$T/out")" "$want" "vmsplice, 8 KiB writes, 4 KiB reads"
	# a stream cut inside its last record: exit 1, nothing on stdout
	sh_status 1 "head -c -8 '$T/s' | pipe-floor read"
	expect_empty "$(cat "$T/out")" "stdout of a cut stream"
	expect_eq "$(cat "$T/err")" "pipe-floor: stdin: $(($(jnum stream_bytes) - 8)) bytes are no $(stream_hsize "$T/s")-byte header and whole 32-byte records"
}

@test "bench: tools/bench stats on a tiny stream prints the floor and the shares" {
	run_status 0 "$GC_ROOT/tools/bench" --list
	expect_eq "${lines[0]}" stats
	# a target may be missed on so small a stream (exit 1), never exit 2
	GC_BENCH_RECORDS=20000 GC_BENCH_RUNS=1 TMPDIR=$T run "$GC_ROOT/tools/bench" stats
	if [ "$status" -gt 1 ]; then
		echo "$output" >&2
		return 1
	fi
	local num='[0-9]+\.[0-9]+'
	expect_match "$output" "test stream: gc-gen copy -n 10000, 20000 records, 640328 bytes"
	expect_match "$output" "^  \(f\) pipe-floor write \| read \(floor\) +$num s +$num M records/s$"
	expect_match "$output" "^  \(b\) pipe-floor write FILE \| gc-stats +$num s +$num M records/s +[0-9]+% of the floor$"
	expect_match "$output" "^  (PASS|FAIL)  gc-stats from a pipe at >= 50% of the floor, \(b\)/\(f\) \($num M/s, floor $num M/s\) \($num\)$"
	expect_match "$output" "^  (PASS|FAIL)  gc-stats FILE at >= 60% of cat FILE >/dev/null, \(e\)/\(d\) "
}
