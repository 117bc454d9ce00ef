#!/usr/bin/env bats
# lib/ through test-lib (tests/src/test-lib/): its unit tests, then the
# cases that need a process of their own (exit statuses, messages on
# stderr, an empty stdout): numbers, GPU files, lines, JSON, the shared
# options, and writing to a full disk.

load helpers
use_asan_units

# usage_error STATUS-LINE: stderr is that line and the --help hint, stdout
# is empty (after sh_status 2).
usage_error() {
	expect_eq "$(<"$T/err")" "test-lib: $1
Try 'test-lib --help' for more information." || return 1
	[ ! -s "$T/out" ]
}

# parse STATUS num|real OPT ARG MIN MAX: test-lib's gc_num or gc_real on
# one argument, without a shell, stdout in $T/out and stderr in $T/err,
# and the exit status STATUS; on 0, nothing on stderr.  LeakSanitizer's
# scan at exit is off here: cmd_num and cmd_real (test-lib/main.c) parse
# one argument and allocate nothing, so the scan (125 of the ~160 ms an
# ASan start costs, and these tests start ~60) has nothing to find;
# "lib: unit tests" runs every unit with it on.
parse() {
	local want=$1 st=0
	shift
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		test-lib "$@" >"$T/out" 2>"$T/err" || st=$?
	if [ "$st" -ne "$want" ]; then
		echo "command: test-lib $*" >&2
		echo "exit status $st, expected $want" >&2
		echo "--- stderr ---" >&2
		echo "$(<"$T/err")" >&2
		return 1
	fi
	[ "$want" -ne 0 ] || [ ! -s "$T/err" ] || { echo "test-lib $*: $(<"$T/err")" >&2; return 1; }
}

@test "lib: unit tests" {
	tap_all_ok test-lib
}

@test "lib: a unit test runs alone; an unknown one is a usage error" {
	run_status 0 test-lib endian
	expect_eq "$output" "1..1
ok 1 endian"
	sh_status 2 "test-lib no-such-test"
	usage_error "no test or command 'no-such-test' (see the comment at the top of test-lib/main.c)"
}

# ---- gc_num -------------------------------------------------------------

@test "gc_num: decimal, hex and K/M/G suffixes" {
	local arg want
	while read -r arg want; do
		parse 0 num --size "$arg" 0 0xffffffffffffffff
		expect_eq "$(<"$T/out")" "$want" "gc_num $arg"
	done <<'END'
0 0
7 7
007 7
4k 4096
32K 32768
1M 1048576
3m 3145728
2G 2147483648
16g 17179869184
0x1f 31
0X10 16
0xFFffFFffFFffFFff 18446744073709551615
18446744073709551615 18446744073709551615
17179869183G 18446744072635809792
END
}

@test "gc_num: ranges" {
	parse 0 num --ways 4 1 64
	expect_eq "$(<"$T/out")" 4
	parse 0 num --ways 64 1 64
	expect_eq "$(<"$T/out")" 64
	parse 0 num --ways 1 1 64
	expect_eq "$(<"$T/out")" 1
	parse 2 num --ways 65 1 64
	usage_error "--ways: 65 is out of range (1 to 64)"
	parse 2 num --ways 0 1 64
	usage_error "--ways: 0 is out of range (1 to 64)"
	parse 2 num --size 1K 0 1000
	usage_error "--size: 1024 is out of range (0 to 1000)"
}

@test "gc_num: what is not a number" {
	local arg
	for arg in '' x 12x -1 +1 ' 5' '5 ' 0x 0xg 0x10K 1KB 1.5 K 1e3 0x-1 '1 K'; do
		parse 2 num --size "$arg" 0 100000
		usage_error "--size: '$arg' is not a number"
	done
}

@test "gc_num: too large" {
	local arg
	for arg in 18446744073709551616 99999999999999999999999 0x10000000000000000 \
		17179869184G 18014398509481984M 18014398509481984K; do
		parse 2 num --size "$arg" 0 0xffffffffffffffff
		usage_error "--size: '$arg' is too large"
	done
}

@test "gc_num: a second 0x prefix is not a number" {
	for arg in 0x0x10 0X0x10 0x0X1 0x0x; do
		parse 2 num --size $arg 0 100
		usage_error "--size: '$arg' is not a number"
	done
	parse 0 num --size 0x010 0 100
	expect_eq "$(<"$T/out")" 16
}

# ---- gc_real ------------------------------------------------------------

@test "gc_real: values, ranges, errors" {
	parse 0 real --ratio 0.5 0 1
	expect_eq "$(<"$T/out")" 0.5
	parse 0 real --ratio 1e-3 0 1
	expect_eq "$(<"$T/out")" 0.001
	parse 0 real --ratio -2.5 -10 10
	expect_eq "$(<"$T/out")" -2.5
	parse 0 real --ratio 1 0 1
	expect_eq "$(<"$T/out")" 1
	parse 2 real --ratio 2 0 1
	usage_error "--ratio: 2 is out of range (0 to 1)"
	parse 2 real --ratio -0.5 0 1
	usage_error "--ratio: -0.5 is out of range (0 to 1)"
	local arg
	for arg in '' abc 1.5x nan NaN 1e999 '1 2'; do
		parse 2 real --ratio "$arg" -1e300 1e300
		usage_error "--ratio: '$arg' is not a number"
	done
}

# ---- gc_gpu_load ----------------------------------------------------------

@test "gc_gpu_load: a good file, comments, blanks, spacing" {
	run_status 0 test-lib gpu "$FIX/gpus/test.gpu"
	expect_eq "$output" "name=$FIX/gpus/test.gpu
path=$FIX/gpus/test.gpu
3: name = test
4: sm_count = 4
5: warp_size = 32
6: l1_size = 32K
8: line_size = 128
9: sector_size = 32
10: description = two words = and an equals sign
get(name)=test"
}

@test "gc_gpu_load: a preset name found through GC_GPU_PATH" {
	GC_GPU_PATH="$T/empty-dir:$FIX/gpus" run_status 0 test-lib gpu test
	expect_eq "${lines[0]}" "name=test"
	expect_eq "${lines[1]}" "path=$FIX/gpus/test.gpu"
}

@test "gc_gpu_load: a line that is not key = value" {
	local f
	for f in bad-line:3 empty-value:2 no-key:2; do
		sh_status 2 "test-lib gpu '$FIX/gpus/${f%:*}.gpu'"
		expect_eq "$(cat "$T/err")" "test-lib: $FIX/gpus/${f%:*}.gpu:${f#*:}: expected 'key = value'"
		[ ! -s "$T/out" ]
	done
}

@test "gc_gpu_load: a key set twice" {
	sh_status 2 "test-lib gpu '$FIX/gpus/repeated.gpu'"
	expect_eq "$(cat "$T/err")" "test-lib: $FIX/gpus/repeated.gpu:4: 'sm_count' already set on line 2"
	[ ! -s "$T/out" ]
}

@test "gc_gpu_load: no such preset, no such file" {
	GC_GPU_PATH="$FIX/gpus" sh_status 2 "test-lib gpu no-such-gpu"
	# the names on the search path: GC_GPU_PATH's, then the shipped presets
	usage_error "--gpu: no preset or file named 'no-such-gpu' (presets: ampere-a100, ampere-rtx3070, bad-line, empty-value, fermi-gtx470-16k, fermi-gtx470-48k, hopper-h100, intervals, no-key, pascal-gtx1080, repeated, test, turing-rtx2060, volta-titanv, volta-v100; or give a file, a folder with gpgpusim.config, or set GC_GPU_PATH)"
	sh_status 2 "test-lib gpu '$T/nope.gpu'"
	expect_eq "$(cat "$T/err")" "test-lib: $T/nope.gpu: No such file or directory"
	[ ! -s "$T/out" ]
}

@test "gc_gpu_load: every shipped preset loads" {
	local f n=0
	for f in "$GC_ROOT"/share/gpus/*.gpu; do
		[ -e "$f" ] || continue
		run_status 0 test-lib gpu "$(basename "$f" .gpu)"
		# Found beside the build tree: the same file.
		cmp "$f" "${lines[1]#path=}"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || skip "no presets in share/gpus yet"
}

# ---- lines ------------------------------------------------------------------

@test "gc_lines: CRLF, no final newline, gzip on stdin" {
	printf 'one\r\ntwo\n\nlast' >"$T/t"
	run_status 0 test-lib lines "$T/t"
	expect_eq "$output" "1 3 one
2 3 two
3 0 
4 4 last"
	gzip -c "$T/t" >"$T/t.gz"
	run_status 0 test-lib lines "$T/t.gz"
	expect_eq "$output" "1 3 one
2 3 two
3 0 
4 4 last"
	sh_status 0 "test-lib lines <'$T/t.gz'"
	expect_eq "$(cat "$T/out")" "$output"
}

@test "gc_lines: a line longer than the 1 MiB chunk" {
	{
		echo first
		head -c 2500000 /dev/zero | tr '\0' x
		echo
		echo last
	} >"$T/t"
	run_status 0 test-lib lines "$T/t"
	expect_eq "${lines[0]}" "1 5 first"
	expect_eq "${lines[1]}" "2 2500000 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	expect_eq "${lines[2]}" "3 4 last"
	expect_eq "${#lines[@]}" 3
}

@test "gc_lines: a file that is not there" {
	sh_status 1 "test-lib lines '$T/nope.trace'"
	expect_eq "$(cat "$T/err")" "test-lib: $T/nope.trace: No such file or directory"
	[ ! -s "$T/out" ]
}

# ---- JSON -------------------------------------------------------------------

@test "gc_json: the output parses as JSON" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	test-lib json >"$T/j"
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["o"]["u"] == 2**64 - 1; assert d["name"] == "a\"b\\c\nd\te\x01f\x7f/"; assert d["empty"] == []' "$T/j"
}

# ---- the shared options (gc_getopt, gc_common_option, gc_one_input) ---------

@test "options: --version, --help" {
	run_status 0 test-lib cli --version
	expect_eq "${lines[0]}" "test-lib (gc) $(sed -n 's/^#define GC_VERSION_STRING "\(.*\)"$/\1/p' "$GC_ROOT/lib/stream/format.h")"
	expect_eq "${lines[1]}" "stream format: reads 1.x, writes 1.0 (1.1 with reuse distances, 1.2 with compute fields)"
	expect_match "${lines[2]}" '^zlib [0-9]'
	expect_match "${lines[3]}" '^liblzma [0-9]'
	run_status 0 test-lib cli -V
	expect_match "${lines[0]}" '^test-lib \(gc\) '
	run_status 0 test-lib cli --help
	expect_eq "$output" "Usage: test-lib cli [options] [file]"
	run_status 0 test-lib cli -h
	expect_eq "$output" "Usage: test-lib cli [options] [file]"
}

@test "options: values and the input operand" {
	run_status 0 test-lib cli -qv -o out --gpu volta --stats s.json --force -z --progress in.gcs
	expect_eq "${lines[0]}" "in=in.gcs out=out stats=s.json gpu=volta verbose=1 quiet=0 force=1 gzip=1 progress=1"
	run_status 0 test-lib cli -vv --output=o2 -
	expect_eq "${lines[0]}" "in=- out=o2 stats=- gpu=- verbose=2 quiet=0 force=0 gzip=0 progress=0"
	run_status 0 test-lib cli
	expect_eq "${lines[0]}" "in=- out=- stats=- gpu=- verbose=0 quiet=0 force=0 gzip=0 progress=0"
}

@test "options: the command line is kept shell-quoted" {
	run_status 0 test-lib cli -o "it's here" "a b"
	expect_eq "${lines[0]}" "in=a b out=it's here stats=- gpu=- verbose=0 quiet=0 force=0 gzip=0 progress=0"
	expect_eq "${lines[1]}" "cmdline=test-lib -o 'it'\\''s here' 'a b'"
}

@test "options: unknown options, missing values, two inputs" {
	sh_status 2 "test-lib cli --no-such-option"
	usage_error "unknown option '--no-such-option'"
	sh_status 2 "test-lib cli -x"
	usage_error "unknown option '-x'"
	sh_status 2 "test-lib cli -o"
	usage_error "option '-o' needs a value"
	sh_status 2 "test-lib cli --stats"
	usage_error "option '--stats' needs a value"
	sh_status 2 "test-lib cli --gpu"
	usage_error "option '--gpu' needs a value"
	sh_status 2 "test-lib cli a b"
	usage_error "one input at most (got 'a' and 'b')"
}

@test "options: a long option without its value is named as typed" {
	sh_status 2 "test-lib cli --output"
	usage_error "option '--output' needs a value"
	sh_status 2 "test-lib cli -v --output"
	usage_error "option '--output' needs a value"
	sh_status 2 "test-lib cli -vo"
	usage_error "option '-o' needs a value"
	sh_status 2 "test-lib cli --stats"
	usage_error "option '--stats' needs a value"
}

# ---- a full disk ------------------------------------------------------------

@test "writer: a stream to /dev/full fails with exit 1" {
	sh_status 1 "test-lib write-stream >/dev/full"
	expect_eq "$(cat "$T/err")" "test-lib: stdout: write error: No space left on device"
	sh_status 1 "test-lib write-stream -z >/dev/full"
	expect_eq "$(cat "$T/err")" "test-lib: stdout: write error: No space left on device"
}

@test "text output: /dev/full fails with exit 1" {
	sh_status 1 "test-lib write-text >/dev/full"
	expect_eq "$(cat "$T/err")" "test-lib: stdout: write error: No space left on device"
	run_status 0 test-lib write-text
	expect_eq "$output" hello
}
