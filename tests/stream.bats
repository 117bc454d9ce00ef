#!/usr/bin/env bats
# The gc stream as every reader sees it (lib/stream/stream.c, lib/stream/input.c).
#
# The corpus: gc-mkbad (tests/src/gc-mkbad/) writes each member, a stream
# valid but for one defect, and `gc-mkbad --list` holds the message the
# reader must give for it.  Each member is read by `gc-mkbad read`, a
# reader built on gc_open_stream/gc_read that calls itself gc-read-test:
# exit status 1, exactly "gc-read-test: stdin: MESSAGE" on stderr, nothing
# on stdout.  Then: valid streams read back exactly, gzip and xz input,
# and the writer's refusals.

load helpers

# The corpus list (name, message), read once for the file.
setup_file() {
	gc-mkbad --list >"$BATS_FILE_TMPDIR/list"
}

# message NAME: the corpus member's message from --list (msg_of sets
# the variable msg to it, without a process).
message() {
	local msg
	msg_of "$1" && printf '%s\n' "$msg"
}
msg_of() {
	local n m
	while IFS=$'\t' read -r n m; do
		if [ "$n" = "$1" ]; then
			msg=$m
			return 0
		fi
	done <"$BATS_FILE_TMPDIR/list"
	return 1
}

# read_bad WHAT FILE: the reader (gc-mkbad read) refuses FILE on its
# standard input with exit status 1, exactly "gc-read-test: stdin: $msg"
# on stderr and nothing on stdout; WHAT names the case in a failure.
read_bad() {
	local st=0
	gc-mkbad read <"$2" >"$T/out" 2>"$T/err" || st=$?
	refused "$1" "$st" "gc-read-test: stdin: $msg"
}

# bad NAME: the reader refuses member NAME with its message.  (Each step
# returns explicitly, so that it also works where set -e does not act.)
bad() {
	local name=$1 msg
	msg_of "$name" || { echo "no corpus member '$name'" >&2; return 1; }
	gc-mkbad "$name" >"$T/in" || return 1
	read_bad "$name" "$T/in" || return 1
}

@test "corpus: every member has a test in this file, names are unique" {
	gc-mkbad --list | cut -f1 | sort >"$T/listed"
	grep -oE '^	bad [a-z0-9-]+' "$BATS_TEST_FILENAME" |
		awk '{ print $2 }' | sort >"$T/tested"
	diff -u "$T/listed" "$T/tested"
	[ "$(sort -u "$T/listed" | wc -l)" -eq "$(wc -l <"$T/listed")" ]
	[ "$(wc -l <"$T/listed")" -ge 60 ]
}

@test "corpus: the empty input, plain and compressed: empty, empty-gzip, empty-xz" {
	bad empty
	bad empty-gzip
	bad empty-xz
}

@test "corpus: the fixed header's start: short-header, short-header-text, bad-magic, bad-magic-garbage, bad-magic-text, bad-magic-gzip-twice, bad-magic-xz-in-gzip, bad-magic-gzip-in-xz, bad-magic-xz-twice, bad-major" {
	bad short-header
	bad short-header-text
	bad bad-magic
	bad bad-magic-garbage
	bad bad-magic-text
	bad bad-magic-gzip-twice
	bad bad-magic-xz-in-gzip
	bad bad-magic-gzip-in-xz
	bad bad-magic-xz-twice
	bad bad-major
}

@test "corpus: the fixed header's fields: header-size-odd, header-size-small, header-size-huge, header-text-overflow, bad-kind, record-size-small, record-size-odd, record-size-huge, required-flag, short-header-area, reserved-byte, padding-byte" {
	bad header-size-odd
	bad header-size-small
	bad header-size-huge
	bad header-text-overflow
	bad bad-kind
	bad record-size-small
	bad record-size-odd
	bad record-size-huge
	bad required-flag
	bad short-header-area
	bad reserved-byte
	bad padding-byte
}

@test "corpus: the header text: header-text-no-newline, header-text-not-kv, header-text-nul, header-text-repeated, header-text-bad-key, header-text-too-many-keys" {
	bad header-text-no-newline
	bad header-text-not-kv
	bad header-text-nul
	bad header-text-repeated
	bad header-text-bad-key
	bad header-text-too-many-keys
}

@test "corpus: the end of the stream and its counts: truncated-record, missing-end, missing-end-empty, missing-attr, missing-name, end-count, end-data-count, kend-count, data-after-end, data-after-end-byte" {
	bad truncated-record
	bad missing-end
	bad missing-end-empty
	bad missing-attr
	bad missing-name
	bad end-count
	bad end-data-count
	bad kend-count
	bad data-after-end
	bad data-after-end-byte
}

@test "corpus: record types and fields: unknown-type, zero-record, bad-space, access-size-zero" {
	bad unknown-type
	bad zero-record
	bad bad-space
	bad access-size-zero
}

@test "corpus: records in and out of kernels: data-outside-kernel, data-after-kend, kbegin-inside-kernel, kend-wrong-id, kend-outside-kernel, end-inside-kernel, attr-outside, name-outside, attr-missing, name-missing" {
	bad data-outside-kernel
	bad data-after-kend
	bad kbegin-inside-kernel
	bad kend-wrong-id
	bad kend-outside-kernel
	bad end-inside-kernel
	bad attr-outside
	bad name-outside
	bad attr-missing
	bad name-missing
}

@test "corpus: kernel names and attributes: name-chunk-short, name-chunk-long, name-too-long, too-many-attrs, name-nul" {
	bad name-chunk-short
	bad name-chunk-long
	bad name-too-long
	bad too-many-attrs
	bad name-nul
}

@test "corpus: timestamps: time-backwards, time-wrap-no-base, time-base-backwards" {
	bad time-backwards
	bad time-wrap-no-base
	bad time-base-backwards
}

@test "corpus: the opcode records' defects (1.3)" {
	bad opcode-truncated
	bad opcode-length-zero
	bad opcode-too-long
	bad opcode-pc-order
	bad opcode-pc-repeated
	bad opcode-more-missing
	bad opcode-more-count
	bad opcode-more-outside
	bad opcode-nul
	bad opcode-outside-kernel
	bad opcode-no-flag
	bad opcode-then-data
}

@test "corpus: gzip's own defects: gzip-bad-crc, gzip-bad-length, gzip-bad-method, gzip-bad-block, gzip-truncated, gzip-trailing-garbage" {
	bad gzip-bad-crc
	bad gzip-bad-length
	bad gzip-bad-method
	bad gzip-bad-block
	bad gzip-truncated
	bad gzip-trailing-garbage
}

@test "corpus: a file operand is named in the message" {
	gc-mkbad missing-end >"$T/cut.gcs"
	run_status 1 gc-mkbad read "$T/cut.gcs"
	expect_eq "$output" "gc-read-test: $T/cut.gcs: $(message missing-end)"
}

@test "corpus: gzip-compressed members fail as the plain ones do" {
	local n msg k=0
	# (Each plain member's own test reads it; here its gzip gives the
	# message --list holds for it.)
	while IFS=$'\t' read -r -u 3 n msg; do
		# Not those about compression itself.
		case $n in empty* | gzip-* | bad-magic-*-in-* | bad-magic-xz-twice) continue ;; esac
		k=$((k + 1))
		gc-mkbad "$n" | gzip -c >"$T/in.gz"
		read_bad "gzip of $n" "$T/in.gz"
	done 3<"$BATS_FILE_TMPDIR/list"
	# (57 members when this was written)
	[ "$k" -ge 50 ]
}

@test "stream: a file that is not there, a directory" {
	run_status 1 gc-mkbad read "$T/no-such.gcs"
	expect_eq "$output" "gc-read-test: $T/no-such.gcs: No such file or directory"
	run_status 1 gc-mkbad read "$T"
	expect_eq "$output" "gc-read-test: $T: is a directory"
}

@test "stream: good-access reads back every field" {
	gc-mkbad good-access >"$T/s"
	run_status 0 gc-mkbad read <"$T/s"
	expect_eq "$output" "records 19 data 7 kernels 2"
	gc-mkbad dump <"$T/s" >"$T/got"
	cat >"$T/want" <<'END'
header kind=accesses version=1.0 record_size=32 required=0x0 optional=0x0
text gpu=test
text provenance=gc-mkbad access
kbegin 1 name=_Z12matmul_tiledILi32EEvPKfS1_Pfiii_with_a_much_longer_mangled_suffix_for_chunks grid=4,2,1 block=64,1,1 regs=32 shmem=1024 attrs=1:1000,4:80
load global flags=0 lane=0 size=4 sm=0 warp=0 block=0 pc=0x100 seq=0 addr=0x7f0000001000 time=100 kernel=1
load global flags=0 lane=31 size=4 sm=0 warp=0 block=0 pc=0x100 seq=0 addr=0x7f000000107c time=100 kernel=1
store shared flags=0 lane=3 size=8 sm=1 warp=2 block=5 pc=0x1a0 seq=7 addr=0x40 time=200 kernel=1
atomic global flags=1 lane=7 size=4 sm=1 warp=2 block=5 pc=0x1b0 seq=8 addr=0x7f0000002000 time=4294967280 kernel=1
load local flags=0 lane=0 size=16 sm=3 warp=1 block=7 pc=0x1c0 seq=9 addr=0xfffc time=4294967301 kernel=1
kend 1
kbegin 2 name=k2 grid=1,1,1 block=1,1,1 regs=0 shmem=0 attrs=
load generic flags=0 lane=0 size=1 sm=65535 warp=65535 block=4294967295 pc=0xffffffff seq=4294967295 addr=0xffffffffffffffff time=8589934592 kernel=2
load generic flags=0 lane=1 size=1 sm=65535 warp=65535 block=4294967295 pc=0xffffffff seq=4294967295 addr=0xfffffffffffffffe time=8589934593 kernel=2
kend 2
records 19 data 7 kernels 2
bytes 744 compressed 0
END
	diff -u "$T/want" "$T/got"
}

@test "stream: good-request reads back every field" {
	gc-mkbad good-request >"$T/s"
	gc-mkbad dump <"$T/s" >"$T/got"
	cat >"$T/want" <<'END'
header kind=requests version=1.0 record_size=32 required=0x0 optional=0x3
text gpu=test
text provenance=gc-mkbad request
text line_size=128
text sector_size=32
kbegin 7 name=reduce grid=4294967295,65535,65535 block=1024,1,1 regs=0 shmem=0 attrs=
load global flags=0 outcome=miss/compulsory mask=0x0f size=128 sm=0 warp=0 block=0 pc=0x2000 seq=0 addr=0x7f0000001000 time=1 kernel=7
load global flags=0 outcome=hit mask=0x01 size=32 sm=10 warp=1 block=1000 pc=0x2010 seq=1 addr=0x7f0000001000 time=2 kernel=7
store local flags=0 outcome=sector-miss+wb mask=0x0c size=64 sm=20 warp=2 block=2000 pc=0x2020 seq=2 addr=0x80 time=3 kernel=7
atomic global flags=1 outcome=miss/mshr+bypass mask=0xff size=65535 sm=30 warp=3 block=3000 pc=0x2030 seq=3 addr=0xffffffffffff time=3 kernel=7
kend 7
records 7 data 4 kernels 1
bytes 392 compressed 0
END
	diff -u "$T/want" "$T/got"
}

@test "stream: a newer minor version, larger records and unknown optional flags are read" {
	gc-mkbad good-future >"$T/s"
	run_status 0 gc-mkbad read <"$T/s"
	expect_eq "$output" "records 7 data 2 kernels 1"
	gc-mkbad dump <"$T/s" >"$T/got"
	expect_eq "$(head -n 1 "$T/got")" \
		"header kind=accesses version=1.9 record_size=40 required=0x0 optional=0x80000003"
	expect_eq "$(tail -n 1 "$T/got")" "bytes 424 compressed 0"
}

@test "stream: opcode records (1.3) are read, dumped, and restored by the writer byte for byte" {
	# gc-mkbad encodes them by hand: LDG.E.64 at 0x10 (one record), a
	# 31-byte opcode at 0x20 (24 bytes, then 7 in a continuation record)
	gc-mkbad good-opcodes >"$T/s"
	gc-mkbad dump <"$T/s" >"$T/d"
	expect_eq "$(head -n 1 "$T/d")" \
		"header kind=accesses version=1.3 record_size=32 required=0x1 optional=0x0"
	expect_eq "$(sed -n '/^opcode/,/^records/p' "$T/d")" "opcode pc=0x10 LDG.E.64
opcode pc=0x20 RED.E.ADD.F32.FTZ.RN.STRONG.GPU
kend 1
records 10 data 2 kernels 1"
	gc-stats --dump "$T/s" >"$T/csv"
	expect_eq "$(grep ',opcode,' "$T/csv")" '1,,,,,0x10,,opcode,,,,,,,,"LDG.E.64",
1,,,,,0x20,,opcode,,,,,,,,"RED.E.ADD.F32.FTZ.RN.STRONG.GPU",'
	# the restore writes them through the library's writer
	gc-import "$T/csv" | cmp - "$T/s"
	# an opcode line without the flag in the dump's header is refused
	sed 's/^# required 0x1$/# required 0x0/' "$T/csv" >"$T/noflag.csv"
	run_status 1 gc-import "$T/noflag.csv"
	expect_match "$output" "noflag.csv:[0-9]+: an opcode line, but the header's required flags lack 0x1 \(opcodes\)"
}

@test "stream: the writer's bytes match the layout encoded by hand in gc-mkbad" {
	gc-mkbad good-access >"$T/w"
	gc-mkbad --hand good-access >"$T/h"
	cmp "$T/w" "$T/h"
	gc-mkbad good-request >"$T/w"
	gc-mkbad --hand good-request >"$T/h"
	cmp "$T/w" "$T/h"
}

@test "stream: gzip of a valid stream reads identically" {
	local g
	for g in good-access good-request; do
		gc-mkbad "$g" >"$T/s"
		gc-mkbad dump <"$T/s" >"$T/plain"
		gzip -c <"$T/s" | gc-mkbad dump >"$T/gz"
		expect_same <(sed '$d' "$T/plain") <(sed '$d' "$T/gz") "$g"
		expect_match "$(tail -n 1 "$T/gz")" "^bytes [0-9]+ compressed 1$"
		gzip -9 -c <"$T/s" | gc-mkbad read >"$T/gz9"
		diff -u <(sed -n '/^records/p' "$T/plain") "$T/gz9"
	done
}

@test "stream: the writer's own gzip output (-z) reads identically" {
	gc-mkbad good-access >"$T/s"
	gc-mkbad -z good-access >"$T/s.gz"
	expect_eq "$(od -An -tx1 -N2 "$T/s.gz" | tr -d ' ')" "1f8b" "gzip magic"
	gzip -dc <"$T/s.gz" | cmp - "$T/s"
	expect_same <(gc-mkbad dump <"$T/s" | sed '$d') <(gc-mkbad dump <"$T/s.gz" | sed '$d')
}

@test "stream: concatenated gzip members read as one stream" {
	gc-mkbad good-access >"$T/s"
	# Cut inside the header and inside a record; one member is empty.
	{
		head -c 50 "$T/s" | gzip -c
		head -c 333 "$T/s" | tail -c +51 | gzip -c
		printf '' | gzip -c
		tail -c +334 "$T/s" | gzip -c
	} >"$T/multi.gz"
	run_status 0 gc-mkbad read <"$T/multi.gz"
	expect_eq "$output" "records 19 data 7 kernels 2"
	expect_same <(gc-mkbad dump <"$T/s" | sed '$d') <(gc-mkbad dump <"$T/multi.gz" | sed '$d')
}

@test "stream: xz input reads identically" {
	command -v xz >/dev/null || skip "xz is not installed"
	gc-mkbad good-access >"$T/s"
	xz -0 -c <"$T/s" >"$T/s.xz"
	expect_same <(gc-mkbad dump <"$T/s" | sed '$d') <(gc-mkbad dump <"$T/s.xz" | sed '$d')
}

@test "stream: a pipe that delivers a few bytes at a time" {
	local i size
	gc-mkbad good-access >"$T/s"
	size=$(wc -c <"$T/s")
	for ((i = 0; i < size; i += 37)); do
		tail -c +$((i + 1)) "$T/s" | head -c 37
		sleep 0.01
	done | gc-mkbad dump >"$T/got"
	diff -u <(gc-mkbad dump <"$T/s") "$T/got"
}

@test "stream: the writer refuses a data record outside a kernel" {
	sh_status 1 "test-lib write-bad outside"
	expect_eq "$(cat "$T/err")" \
		"test-lib: stdout: record 5: data record outside a kernel (a bug in this tool)"
	[ ! -s "$T/out" ]
}

@test "stream: the writer refuses a timestamp going backwards" {
	sh_status 1 "test-lib write-bad backwards"
	expect_eq "$(cat "$T/err")" \
		"test-lib: stdout: record 4: timestamp 99 is earlier than the previous record's 100 (a bug in this tool)"
	[ ! -s "$T/out" ]
}

@test "stream: a stream written to stdout through gc_open_output reads back" {
	test-lib write-stream >"$T/s"
	run_status 0 gc-mkbad read <"$T/s"
	expect_eq "$output" "records 4 data 1 kernels 1"
	test-lib write-stream -z >"$T/s.gz"
	run_status 0 gc-mkbad read <"$T/s.gz"
	expect_eq "$output" "records 4 data 1 kernels 1"
	gc-mkbad dump <"$T/s" >"$T/d"
	grep -qx 'text provenance=test-lib write-stream' "$T/d"
}

@test "stream: reading to a full disk fails loudly" {
	gc-mkbad good-access >"$T/s"
	sh_status 1 "gc-mkbad read <'$T/s' >/dev/full"
	expect_eq "$(cat "$T/err")" "gc-read-test: stdout: write error: No space left on device"
}

@test "stream: reserved flag and outcome bits are carried through, not refused" {
	# gc-stream(5): bits a later minor version may define are read back
	# as they are, so a stage copies them; a 1.0 writer accepts them.
	gc-mkbad good-request >"$T/s"
	local hs
	hs=$(od -An -tu4 -j12 -N4 "$T/s" | tr -d ' ')
	# The first data record follows the kernel begin and its name record.
	printf '\360\207' | dd of="$T/s" bs=1 seek=$((hs + 64 + 1)) conv=notrunc status=none
	run_status 0 gc-mkbad dump <"$T/s"
	expect_match "${lines[6]}" '^load global flags=15 outcome=0x87 mask=0x0f size=128 '
	run_status 0 gc-mkbad read <"$T/s"
	expect_eq "$output" "records 7 data 4 kernels 1"
}
