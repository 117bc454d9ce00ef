# Shared helpers for the bats files.  GC_BIN: the tools under test (the
# build tree by default, or an installed copy).  GC_TESTBIN: test-only
# programs.  SHARED: ../shared beside the project (real traces, seeds).

# (Without a subshell where bats gives an absolute path, as it does: a
# fork costs milliseconds on some machines, and this runs for every test.)
case $BATS_TEST_DIRNAME in
/*) GC_ROOT=${BATS_TEST_DIRNAME%/*} ;;
*) GC_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd) ;;
esac
: "${GC_BIN:=$GC_ROOT/build/bin}"
: "${GC_TESTBIN:=$GC_ROOT/build/tests}"
PATH="$GC_BIN:$GC_TESTBIN:$PATH"
FIX="$GC_ROOT/tests/fixtures"
GOLDEN="$GC_ROOT/tests/golden"
# The BFS trace of Accel-Sim (Rodinia, Volta), which many tests share.
BFS="$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g"

setup() {
	T=$BATS_TEST_TMPDIR
}

# use_asan_units: the library's unit-test programs from GC_ASANBIN (make
# check sets it: clang's ASan and UBSan builds of test-lib, cache-test and
# proxy-test) before GC_TESTBIN's, in the file that calls it.
use_asan_units() {
	if [ -n "${GC_ASANBIN:-}" ]; then
		PATH="$GC_ASANBIN:$PATH"
	fi
}

# run_status STATUS CMD...: run CMD, show its output on failure, and
# require the exit status.
run_status() {
	local want=$1
	shift
	run "$@"
	if [ "$status" -ne "$want" ]; then
		echo "command: $*" >&2
		echo "exit status $status, expected $want" >&2
		echo "--- output ---" >&2
		echo "$output" >&2
		return 1
	fi
}

# sh_status STATUS 'shell pipeline': like run_status, through sh -c,
# with stdout in $T/out and stderr in $T/err.
sh_status() {
	local want=$1
	shift
	local st=0
	sh -c "$1" >"$T/out" 2>"$T/err" || st=$?
	if [ "$st" -ne "$want" ]; then
		echo "command: $1" >&2
		echo "exit status $st, expected $want" >&2
		echo "--- stderr ---" >&2
		cat "$T/err" >&2
		return 1
	fi
}

# expect_eq ACTUAL EXPECTED [WHAT]: equal, and not both empty: two values
# that both came out empty (a failed command in $(...), a grep or an awk
# that found nothing) are no match.  expect_empty checks for nothing.
expect_eq() {
	if [ -z "$1" ] && [ -z "$2" ]; then
		echo "${3:-value}: got nothing, and nothing was expected (expect_empty?)" >&2
		return 1
	fi
	if [ "$1" != "$2" ]; then
		echo "${3:-value}: got '$1', expected '$2'" >&2
		return 1
	fi
}

# slurp VAR FILE: FILE's text in VAR without its trailing newlines, as
# "$(cat FILE)" gives it, without a process.
slurp() {
	local -n slurp_v=$1
	slurp_v=
	IFS= read -r -d '' slurp_v <"$2" || true
	while [[ $slurp_v == *$'\n' ]]; do slurp_v=${slurp_v%$'\n'}; done
}

# expect_empty ACTUAL [WHAT]
expect_empty() {
	if [ -n "$1" ]; then
		echo "${2:-value}: got '$1', expected nothing" >&2
		return 1
	fi
}

# expect_num ACTUAL [WHAT]: a decimal number (what awk would otherwise
# read an empty or broken value as 0).
expect_num() {
	local re='^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$'
	if ! [[ $1 =~ $re ]]; then
		echo "${2:-value}: got '$1', expected a number" >&2
		return 1
	fi
}

# expect_same A B [WHAT]: files A and B (or <(...) substitutions) hold the
# same bytes, and not none: a command that failed on both sides of a
# comparison writes nothing to either.
expect_same() {
	cat -- "$1" >"$T/.same-a" || return 1
	cat -- "$2" >"$T/.same-b" || return 1
	if [ ! -s "$T/.same-a" ] && [ ! -s "$T/.same-b" ]; then
		echo "${3:-output}: both sides are empty" >&2
		return 1
	fi
	if ! cmp -s "$T/.same-a" "$T/.same-b"; then
		echo "${3:-output}: the two sides differ" >&2
		diff -u "$T/.same-a" "$T/.same-b" >&2
		return 1
	fi
}

# expect_differ A B [WHAT]: files A and B (or <(...) substitutions) are
# both not empty and differ.
expect_differ() {
	cat -- "$1" >"$T/.differ-a" || return 1
	cat -- "$2" >"$T/.differ-b" || return 1
	if [ ! -s "$T/.differ-a" ] || [ ! -s "$T/.differ-b" ]; then
		echo "${3:-output}: a side is empty ($(wc -c <"$T/.differ-a") and $(wc -c <"$T/.differ-b") bytes)" >&2
		return 1
	fi
	if cmp -s "$T/.differ-a" "$T/.differ-b"; then
		echo "${3:-output}: the two sides are the same" >&2
		return 1
	fi
}

# expect_match STRING REGEX: a line of STRING matches the ERE, as grep -E
# finds it, but line by line in bash (=~, the same regcomp): no printf
# and grep processes.
expect_match() {
	local l
	while IFS= read -r l; do
		[[ $l =~ $2 ]] && return 0
	done <<<"$1"
	echo "'$1' does not match /$2/" >&2
	return 1
}

# golden NAME FILE: compare FILE with tests/golden/NAME; UPDATE_GOLDEN=1
# rewrites the golden file instead (review the diff before committing).
golden() {
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$GOLDEN"
		cp "$2" "$GOLDEN/$1"
		return 0
	fi
	diff -u "$GOLDEN/$1" "$2" >&2
}

# tap_all_ok PROG [ARG...]: a unit-test program (tests/src/check.h) runs
# every unit, exits 0, and prints a TAP plan, an "ok" line for each unit
# and no "not ok" or diagnostic line.
tap_all_ok() {
	run_status 0 "$@" || return 1
	expect_match "${lines[0]}" '^1\.\.[0-9]+$' || return 1
	local n=${lines[0]#1..}
	expect_eq "$(printf '%s\n' "$output" | grep -cE '^ok [0-9]+ [a-z]')" "$n" "TAP lines" || return 1
	if printf '%s\n' "$output" | grep -E '^not ok |^#'; then
		echo "$output" >&2
		return 1
	fi
}

# The mandatory cases of every tool (STYLE.md): help, version, unknown
# option, bad value.  $1 tool, $2 an option taking a number.
common_cli_cases() {
	local tool=$1 numopt=$2 err
	run_status 0 "$tool" --help
	expect_match "${lines[0]}" "^(Usage|usage): $tool"
	run_status 0 "$tool" -h
	run_status 0 "$tool" --version
	expect_match "${lines[0]}" "^$tool \(gc\) [0-9]"
	expect_match "$output" "stream format: reads 1\.x, writes 1\.0"
	expect_match "$output" "zlib [0-9]"
	sh_status 2 "$tool --no-such-option"
	slurp err "$T/err"
	expect_match "$err" "unknown option '--no-such-option'"
	expect_match "$err" "Try '$tool --help'"
	[ ! -s "$T/out" ]
	if [ -n "$numopt" ]; then
		sh_status 2 "$tool $numopt 12x"
		slurp err "$T/err"
		expect_match "$err" "$numopt: '12x' is not a number"
		[ ! -s "$T/out" ]
	fi
}

# output_rule 'STAGE ARGS INPUT': the output rule of gc(7) for a stage.
# --emit none writes the -v report on stdout and nothing else; --report F
# writes the same text to F and leaves stdout's stream as a run without
# it writes it (records and header; the provenance names the command
# line); --report /dev/full fails with exit 1 and says why.
output_rule() {
	local cmd=$1 err
	sh_status 0 "$cmd" && mv "$T/out" "$T/rule.plain"
	slurp err "$T/err"
	expect_empty "$err"
	[ -s "$T/rule.plain" ]
	sh_status 0 "$cmd -v" && mv "$T/err" "$T/rule.v"
	[ -s "$T/rule.v" ]
	cmp "$T/rule.plain" "$T/out" 2>/dev/null || expect_same \
		<(gc-stats --dump "$T/rule.plain" | grep -v '^# header provenance=') \
		<(gc-stats --dump "$T/out" | grep -v '^# header provenance=') "-v stream"
	sh_status 0 "$cmd --emit none"
	slurp err "$T/err"
	expect_empty "$err"
	expect_same "$T/rule.v" "$T/out" "--emit none"
	sh_status 0 "$cmd --report '$T/rule.r'"
	slurp err "$T/err"
	expect_empty "$err"
	expect_same "$T/rule.v" "$T/rule.r" "--report"
	cmp "$T/rule.plain" "$T/out" 2>/dev/null || expect_same \
		<(gc-stats --dump "$T/rule.plain" | grep -v '^# header provenance=') \
		<(gc-stats --dump "$T/out" | grep -v '^# header provenance=') "--report stream"
	sh_status 1 "$cmd --report /dev/full"
	slurp err "$T/err"
	expect_match "$err" "/dev/full: write error: No space left on device"
}

# Every option the man page lists appears in --help and vice versa.
help_matches_man() {
	local tool=$1 man="$GC_ROOT/share/man/man1/$1.1"
	local a b
	a=$("$tool" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	b=$(grep -oE -- '\\-\\-[a-z][a-z0-9-]*' "$man" | sed 's/\\-/-/g' | sort -u)
	if [ "$a" != "$b" ]; then
		echo "options in --help and $man differ:" >&2
		diff <(echo "$a") <(echo "$b") >&2
		return 1
	fi
}

# stream_hsize FILE: the header size of a gc stream (bytes 12-15).
stream_hsize() {
	od -An -tu4 -j12 -N4 "$1" | tr -d ' '
}

# hkey FILE KEY: a header key's value (gc-stats --dump).
hkey() {
	gc-stats --dump "$1" | sed -n "s/^# header $2=//p"
}

# stream_htext FILE: the header's key=value lines (after its 64 fixed bytes).
stream_htext() {
	head -c "$(stream_hsize "$1")" "$1" | tail -c +65 | tr -d '\000'
}

# stream_rsize FILE: the record size of a gc stream (bytes 18-19).
stream_rsize() {
	od -An -tu2 -j18 -N2 "$1" | tr -d ' '
}

# decode_stream FILE: one line per record of a gc stream, decoded with od
# and awk from the byte layout of gc-stream(5), apart from the library.
# What a 1.0 reader sees: the first 32 bytes of records of any size
# (and, unlike one, the 1.3 opcode records skipped, like time bases).
#   K ID "NAME" GX,GY,GZ BX,BY,BZ REGS SHMEM     kernel begin
#   A KEY VALUE                                 kernel attribute (2 mem insts, 3 stream)
#   BLOCK,WARP,LANE,PC,SEQ,OP,SPACE,SIZE,ADDR   data (SPACE +bypass: L1 bypass flag)
#   E ID COUNT                                  kernel end
#   Z RECORDS DATA                              end of stream
decode_stream() {
	# od writes a record as little-endian 32-bit words (a quarter of the
	# text of a number a byte); bytes and 16-bit halves come by division.
	# Bytes 12-19 (header size, record size) in one od.
	local h
	h=($(od -An -tu2 -j12 -N8 "$1"))
	od -An -v -tu4 -w"${h[3]}" -j "$((h[0] + 65536 * h[1]))" "$1" | awk '
	function b(i) { return int($(int(i / 4) + 1) / p8[i % 4]) % 256 }
	function u8(w) { return $w + $(w + 1) * 4294967296 }
	function hex(w) { return $(w + 1) ? sprintf("0x%x%08x", $(w + 1), $w) : sprintf("0x%x", $w) }
	function flush() {
		if (kb != "") print kb " \"" name "\"" kr
		if (at != "") print substr(at, 2)
		kb = name = kr = at = ""
	}
	BEGIN {
		split("global local shared const texture generic", sp, " "); split("load store atomic", ops, " ")
		p8[0] = 1; p8[1] = 256; p8[2] = 65536; p8[3] = 16777216
	}
	{ t = $1 % 256; f = int($1 / 256) % 256 }
	t == 130 { for (i = 2; i < 2 + f; i++) name = name sprintf("%c", b(i)); next }
	t == 129 { at = at sprintf("\nA %.0f %.0f", int($1 / 65536), u8(3)); next }
	{ flush() }
	t == 128 { kb = sprintf("K %.0f", $2)
		   kr = sprintf(" %.0f,%.0f,%.0f %.0f,%.0f,%.0f %.0f %.0f", $3, $4 % 65536, int($4 / 65536),
				$5 % 65536, int($5 / 65536), $6 % 65536, int($6 / 65536), $7); next }
	t >= 1 && t <= 3 { printf "%.0f,%.0f,%.0f,%s,%.0f,%s,%s%s,%.0f,%s\n", $3, int($2 / 65536),
		int($1 / 65536) % 256, sprintf("0x%x", $4), $5, ops[t], sp[f % 16 + 1], (f >= 16 ? "+bypass" : ""),
		int($1 / 16777216), hex(7); next }
	t == 131 { printf "E %.0f %.0f\n", $2, u8(3); next }
	t == 143 { printf "Z %.0f %.0f\n", u8(3), u8(5); next }
	t == 132 || t == 133 || t == 134 { next }
	{ print "? " t }
	END { flush() }'
}

# decode_compute FILE: the compute field (gc-stream(5), bytes 40-47) of
# every data record, one line each, from the bytes apart from the library:
#   BLOCK,WARP,SEQ INSTS CYCLES WAITS RESERVED VALID
decode_compute() {
	local h
	h=($(od -An -tu2 -j12 -N8 "$1"))
	od -An -v -tu4 -w"${h[3]}" -j "$((h[0] + 65536 * h[1]))" "$1" | awk '
	{ t = $1 % 256 }
	t >= 1 && t <= 3 {
		b46 = int($12 / 65536) % 256; b47 = int($12 / 16777216)
		printf "%.0f,%.0f,%.0f %.0f %.0f %.0f %d %d\n", $3, int($2 / 65536), $5, $11 % 16777216,
			int($11 / 16777216) + ($12 % 65536) * 256 + (b46 % 4) * 16777216, int(b46 / 4) + (b47 % 64) * 64,
			int(b47 / 64) % 2, int(b47 / 128)
	}'
}

# ---- the importer tests -----------------------------------------------------

# imp [OPTIONS] FILE: gc-import into $T/s, decoded (decode_stream) into $T/d.
imp() {
	gc-import "$@" >"$T/s" || return 1
	decode_stream "$T/s" >"$T/d"
}

# ndata [ERE]: the data lines of $T/d (matching ERE), counted.
ndata() {
	grep -E '^[0-9]' "$T/d" | grep -cE "${1:-.}" || [ $? -eq 1 ]
}

# import_bad FILE MESSAGE [OPTIONS]: gc-import fails with exactly
# "gc-import: MESSAGE" on stderr and exit status 1.  (gc-import runs
# directly and stderr is read by slurp: no sh, no cat.)
import_bad() {
	local f=$1 msg=$2 st=0 err
	shift 2
	gc-import "$@" "$f" >"$T/o" 2>"$T/err" || st=$?
	slurp err "$T/err"
	if [ "$st" -ne 1 ]; then
		echo "command: gc-import $* $f" >&2
		echo "exit status $st, expected 1" >&2
		echo "--- stderr ---" >&2
		echo "$err" >&2
		return 1
	fi
	expect_eq "$err" "gc-import: $msg"
}

# jnum KEY [FILE]: the number of the first "KEY": in FILE (default $T/j,
# a tool's --json or --stats).
jnum() {
	grep -m1 "\"$1\":" "${2:-$T/j}" | sed 's/.*: *//; s/,$//'
}

# bfs_front FILE: the BFS trace imported, scheduled for the V100 and
# coalesced: its requests in FILE.
bfs_front() {
	gc-import -q "$BFS" | gc-sched -q --gpu volta-v100 | gc-coalesce >"$1"
}

# acsv [GRID BLOCK REGS SHMEM]: an access stream of one kernel from rows
# on stdin, "block warp lane pc seq op space addr size", restored by
# gc-import -f csv (default: grid 4x1x1, 32 threads a block, no registers
# or shared memory).
acsv() {
	awk -v grid="${1:-4x1x1}" -v blk="${2:-32x1x1}" -v regs="${3:-0}" -v shmem="${4:-0}" '
	BEGIN {
		print "# gc-stats dump 1"; print "# kind accesses"; print "# version 1.0"
		print "# record_size 32"; print "# required 0x0"; print "# optional 0x0"
		print "# header source_format=test"
		print "kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info"
		print "1,,,,,,,kbegin,,,,,,,,\"k\",grid=" grid " block=" blk " regs=" regs " shmem=" shmem
	}
	NF {
		printf "1,0,%s,%s,%s,%s,%s,%s,%s,%s,%s,,0,,0,,\n", $1, $2, $3, $4, $5, $6, $7, $8, $9
		n++
	}
	END {
		print "1,,,,,,,kend,,,,,,,,,records=" n
		print ",,,,,,,end,,,,,,,,,records=" n + 3 " data=" n
	}' | gc-import -f csv
}

# compute_fields FILE: one line per memory warp instruction of a compute
# stream (gc-stats --dump's info column): "bBLOCK wWARP pc=PC insts=N
# cycles=N waits=N", once per instruction when all its records agree.
compute_fields() {
	gc-stats --dump "$1" |
		awk -F, '$8 ~ /^(load|store|atomic)$/ { print "b" $3, "w" $4, "pc=" $6, $17 }' | uniq
}

# jv KEY FILE: every top-level value of "KEY" in a JSON object as gc_json
# writes it (one key a line, two spaces in), a line each, strings
# unquoted.  A file may define its own jv for another layout (gc-clone,
# gc-rd-l1).
jv() {
	# (bash alone, no process: as sed -n "s/^  \"KEY\": \(.*\)/\1/p" |
	# sed 's/,$//; s/^"\(.*\)"$/\1/', every match a line, on the whole
	# file read once)
	local s v p=$'\n'"  \"$1\": "
	IFS= read -r -d '' s <"$2" || :
	s=$'\n'$s
	while [[ $s == *"$p"* ]]; do
		s=${s#*"$p"}
		v=${s%%$'\n'*}
		v=${v%,}
		[[ $v == \"*\" ]] && { v=${v#\"}; v=${v%\"}; }
		printf '%s\n' "$v"
	done
	return 0
}

# refused WHAT STATUS WANT: a command that ran with stdout in $T/out and
# stderr in $T/err (exit status STATUS) refused its input: status 1,
# stderr exactly WANT, nothing on stdout; WHAT names the case.
refused() {
	local err
	slurp err "$T/err"
	if [ "$2" -ne 1 ]; then
		echo "$1: exit status $2, expected 1; stderr: $err" >&2
		return 1
	fi
	expect_eq "$err" "$3" "message for $1" || return 1
	if [ -s "$T/out" ]; then
		echo "$1: stdout is not empty:" >&2
		cat "$T/out" >&2
		return 1
	fi
}
