#!/usr/bin/env bats
# Faults (issue 22): a stage killed mid-stream, full disks and closed pipes
# on every output, a stream cut at every record boundary and at random
# bytes, bit flips, concatenated streams, inputs that are no streams, and
# option values at their limits.  Each test is bounded in time (seconds).
# What stream.bats, lib.bats and each tool's file already test is not
# repeated here (the corpus of broken streams in stream.bats, the wrong
# kind per stage, /dev/full for the streams of gc-l1, gc-stats, gc-plot...).

load helpers

# u32 FILE OFFSET: the little-endian 32-bit value at OFFSET.
u32() {
	od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '
}

# any_line_matches REGEX LINE...: one of the lines matches the extended
# REGEX (as expect_match's grep -E over its lines), without a process.
any_line_matches() {
	local re=$1 l
	shift
	for l in "$@"; do
		[[ $l =~ $re ]] && return 0
	done
	echo "no line matches /$re/:" >&2
	printf '%s\n' "$@" >&2
	return 1
}

# The stages of the longest chain, in order; each downstream one writes
# --stats.
CHAIN="gc-sched gc-coalesce gc-l1 gc-l2 gc-dram"

# kill_chain VICTIM BYTES: gc-gen | the chain, each stage started through a
# shell that records its pid; once VICTIM (0: gc-gen, 2: gc-coalesce, ...)
# has written BYTES, it gets SIGKILL.  Leaves $D with each stage's stderr
# (e0..e5), exit status (s1..s5) and --stats files.
kill_chain() {
	local victim=$1 bytes=$2
	D=$T/kill-$1-$2
	mkdir -p "$D"
	local rec='echo $$ >"$0"; exec "$@"'
	(
		sh -c "$rec" "$D/p0" gc-gen -n 400000000 vecadd 2>"$D/e0" |
			{ st=0; sh -c "$rec" "$D/p1" gc-sched --stats "$D/gc-sched.json" 2>"$D/e1" || st=$?; echo $st >"$D/s1"; } |
			{ st=0; sh -c "$rec" "$D/p2" gc-coalesce --stats "$D/gc-coalesce.json" 2>"$D/e2" || st=$?; echo $st >"$D/s2"; } |
			{ st=0; sh -c "$rec" "$D/p3" gc-l1 --stats "$D/gc-l1.json" 2>"$D/e3" || st=$?; echo $st >"$D/s3"; } |
			{ st=0; sh -c "$rec" "$D/p4" gc-l2 --stats "$D/gc-l2.json" 2>"$D/e4" || st=$?; echo $st >"$D/s4"; } |
			{ st=0; sh -c "$rec" "$D/p5" gc-dram --stats "$D/gc-dram.json" >"$D/report" 2>"$D/e5" || st=$?; echo $st >"$D/s5"; }
	) &
	local chain=$! pid="" written=0 i=0
	# Wait (at most 60 s) until the victim has written BYTES, then kill it.
	while [ $i -lt 600 ]; do
		[ -z "$pid" ] && [ -s "$D/p$victim" ] && pid=$(cat "$D/p$victim")
		if [ -n "$pid" ]; then
			written=$(sed -n 's/^wchar: //p' "/proc/$pid/io" 2>/dev/null || echo 0)
			[ "${written:-0}" -ge "$bytes" ] && break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$pid" ] && kill -9 "$pid"
	wait "$chain" || true
	[ "${written:-0}" -ge "$bytes" ] || { echo "the victim wrote ${written:-0} of $bytes bytes" >&2; return 1; }
}

# check_downstream VICTIM: every stage after the victim failed (exit 1),
# the first with "missing end-of-stream", the later ones with it too or,
# when the stage before them died before its first 1 MiB buffer went out,
# "empty input"; no --stats file or temporary of one is left, and gc-dram's
# stdout holds no stream that reads as complete.
check_downstream() {
	local victim=$1 k
	for k in 1 2 3 4 5; do
		[ "$k" -gt "$victim" ] || continue
		expect_eq "$(cat "$D/s$k")" 1 "exit status of stage $k"
		if [ "$k" -eq $((victim + 1)) ]; then
			expect_match "$(cat "$D/e$k")" "missing end-of-stream record \(upstream stage failed"
		else
			expect_match "$(cat "$D/e$k")" "missing end-of-stream record|empty input"
		fi
		expect_eq "$(wc -l <"$D/e$k")" 1 "lines of stage $k's message"
	done
	for k in $CHAIN; do
		[ ! -e "$D/$k.json" ] || { echo "$k left its --stats file" >&2; return 1; }
	done
	expect_empty "$(ls -A "$D" | grep -v '^[eps][0-9]$\|^report$')"
	# gc-dram's stdout (a stream, as every stage's): nothing, or what a
	# reader refuses
	if [ -s "$D/report" ]; then
		run_status 1 gc-stats "$D/report"
		expect_match "$output" "missing end-of-stream record"
	fi
}

@test "faults: gc-gen killed after 64 KiB: every later stage of five fails, no --stats left" {
	kill_chain 0 65536
	check_downstream 0
}

@test "faults: gc-gen killed after 24 MiB: every later stage fails, no --stats left" {
	kill_chain 0 25165824
	check_downstream 0
}

@test "faults: gc-coalesce (the middle) killed after 4 MiB: every later stage fails" {
	kill_chain 2 4194304
	check_downstream 2
}

@test "faults: the chain whole writes every --stats file (the kill tests' control)" {
	D=$T/whole
	mkdir -p "$D"
	gc-gen -n 4096 vecadd | gc-sched --stats "$D/a.json" | gc-coalesce --stats "$D/b.json" |
		gc-l1 --stats "$D/c.json" | gc-l2 --stats "$D/d.json" | gc-dram --stats "$D/e.json" >"$D/report"
	for f in a b c d e; do
		[ -s "$D/$f.json" ] || { echo "no $f.json" >&2; return 1; }
	done
	expect_eq "$(ls -A "$D" | wc -l)" 6 "files (no temporaries)"
	[ -s "$D/report" ]
}

@test "faults: -o and --stats go in place only when complete; an existing file stays on failure" {
	gc-gen -n 64 vecadd >"$T/ok.gcs"
	echo old >"$T/out.gcs"
	echo old >"$T/s.json"
	chmod 640 "$T/out.gcs"
	head -c $(($(u32 "$T/ok.gcs" 12) + 10 * 32)) "$T/ok.gcs" >"$T/cut.gcs"
	run_status 1 gc-sched --stats "$T/s.json" -o "$T/out.gcs" "$T/cut.gcs"
	expect_match "$output" "missing end-of-stream"
	expect_eq "$(cat "$T/out.gcs")" old "the -o file"
	expect_eq "$(cat "$T/s.json")" old "the --stats file"
	expect_empty "$(ls -A "$T" | grep '^\.')"
	run_status 0 gc-sched --stats "$T/s.json" -o "$T/out.gcs" "$T/ok.gcs"
	expect_match "$(head -c 200 "$T/s.json")" '"input": "'"$T/ok.gcs"'"'
	run_status 0 gc-stats "$T/out.gcs"
	expect_eq "$(stat -c %a "$T/out.gcs")" 640 "the mode of the file replaced"
	expect_empty "$(ls -A "$T" | grep '^\.')"
}

# ---- full disks and closed pipes --------------------------------------------

# Every output of every tool to /dev/full: exit 1 and the "write error"
# message naming the output.
@test "faults: ENOSPC on every output of every tool" {
	gc-gen -n 256 vecadd >"$T/a.gcs"
	gc-sched "$T/a.gcs" | gc-coalesce >"$T/r.gcs"
	gc-l1 "$T/r.gcs" >"$T/l1.gcs"
	gc-l2 "$T/l1.gcs" >"$T/d.gcs"
	gc-l2 --emit all "$T/l1.gcs" >"$T/all.gcs"
	gc-profile "$T/a.gcs" >"$T/p.gcp"
	gc-stats --json "$T/a.gcs" >"$T/s1.json"
	printf 'x,y\n1,2\n2,3\n' >"$T/t.csv"
	local n=0
	while IFS='|' read -r what cmd; do
		[ -n "$what" ] || continue
		n=$((n + 1))
		sh_status 1 "$cmd"
		if ! grep -q "write error\|No space left" "$T/err"; then
			echo "$what: no write error: $(cat "$T/err")" >&2
			return 1
		fi
	done <<EOF2
gc-gen stream|gc-gen -n 256 vecadd >/dev/full
gc-gen --stats|gc-gen -n 256 vecadd --stats /dev/full >/dev/null
gc-sched stream|gc-sched $T/a.gcs >/dev/full
gc-sched --stats|gc-sched --stats /dev/full $T/a.gcs >/dev/null
gc-coalesce stream|gc-coalesce $T/a.gcs >/dev/full
gc-coalesce --stats|gc-coalesce --stats /dev/full $T/a.gcs >/dev/null
gc-l1 stream|gc-l1 $T/r.gcs >/dev/full
gc-l1 --stats|gc-l1 --stats /dev/full $T/r.gcs >/dev/null
gc-l2 stream|gc-l2 $T/l1.gcs >/dev/full
gc-l2 --stats|gc-l2 --stats /dev/full $T/l1.gcs >/dev/null
gc-dram report|gc-dram $T/d.gcs >/dev/full
gc-dram --stats|gc-dram --stats /dev/full $T/d.gcs >/dev/null
gc-perf report|gc-perf $T/all.gcs >/dev/full
gc-perf --stats|gc-perf --stats /dev/full $T/all.gcs >/dev/null
gc-rd report|gc-rd $T/a.gcs >/dev/full
gc-rd --csv|gc-rd --csv $T/a.gcs >/dev/full
gc-rd --plot|gc-rd --plot /dev/full $T/a.gcs >/dev/null
gc-rd --stats|gc-rd --stats /dev/full $T/a.gcs >/dev/null
gc-stats report|gc-stats $T/a.gcs >/dev/full
gc-stats --dump|gc-stats --dump $T/a.gcs >/dev/full
gc-stats --merge|gc-stats --merge $T/s1.json >/dev/full
gc-import stream|gc-import $FIX/accelsim/version-5.traceg >/dev/full
gc-import --stats|gc-import --stats /dev/full $FIX/accelsim/version-5.traceg >/dev/null
gc-import --report|gc-import --report /dev/full $FIX/accelsim/version-5.traceg >/dev/null
gc-import --emit none|gc-import --emit none $FIX/accelsim/version-5.traceg >/dev/full
gc-gen --report|gc-gen -n 256 vecadd --report /dev/full >/dev/null
gc-clone --report|gc-clone --report /dev/full $T/p.gcp >/dev/null
gc-config --stats|gc-config --from $GC_ROOT/tests/fixtures/gpgpusim-configs/SM7_QV100 --stats /dev/full >/dev/null
gc-profile profile|gc-profile $T/a.gcs >/dev/full
gc-clone stream|gc-clone $T/p.gcp >/dev/full
gc-plot SVG|gc-plot --x x --y y $T/t.csv >/dev/full
EOF2
	expect_eq "$n" 31 "outputs tried"
}

# A reader that goes away: every tool sets SIGPIPE to its default (prog.c),
# so the signal ends it (status 141) as it ends any Unix filter, even when
# the shell that started it ignores the signal; never exit 0, never a
# message that blames the input.
@test "faults: a closed pipe ends every tool by SIGPIPE, the stream and the reports" {
	# more output than a pipe holds (the stream writer asks for 1 MiB)
	local tool gen="gc-gen -n 1048576 vecadd 2>/dev/null"
	for tool in "gc-gen -n 1048576 vecadd" gc-sched gc-coalesce "gc-stats --dump" "gc-l1 --emit all"; do
		case $tool in
		gc-gen*) in="" ;;
		gc-l1*) in="$gen | gc-sched | gc-coalesce |" ;;
		*) in="$gen |" ;;
		esac
		sh -c "$in (trap '' PIPE; $tool 2>'$T/e'; echo \$? >'$T/st') | head -c 10 >/dev/null"
		expect_eq "$(cat "$T/st")" 141 "$tool (SIGPIPE ignored by its shell): exit status"
		expect_empty "$(cat "$T/e")"
		sh -c "$in ($tool 2>/dev/null; echo \$? >'$T/st') | head -c 10 >/dev/null"
		expect_eq "$(cat "$T/st")" 141 "$tool: exit status"
	done
}

# ---- cut and flipped streams ------------------------------------------------

@test "faults: a stream cut at every record boundary, and at 24 random bytes, is refused" {
	# Every kind of record, each at least twice (two kernels: begin, name,
	# attributes, 16 loads and 16 stores, end; the stream's end): 41 cuts.
	gc-gen -n 8 --kernels 2 copy >"$T/s.gcs"
	local size hs rs k cut n=0 st re out
	size=$(wc -c <"$T/s.gcs")
	hs=$(u32 "$T/s.gcs" 12)
	rs=32
	expect_eq $(((size - hs) % rs)) 0 "whole records"
	# (two processes a cut, head and gc-stats; the message, stdout and
	# stderr together as run gives them, read and matched by bash)
	k=0
	while [ $((hs + k * rs)) -lt "$size" ]; do
		cut=$((hs + k * rs))
		head -c "$cut" "$T/s.gcs" >"$T/c.gcs"
		st=0
		gc-stats "$T/c.gcs" >"$T/o" 2>&1 || st=$?
		expect_eq "$st" 1 "exit status at cut $cut"
		mapfile -t out <"$T/o"
		re="^gc-stats: $T/c.gcs: record $((k + 1)) \(offset $cut\): missing (end-of-stream|kernel attribute|kernel name) record \(upstream stage failed or output was truncated\)$"
		any_line_matches "$re" "${out[@]}"
		n=$((n + 1))
		k=$((k + 1))
	done
	[ "$n" -gt 20 ]
	for cut in $(awk -v s="$size" 'BEGIN { srand(22); for (i = 0; i < 24; i++) print int(rand() * s) }'); do
		head -c "$cut" "$T/s.gcs" >"$T/c.gcs"
		st=0
		gc-stats "$T/c.gcs" >"$T/o" 2>&1 || st=$?
		expect_eq "$st" 1 "exit status at cut $cut"
		mapfile -t out <"$T/o"
		expect_eq "${#out[@]}" 1 "one line at $cut"
	done
	# and gzip-compressed, cut in the middle of the compressed bytes
	gzip -c "$T/s.gcs" >"$T/s.gz"
	head -c $(($(wc -c <"$T/s.gz") / 2)) "$T/s.gz" >"$T/c.gz"
	run_status 1 gc-stats "$T/c.gz"
}

# flip FILE OFFSET MASK: xor the byte at OFFSET with MASK (decimal).
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ $3)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "faults: bit flips in the header, a data record, a control record and the end record" {
	gc-gen -n 32 copy >"$T/s.gcs"
	local size hs
	size=$(wc -c <"$T/s.gcs")
	hs=$(u32 "$T/s.gcs" 12)
	# header: the magic, the major version, the kind
	for at in 0 8 16; do
		cp "$T/s.gcs" "$T/f.gcs"
		flip "$T/f.gcs" $at 4
		run_status 1 gc-stats "$T/f.gcs"
		expect_eq "$(echo "$output" | wc -l)" 1 "one line (header byte $at)"
	done
	# the first record is the kernel begin: its type byte
	cp "$T/s.gcs" "$T/f.gcs"
	flip "$T/f.gcs" "$hs" 64
	run_status 1 gc-stats "$T/f.gcs"
	expect_match "$output" "record 1 \(offset $hs\): "
	# a data record's operation (the tenth record): 1 -> 5, no operation
	cp "$T/s.gcs" "$T/f.gcs"
	flip "$T/f.gcs" $((hs + 9 * 32)) 4
	run_status 1 gc-stats "$T/f.gcs"
	expect_match "$output" "record 10 \(offset $((hs + 288))\): unknown record type 0x05"
	# the end record's record count and data count, each low bit
	local end=$((size - 32)) n=$(((size - hs) / 32))
	cp "$T/s.gcs" "$T/f.gcs"
	flip "$T/f.gcs" $((end + 8)) 1
	run_status 1 gc-stats "$T/f.gcs"
	expect_match "$output" "record $n \(offset $end\): count mismatch: end-of-stream record says"
	cp "$T/s.gcs" "$T/f.gcs"
	flip "$T/f.gcs" $((end + 16)) 1
	run_status 1 gc-stats "$T/f.gcs"
	expect_match "$output" "count mismatch: end-of-stream record says"
	# the high byte of the record count: a count near 2^64 is no match either
	cp "$T/s.gcs" "$T/f.gcs"
	flip "$T/f.gcs" $((end + 15)) 128
	run_status 1 gc-stats "$T/f.gcs"
	expect_match "$output" "count mismatch: end-of-stream record says 9223372036854775"
}

@test "faults: streams of different kinds concatenated are refused after the first's end" {
	gc-gen -n 64 vecadd >"$T/a.gcs"
	gc-sched "$T/a.gcs" | gc-coalesce >"$T/r.gcs"
	cat "$T/a.gcs" "$T/r.gcs" >"$T/ar.gcs"
	run_status 1 gc-stats "$T/ar.gcs"
	expect_match "$output" "data after the end-of-stream record"
	cat "$T/r.gcs" "$T/a.gcs" | { run_status 1 gc-l1; expect_match "$output" "data after the end-of-stream record"; }
}

@test "faults: a directory, an empty file and a FIFO closed at once, for every stage" {
	mkdir "$T/dir"
	: >"$T/empty"
	local tool
	for tool in gc-sched gc-coalesce gc-l1 gc-l2 gc-dram gc-perf gc-rd gc-stats gc-profile; do
		run_status 1 $tool "$T/dir"
		expect_match "$output" "^$tool: $T/dir: .*(directory|Is a directory)"
		run_status 1 $tool "$T/empty"
		expect_match "$output" "^$tool: $T/empty: empty input"
		rm -f "$T/fifo"
		mkfifo "$T/fifo"
		(: >"$T/fifo") &
		run_status 1 $tool "$T/fifo"
		wait
		expect_match "$output" "^$tool: $T/fifo: empty input"
	done
}

# ---- option values at their limits --------------------------------------------

@test "faults: cache geometry at its limits is a usage error (exit 2) naming the value, for gc-l1, gc-l2, gc-rd" {
	gc-gen -n 64 vecadd | gc-sched | gc-coalesce >"$T/r.gcs"
	gc-l1 "$T/r.gcs" >"$T/l1.gcs"
	# --sets 3: gc-l1's default index (fermi) needs 32 or 64 sets; gc-l2's
	# slices take any number (linear index: modulo), so it is no limit there.
	local tool opt opts in
	for tool in gc-l1 gc-l2; do
		opts="--ways 0|--ways -4|--ways 18446744073709551617|--sets 0|--sets -1"
		in=$T/l1.gcs
		if [ $tool = gc-l1 ]; then
			opts="$opts|--sets 3|--size 0|--size 1T|--size -1|--size 99999999999999999999999|--line 0|--line 96"
			in=$T/r.gcs
		else
			opts="$opts|--slice-size 0|--slice-size 1T|--slice-size -1|--slice-size 99999999999999999999999"
		fi
		local IFS='|'
		for opt in $opts; do
			IFS=' '
			run_status 2 $tool $opt "$in"
			expect_match "${lines[0]}" "^$tool: (${opt%% *}: |options: )"
			[ "${#lines[@]}" -eq 1 ] || expect_match "${lines[1]}" "^Try '$tool --help'"
			IFS='|'
		done
		IFS=' '
	done
	for opt in "--line 0" "--line 96" "--line -1" "--line 99999999999999999999"; do
		run_status 2 gc-rd $opt "$T/r.gcs"
		expect_match "${lines[0]}" "^gc-rd: --line"
	done
}

# ---- 64-bit counts ------------------------------------------------------------

@test "faults: counts past 2^32 and up to 2^64-1 are carried in full (test-lib counts-64, gc-stats --merge)" {
	run_status 0 test-lib counts-64
	expect_eq "$output" "1..1
ok 1 counts-64"
	# 2^32, 2^64-1, and 2^53+1 (no double holds it)
	printf '{"accesses": 4294967296, "bytes": 18446744073709551615, "misses": 9007199254740993}\n' >"$T/big.json"
	run_status 0 gc-stats --merge "$T/big.json"
	expect_eq "${lines[1]}" "$T/big.json,4294967296,18446744073709551615,9007199254740993"
}

# ---- what the fuzz targets found (their inputs are in tests/fuzz/corpus) ------

@test "faults: fuzz finding: a profile whose last line is blanks without a newline (read past the text)" {
	run_status 1 gc-clone "$GC_ROOT/tests/fuzz/corpus/profile/crash-blank-last-line"
	expect_eq "$output" "gc-clone: $GC_ROOT/tests/fuzz/corpus/profile/crash-blank-last-line: line 3: cut short: the text ends where 'gc-profile' is wanted"
	# a whole profile with blanks after its end line, unterminated, reads
	gc-gen -n 64 vecadd | gc-profile >"$T/p.gcp"
	printf ' \t ' >>"$T/p.gcp"
	run_status 0 gc-clone -o "$T/c.gcs" "$T/p.gcp"
	run_status 0 gc-stats "$T/c.gcs"
}

@test "faults: fuzz finding: a profile line that ends at the label 'op' or 'space' (read past the line)" {
	run_status 1 gc-clone "$GC_ROOT/tests/fuzz/corpus/profile/crash-op-at-line-end"
	expect_eq "$output" "gc-clone: $GC_ROOT/tests/fuzz/corpus/profile/crash-op-at-line-end: line 20: space: want a memory space"
	sed '20s/ op load space$/ op/' "$GC_ROOT/tests/fuzz/corpus/profile/crash-op-at-line-end" >"$T/op.gcp"
	run_status 1 gc-clone "$T/op.gcp"
	expect_eq "$output" "gc-clone: $T/op.gcp: line 20: op: want load, store or atomic"
}
