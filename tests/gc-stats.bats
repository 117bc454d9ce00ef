#!/usr/bin/env bats
# gc-stats: the report, the JSON object, the breakdowns and the dump.
#
# The test streams are hand-written dumps (tests/fixtures/csv) restored by
# gc-import, so every number asserted here can be worked out from the
# fixture by hand:
#   access.csv   two kernels, 7 accesses: one straddles a line boundary,
#                one has a timestamp above 2^32
#   request.csv  an annotated request stream: results, classes, write-back,
#                bypass, two kernels
#   names.csv    extreme fields, names with commas, quotes and a newline
#   dram.csv     DRAM transactions
#   empty.csv    no kernel at all

load helpers

# mk NAME: restore tests/fixtures/csv/NAME.csv into $T/NAME.gcs.
mk() {
	gc-import "$FIX/csv/$1.csv" >"$T/$1.gcs"
}

@test "gc-stats: the mandatory command-line cases" {
	common_cli_cases gc-stats --line
}

@test "gc-stats: --help and the manual list the same options" {
	help_matches_man gc-stats
}

@test "gc-stats: report of an access stream (golden)" {
	mk access
	sh_status 0 "gc-stats -v <'$T/access.gcs'"
	golden gc-stats-access.txt "$T/out"
	[ ! -s "$T/err" ]
}

@test "gc-stats: report of an annotated request stream with --by pc (golden)" {
	mk request
	sh_status 0 "gc-stats -v --by pc <'$T/request.gcs'"
	golden gc-stats-request-by-pc.txt "$T/out"
}

@test "gc-stats: JSON of an annotated request stream with --by warp (golden)" {
	mk request
	sh_status 0 "gc-stats --json --by warp <'$T/request.gcs'"
	golden gc-stats-request-by-warp.json "$T/out"
}

@test "gc-stats: --dump of an access stream (golden, and equal to its source)" {
	mk access
	sh_status 0 "gc-stats --dump '$T/access.gcs'"
	golden gc-stats-dump-access.csv "$T/out"
	cmp "$T/out" "$FIX/csv/access.csv"
}

@test "gc-stats: access counts: records, operations, bytes, lines across a boundary, time" {
	mk access
	gc-stats --json "$T/access.gcs" >"$T/j"
	expect_eq "$(jv kind "$T/j")" accesses kind
	expect_eq "$(jv kernel_count "$T/j")" 2 kernel_count
	expect_eq "$(jv records "$T/j")" 7 records
	expect_eq "$(jv loads "$T/j")" 4 loads
	expect_eq "$(jv stores "$T/j")" 2 stores
	expect_eq "$(jv atomics "$T/j")" 1 atomics
	# 4+4+4+8+4 + 4+16
	expect_eq "$(jv bytes "$T/j")" 44 bytes
	# 0x1000 (line 0x20), 0x107e..0x1081 (lines 0x20 and 0x21), 0x2000 (0x40), 0x40 (0)
	expect_eq "$(jv distinct_lines "$T/j")" 4 distinct_lines
	# sectors 0x80, 0x83, 0x84, 0x100, 0x2
	expect_eq "$(jv distinct_sectors "$T/j")" 5 distinct_sectors
	expect_eq "$(jv time_first "$T/j")" 100 time_first
	expect_eq "$(jv time_last "$T/j")" 4294967400 time_last
	expect_eq "$(jv annotated "$T/j")" false annotated
	expect_eq "$(jv stream_records "$T/j")" 18 stream_records
	expect_eq "$(jv stream_bytes "$T/j")" 672 stream_bytes
	grep -q '^    "global": 5,$' "$T/j"
	grep -q '^    "local": 1,$' "$T/j"
	grep -q '^    "shared": 1,$' "$T/j"
	run_status 1 grep -q '"hits"' "$T/j"
	# per kernel: records 5 and 2
	[ "$(grep -c '^      "records": ' "$T/j")" -eq 2 ]
	grep -q '^      "records": 5$' "$T/j"
	grep -q '^      "records": 2$' "$T/j"
	grep -q '^      "name": "vecadd(float\*, float const\*, int)",$' "$T/j"
	grep -q '^        "mem_insts": 6$' "$T/j"
}

@test "gc-stats: line and sector sizes: defaults, header keys, --line and --sector" {
	mk access
	gc-stats --json "$T/access.gcs" >"$T/j"
	expect_eq "$(jv line_size "$T/j")" 128
	expect_eq "$(jv sector_size "$T/j")" 32
	gc-stats --json --line 4K "$T/access.gcs" >"$T/j"
	expect_eq "$(jv distinct_lines "$T/j")" 3 "lines of 4 KiB"
	expect_eq "$(jv distinct_sectors "$T/j")" 5 "sectors with 4 KiB lines"
	gc-stats --json --line 32 --sector 32 "$T/access.gcs" >"$T/j"
	expect_eq "$(jv distinct_lines "$T/j")" 5
	expect_eq "$(jv distinct_sectors "$T/j")" 5
	# more than 64 sectors a line
	gc-stats --json --line 128 --sector 1 "$T/access.gcs" >"$T/j"
	expect_eq "$(jv distinct_lines "$T/j")" 4
	expect_eq "$(jv distinct_sectors "$T/j")" 36
	# the header's keys, and --line over them
	sed 's/^# header gpu=test$/&\n# header line_size=4096\n# header sector_size=8/' \
		"$FIX/csv/access.csv" | gc-import >"$T/h.gcs"
	gc-stats --json "$T/h.gcs" >"$T/j"
	expect_eq "$(jv line_size "$T/j")" 4096
	expect_eq "$(jv sector_size "$T/j")" 8
	expect_eq "$(jv distinct_lines "$T/j")" 3
	expect_eq "$(jv distinct_sectors "$T/j")" 7
	gc-stats --json --line 128 "$T/h.gcs" >"$T/j"
	expect_eq "$(jv distinct_lines "$T/j")" 4
	sed 's/^# header gpu=test$/&\n# header line_size=96/' "$FIX/csv/access.csv" |
		gc-import >"$T/bad.gcs"
	sh_status 1 "gc-stats '$T/bad.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/bad.gcs: header key line_size: '96' is not a power of two (--line N overrides it)"
	[ ! -s "$T/out" ]
	sh_status 0 "gc-stats --line 64 '$T/bad.gcs'"
}

@test "gc-stats: request counts: bytes, lines and the sectors of the masks" {
	mk request
	gc-stats --json "$T/request.gcs" >"$T/j"
	expect_eq "$(jv kind "$T/j")" requests
	expect_eq "$(jv records "$T/j")" 10
	expect_eq "$(jv loads "$T/j")" 8
	expect_eq "$(jv stores "$T/j")" 1
	expect_eq "$(jv atomics "$T/j")" 1
	expect_eq "$(jv bytes "$T/j")" 740
	# lines 0x10000 0x10080 0x20000 0x30000 0x40000; sectors 4+3+1+4+2
	expect_eq "$(jv distinct_lines "$T/j")" 5
	expect_eq "$(jv distinct_sectors "$T/j")" 14
	expect_eq "$(jv time_first "$T/j")" 10
	expect_eq "$(jv time_last "$T/j")" 8589934592
}

@test "gc-stats: a request whose mask holds no sector of its own line still counts that line, once" {
	# 128-byte lines, 32-byte sectors: each of the first two requests
	# starts at sector 3 of its line (0x50000, 0x60000) and its mask holds
	# only the next sector, the next line's first (0x50080, 0x60080); the
	# third touches 0x60000's first sector.  Lines 0x50000 0x50080
	# 0x60000 0x60080 (0x60000 not twice); sectors 0x50080 0x60080 0x60000.
	cat >"$T/bare.csv" <<-'EOF'
		# gc-stats dump 1
		# kind requests
		# version 1.0
		# record_size 32
		# required 0x0
		# optional 0x0
		# header line_size=128
		# header sector_size=32
		kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info
		1,,,,,,,kbegin,,,,,,,,"k",grid=1x1x1 block=32x1x1 regs=8 shmem=0
		1,0,0,0,,0x100,0,load,global,0x50060,32,0x2,10,,0,,
		1,0,0,0,,0x100,1,load,global,0x60060,32,0x2,11,,0,,
		1,0,0,0,,0x100,2,load,global,0x60000,32,0x1,12,,0,,
		1,,,,,,,kend,,,,,,,,,records=3
		,,,,,,,end,,,,,,,,,records=6 data=3
	EOF
	gc-import "$T/bare.csv" | gc-stats --json >"$T/j"
	expect_eq "$(jv distinct_lines "$T/j")" 4
	expect_eq "$(jv distinct_sectors "$T/j")" 3
}

@test "gc-stats: annotated counts: hits, misses, results, classes, write-backs, bypasses" {
	mk request
	gc-stats --json "$T/request.gcs" >"$T/j"
	expect_eq "$(jv annotated "$T/j")" true
	expect_eq "$(jv hits "$T/j")" 2
	expect_eq "$(jv misses "$T/j")" 7
	expect_eq "$(jv writebacks "$T/j")" 1
	expect_eq "$(jv bypasses "$T/j")" 1
	tr -d ' \n' <"$T/j" >"$T/flat"
	grep -q '"results":{"none":1,"hit":2,"sector_miss":1,"miss":6}' "$T/flat"
	grep -q '"classes":{"compulsory":3,"capacity":1,"conflict":1,"latency":1,"mshr":1,"partial_write":0}' "$T/flat"
	gc-stats "$T/request.gcs" >"$T/r"
	grep -q '^  sector-miss     1$' "$T/r"
	grep -q '^  compulsory      3$' "$T/r"
	grep -q '^write-backs       1$' "$T/r"
	# an outcome makes a stream annotated even without the header flag
	sed 's/^# optional 0x3$/# optional 0x0/' "$FIX/csv/request.csv" | gc-import >"$T/n.gcs"
	gc-stats --json "$T/n.gcs" >"$T/j"
	expect_eq "$(jv optional "$T/j")" 0
	expect_eq "$(jv annotated "$T/j")" true
	expect_eq "$(jv hits "$T/j")" 2
}

@test "gc-stats: --by sm, kernel, launch, pc and warp" {
	mk request
	gc-stats --by sm "$T/request.gcs" | sed -n '/^by sm$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by sm
	   sm  records  loads  stores  atomics  bytes  hits  misses
	    0        5      4       1        0    416     1       4
	    1        2      2       0        0    160     1       1
	    2        2      1       0        1    132     0       1
	    5        1      1       0        0     32     0       1
	EOF
	diff -u "$T/want" "$T/r"
	# by kernel function (name; kernel 8 has none, "-"), names in byte order
	gc-stats --by kernel "$T/request.gcs" | sed -n '/^by kernel$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by kernel
	   records  loads  stores  atomics  bytes  hits  misses  kernel
	         1      1       0        0     32     0       1  -
	         9      7       1        1    708     2       6  void gemm<float, 128>(float const*, float*, "tile")
	EOF
	diff -u "$T/want" "$T/r"
	gc-stats --by launch "$T/request.gcs" | sed -n '/^by launch$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by launch
	   launch  records  loads  stores  atomics  bytes  hits  misses  kernel
	        7        9      7       1        1    708     2       6  void gemm<float, 128>(float const*, float*, "tile")
	        8        1      1       0        0     32     0       1  -
	EOF
	diff -u "$T/want" "$T/r"
	gc-stats --by pc --by launch "$T/request.gcs" | grep -E '^ +7 +0x100 ' >"$T/r"
	expect_eq "$(tr -s ' ' <"$T/r")" ' 7 0x100 - 5 5 0 0 576 2 3 void gemm<float, 128>(float const*, float*, "tile")'
	gc-stats --by pc "$T/request.gcs" | grep -E '^ +0x100 .* void gemm' >"$T/r"
	expect_eq "$(tr -s ' ' <"$T/r")" ' 0x100 - 5 5 0 0 576 2 3 void gemm<float, 128>(float const*, float*, "tile")'
	# pc 0x100 in kernel 8 is another instruction
	gc-stats --by pc "$T/request.gcs" | grep -cE '0x100 ' >"$T/r"
	expect_eq "$(cat "$T/r")" 2
	gc-stats --by pc --by launch "$T/request.gcs" | grep -cE '0x100 ' >"$T/r"
	expect_eq "$(cat "$T/r")" 2
	gc-stats --json --by warp "$T/request.gcs" | tr -d ' \n' >"$T/flat"
	grep -q '"by":"warp","breakdown":\[{"kernel":7,"block":0,"warp":0,"records":2,' "$T/flat"
	grep -q '{"kernel":7,"block":0,"warp":1,"records":3,"loads":3,"stores":0,"atomics":0,"bytes":256,"hits":1,"misses":2}' "$T/flat"
	# not annotated: no hit and miss columns
	mk access
	gc-stats --by warp "$T/access.gcs" | sed -n '/^by warp$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by warp
	   kernel  block  warp  records  loads  stores  atomics  bytes
	        1      0     0        2      2       0        0      8
	        1      0     1        1      1       0        0      4
	        1      1     0        2      0       1        1     12
	        2      0     0        2      1       1        0     20
	EOF
	diff -u "$T/want" "$T/r"
}

@test "gc-stats: a kernel id that occurs twice has its --by rows added" {
	sed -e 's/^8,/7,/' "$FIX/csv/request.csv" | gc-import >"$T/twice.gcs"
	gc-stats --by pc --by launch "$T/twice.gcs" | grep -E '^ +7 +0x100 ' | tr -s ' ' >"$T/r"
	expect_eq "$(cat "$T/r")" ' 7 0x100 - 6 6 0 0 608 2 4 void gemm<float, 128>(float const*, float*, "tile")'
	# by kernel function the two launches (one named, one not) stay apart
	gc-stats --by pc "$T/twice.gcs" | grep -E '^ +0x100 ' | tr -s ' ' >"$T/r"
	expect_eq "$(cat "$T/r")" ' 0x100 - 1 1 0 0 32 0 1 -
 0x100 - 5 5 0 0 576 2 3 void gemm<float, 128>(float const*, float*, "tile")'
	gc-stats --json "$T/twice.gcs" >"$T/j"
	expect_eq "$(jv kernel_count "$T/j")" 2 "launches"
}

@test "gc-stats: --by with an unknown key is a usage error" {
	mk access
	sh_status 2 "gc-stats --by lane '$T/access.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --by: 'lane' is not kernel, launch, sm, pc or warp"
	expect_match "$(cat "$T/err")" "Try 'gc-stats --help'"
	[ ! -s "$T/out" ]
}

@test "gc-stats: other usage errors" {
	mk access
	sh_status 2 "gc-stats --json --dump '$T/access.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --json and --dump exclude each other"
	[ ! -s "$T/out" ]
	sh_status 2 "gc-stats --line 96 '$T/access.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --line: 96 is not a power of two"
	sh_status 2 "gc-stats --sector 64 --line 32 '$T/access.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: the sector size 64 is larger than the line size 32"
	[ ! -s "$T/out" ]
	# several streams are reported (tests/gc-stats-files.bats), but one dump
	sh_status 2 "gc-stats --dump '$T/access.gcs' '$T/access.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --dump takes one stream, not 2"
	[ ! -s "$T/out" ]
}

@test "gc-stats: stdin, a file and - give the same report" {
	mk request
	gc-stats --by sm "$T/request.gcs" >"$T/file"
	gc-stats --by sm <"$T/request.gcs" >"$T/stdin"
	gc-stats --by sm - <"$T/request.gcs" >"$T/dash"
	expect_eq "$(head -1 "$T/file")" "input             $T/request.gcs"
	expect_eq "$(head -1 "$T/stdin")" "input             stdin"
	cmp "$T/stdin" "$T/dash"
	diff <(tail -n +2 "$T/file") <(tail -n +2 "$T/stdin")
	gc-stats --dump "$T/request.gcs" >"$T/d1"
	gc-stats --dump <"$T/request.gcs" >"$T/d2"
	cmp "$T/d1" "$T/d2"
}

@test "gc-stats: gzip input gives the same output as plain" {
	mk request
	gzip -c "$T/request.gcs" >"$T/request.gcs.gz"
	gc-stats --json --by warp <"$T/request.gcs" >"$T/plain"
	gc-stats --json --by warp <"$T/request.gcs.gz" >"$T/gz"
	cmp "$T/plain" "$T/gz"
	gc-stats --dump "$T/request.gcs.gz" | cmp - "$FIX/csv/request.csv"
}

@test "gc-stats: a truncated stream: the reader's message, exit 1, empty stdout" {
	mk access
	head -c 600 "$T/access.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-stats <'$T/cut.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: stdin: record 16 (offset 576): truncated record (24 of 32 bytes)"
	[ ! -s "$T/out" ]
	sh_status 1 "gc-stats --json '$T/cut.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/cut.gcs: record 16 (offset 576): truncated record (24 of 32 bytes)"
	[ ! -s "$T/out" ]
	# cut at a record boundary: the end-of-stream record is missing
	head -c 640 "$T/access.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-stats --by sm <'$T/cut.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: stdin: record 18 (offset 640): missing end-of-stream record (upstream stage failed or output was truncated)"
	[ ! -s "$T/out" ]
	# neither --stats nor -o is written
	sh_status 1 "gc-stats --stats '$T/s.json' -o '$T/o.txt' <'$T/cut.gcs'"
	[ ! -e "$T/s.json" ]
	[ ! -e "$T/o.txt" ]
}

@test "gc-stats: a truncated stream dumps what it read, without the end line" {
	mk access
	head -c 640 "$T/access.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-stats --dump <'$T/cut.gcs'"
	expect_match "$(cat "$T/err")" "missing end-of-stream record"
	head -n 20 "$FIX/csv/access.csv" | cmp - "$T/out"
	cp "$T/out" "$T/dump"
	sh_status 1 "gc-import <'$T/dump'"
	expect_eq "$(cat "$T/err")" "gc-import: stdin:20: truncated dump: no end line"
}

@test "gc-stats: not a stream" {
	sh_status 1 "gc-stats '$FIX/csv/access.csv'"
	expect_eq "$(cat "$T/err")" "gc-stats: $FIX/csv/access.csv: bad magic: this looks like text, not a gc stream (a trace file? gc-import reads traces)"
	[ ! -s "$T/out" ]
	sh_status 1 "gc-stats '$T/no-such-file'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/no-such-file: No such file or directory"
}

@test "gc-stats: a full disk is an error (report, JSON and dump)" {
	mk access
	for opt in "" --json --dump; do
		sh_status 1 "gc-stats $opt '$T/access.gcs' >/dev/full"
		expect_eq "$(cat "$T/err")" "gc-stats: stdout: write error: No space left on device"
	done
}

@test "gc-stats: --stats writes the JSON object, -o the output, -v the report on stderr" {
	mk request
	gc-stats --json "$T/request.gcs" >"$T/json"
	sh_status 0 "gc-stats --stats '$T/s.json' --dump -v '$T/request.gcs'"
	cmp "$T/s.json" "$T/json"
	cmp "$T/out" "$FIX/csv/request.csv"
	gc-stats "$T/request.gcs" >"$T/report"
	gc-stats -v "$T/request.gcs" >"$T/report-v"
	cmp "$T/err" "$T/report-v"
	sh_status 0 "gc-stats -o '$T/o.txt' --stats '$T/s2.json' '$T/request.gcs'"
	[ ! -s "$T/out" ]
	cmp "$T/o.txt" "$T/report"
	cmp "$T/s2.json" "$T/json"
	# without -v, stderr stays quiet
	sh_status 0 "gc-stats --dump '$T/request.gcs'"
	[ ! -s "$T/err" ]
}

@test "gc-stats: DRAM transactions" {
	mk dram
	gc-stats --json "$T/dram.gcs" >"$T/j"
	expect_eq "$(jv kind "$T/j")" dram
	expect_eq "$(jv bytes "$T/j")" 96
	# 0xffffffffffff (the last line of 48 bits) and 0x100 with two sectors
	expect_eq "$(jv distinct_lines "$T/j")" 2
	expect_eq "$(jv distinct_sectors "$T/j")" 3
	gc-stats "$T/dram.gcs" >"$T/r"
	grep -q '^kind              DRAM transactions$' "$T/r"
}

@test "gc-stats: a stream without kernels" {
	mk empty
	gc-stats --json "$T/empty.gcs" >"$T/j"
	expect_eq "$(jv kernel_count "$T/j")" 0
	expect_eq "$(jv records "$T/j")" 0
	expect_eq "$(jv time_first "$T/j")" null
	expect_eq "$(jv annotated "$T/j")" true
	expect_eq "$(jv hits "$T/j")" 0
	gc-stats "$T/empty.gcs" >"$T/r"
	grep -q '^time              (no records)$' "$T/r"
	grep -q '^kernels           0$' "$T/r"
	gc-stats --dump "$T/empty.gcs" | cmp - "$FIX/csv/empty.csv"
}

@test "gc-stats: extreme field values and names in the report and JSON" {
	mk names
	gc-stats -v "$T/names.gcs" >"$T/r"
	grep -qF '   4  1x1x1                   1x1x1        0           0        1  a name\non two lines, with "quotes"' "$T/r"
	grep -q '^time              first 4294967295, last 18446744073709551615, span 18446744069414584320$' "$T/r"
	grep -q '^header            note=a value with = signs, commas and  two spaces $' "$T/r"
	gc-stats --json "$T/names.gcs" >"$T/j"
	grep -qF '"name": "a name\non two lines, with \"quotes\"",' "$T/j"
	grep -q '^        "attr.65535": 2,$' "$T/j"
	expect_eq "$(jv bytes "$T/j")" 264
}

@test "gc-stats: the report counts the header keys on one line; -v lists them" {
	gc-gen -n 64 matmul | gc-sched >"$T/s.gcs"
	# the keys but provenance, counted from the dump's header lines
	n=$(gc-stats --dump "$T/s.gcs" | grep '^# header ' | grep -vc '^# header provenance=')
	[ "$n" -gt 50 ]
	gc-stats "$T/s.gcs" >"$T/r"
	expect_eq "$(grep -c '^header ' "$T/r")" 1
	grep -q "^header            $n keys (gc-stats -v lists them)\$" "$T/r"
	expect_eq "$(grep -c '=' "$T/r")" 0 "key=value lines"
	expect_eq "$(sed -n 1p "$T/r")" "input             $T/s.gcs"
	gc-stats -v "$T/s.gcs" >"$T/v"
	grep -q '^header            source_format=gc-gen$' "$T/v"
	expect_eq "$(grep -c '^                  [a-z_.0-9]*=' "$T/v")" "$((n - 1))"
	# the rest of the report is the same
	expect_eq "$(grep -v '=' "$T/v" | grep -v '^header')" "$(grep -v '^header' "$T/r")"
}

@test "gc-stats: distinct sectors and lines of records alternating among three sector groups" {
	# groups of 2 KiB at 0x10000, 0x20000, 0x30000 in turn (the fast
	# loop keeps two open), one access across 0x10800, then two stores of
	# 64 bytes (two sectors each)
	{
		sed -n "1,9p" "$FIX/csv/access.csv"
		echo '1,,,,,,,kbegin,,,,,,,,"three",grid=1x1x1 block=32x1x1 regs=8 shmem=0'
		i=0
		for a in 0x10000 0x20000 0x10040 0x30000 0x20020 0x10080 0x107fe 0x30060; do
			echo "1,0,0,0,$i,0x10,0,load,global,$a,4,,100,,0,,"
			i=$((i + 1))
		done
		echo '1,0,0,0,0,0x20,1,store,global,0x20040,64,,101,,0,,'
		echo '1,0,0,0,1,0x20,1,store,global,0x30100,64,,101,,0,,'
		echo '1,,,,,,,kend,,,,,,,,,records=10'
		echo ',,,,,,,end,,,,,,,,,records=13 data=10'
	} | gc-import >"$T/three.gcs"
	gc-stats --json "$T/three.gcs" >"$T/j"
	# sectors 0, 2, 4, 63 of 0x10000's group, 0 of the next; 0, 1, 2, 3
	# of 0x20000's; 0, 3, 8, 9 of 0x30000's
	expect_eq "$(jv distinct_sectors "$T/j")" 13 distinct_sectors
	# lines 0x200, 0x201, 0x20f, 0x210, 0x400, 0x600, 0x602
	expect_eq "$(jv distinct_lines "$T/j")" 7 distinct_lines
	# the per-record path (--by) counts the same
	gc-stats --json --by pc "$T/three.gcs" >"$T/b"
	expect_eq "$(jv distinct_sectors "$T/b")" 13 "distinct_sectors --by pc"
	expect_eq "$(jv distinct_lines "$T/b")" 7 "distinct_lines --by pc"
}

@test "gc-stats: records counted four at a time stop where one at a time does (a clock, an op, a group)" {
	# gc-gen copy -n 64: a warp's 32 loads of 4 bytes, consecutive, then
	# its stores; the data records from the header and kernel records on
	# (data record i at hs + 64 + 32 i).  Each change is inside a block of
	# four after a run's first record (records 1-4, 5-8, ...).
	gc-gen copy -n 64 >"$T/c.gcs"
	local hs
	hs=$(stream_hsize "$T/c.gcs")
	# data record 6's clock 5: record 7's 0 is out of order (stream record 10)
	cp "$T/c.gcs" "$T/t.gcs"
	printf '\005' | dd of="$T/t.gcs" bs=1 seek=$((hs + 64 + 6 * 32 + 20)) conv=notrunc status=none
	run_status 1 gc-stats "$T/t.gcs"
	expect_eq "$output" "gc-stats: $T/t.gcs: record 10 (offset $((hs + 64 + 7 * 32))): timestamp 0 is earlier than the previous record's 5"
	# data record 10 a store: one load less, one store more, the same sectors
	cp "$T/c.gcs" "$T/o.gcs"
	printf '\002' | dd of="$T/o.gcs" bs=1 seek=$((hs + 64 + 10 * 32)) conv=notrunc status=none
	gc-stats --json "$T/o.gcs" >"$T/j"
	expect_eq "$(jv loads "$T/j" | head -n 1)" 63 loads
	expect_eq "$(jv stores "$T/j" | head -n 1)" 65 stores
	expect_eq "$(jv distinct_sectors "$T/j")" 16 distinct_sectors
	# data record 15 at 0x1010003c (bit 20 set, another sector group): one
	# sector and one line more
	cp "$T/c.gcs" "$T/a.gcs"
	printf '\020' | dd of="$T/a.gcs" bs=1 seek=$((hs + 64 + 15 * 32 + 26)) conv=notrunc status=none
	gc-stats --json "$T/a.gcs" >"$T/j"
	expect_eq "$(jv distinct_sectors "$T/j")" 17 distinct_sectors
	expect_eq "$(jv distinct_lines "$T/j")" 5 distinct_lines
}

@test "gc-stats: four at a time and one at a time (GC_STATS_SCALAR) count the same" {
	# gc-gen kernels whose access runs are long (copy, transpose) or
	# broken every few records (gather), and the Accel-Sim BFS trace; a
	# clock out of order inside a block of four gives one message either way
	gc-gen copy -n 4096 >"$T/c.gcs"
	gc-gen transpose -n 128 >"$T/t.gcs"
	gc-gen gather -n 64K >"$T/g.gcs"
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernel-1.traceg.xz" >"$T/b.gcs"
	for f in c t g b; do
		gc-stats --json "$T/$f.gcs" >"$T/$f.vec"
		GC_STATS_SCALAR=1 gc-stats --json "$T/$f.gcs" >"$T/$f.one"
		expect_same "$T/$f.vec" "$T/$f.one"
	done
	expect_eq "$(jv distinct_sectors "$T/c.one")" 1024 "copy's distinct sectors"
	local hs
	hs=$(stream_hsize "$T/c.gcs")
	printf '\005' | dd of="$T/c.gcs" bs=1 seek=$((hs + 64 + 6 * 32 + 20)) conv=notrunc status=none
	run_status 1 env GC_STATS_SCALAR=1 gc-stats "$T/c.gcs"
	expect_eq "$output" "gc-stats: $T/c.gcs: record 10 (offset $((hs + 64 + 7 * 32))): timestamp 0 is earlier than the previous record's 5"
}
