#!/usr/bin/env bats
# gc-import --format csv: the restore of a gc-stats dump.  A dump restores
# its stream byte for byte; every malformed line is reported with the file,
# the line and the column; a dump cut short is an error.

load helpers

# types FILE: the type byte of every record, one a line.
types() {
	od -An -tx1 -v -w32 -j "$(stream_hsize "$1")" "$1" | awk '{ print $1 }'
}

# bad_line SED MESSAGE [LINE]: the access fixture edited by SED is refused
# with "gc-import: bad.csv:LINE: MESSAGE" (LINE: 12 unless given), exit 1,
# nothing on stdout.
bad_line() {
	# (gc-import run from $T by cd and back, its stderr read by slurp:
	# no subshell, sh or cat)
	local st=0 back=$PWD
	sed "$1" "$FIX/csv/access.csv" >"$T/bad.csv" || return 1
	cd "$T" || return 1
	gc-import bad.csv >"$T/out" 2>"$T/err" || st=$?
	cd "$back" || return 1
	refused "$1" "$st" "gc-import: bad.csv:${3:-12}: $2"
}

@test "gc-import: --help and the manual list the same options" {
	help_matches_man gc-import
}

@test "csv: an access stream round trip: dump, restore, identical" {
	gc-import "$FIX/csv/access.csv" >"$T/a.gcs"
	gc-stats --dump "$T/a.gcs" >"$T/a.csv"
	cmp "$T/a.csv" "$FIX/csv/access.csv"
	gc-import "$T/a.csv" | cmp - "$T/a.gcs"
	gc-import --format csv <"$T/a.csv" | cmp - "$T/a.gcs"
	gc-stats --dump "$T/a.gcs" | gc-import -f csv - | cmp - "$T/a.gcs"
}

@test "csv: a request stream restores as requests, header and flags unchanged" {
	gc-import "$FIX/csv/request.csv" >"$T/r.gcs"
	gc-stats --dump "$T/r.gcs" | gc-import | cmp - "$T/r.gcs"
	gc-stats --json "$T/r.gcs" >"$T/j"
	grep -q '^  "kind": "requests",$' "$T/j"
	grep -q '^  "optional": 3,$' "$T/j"
	# the provenance is the dump's: gc-import adds nothing, no source_format
	tr -d '\n' <"$T/j" | grep -q '"header": {    "provenance": "gc-import -f csv x.csv | gc-coalesce | gc-l1 --annotate",    "line_size": "128",    "sector_size": "32"  },'
	# the kind byte (offset 16) and the optional flags (offset 24)
	expect_eq "$(od -An -tu2 -j16 -N2 "$T/r.gcs" | tr -d ' ')" 2 kind
	expect_eq "$(od -An -tu4 -j24 -N4 "$T/r.gcs" | tr -d ' ')" 3 optional
}

@test "csv: DRAM transactions and a stream without kernels round trip" {
	for f in dram empty; do
		gc-import "$FIX/csv/$f.csv" >"$T/$f.gcs"
		gc-stats --dump "$T/$f.gcs" | cmp - "$FIX/csv/$f.csv"
		gc-stats --dump "$T/$f.gcs" | gc-import | cmp - "$T/$f.gcs"
	done
	expect_eq "$(od -An -tu2 -j16 -N2 "$T/dram.gcs" | tr -d ' ')" 3 kind
}

@test "csv: multi-chunk names with commas, quotes, spaces and a newline; extreme values" {
	gc-import "$FIX/csv/names.csv" >"$T/n.gcs"
	gc-stats --dump "$T/n.gcs" | cmp - "$FIX/csv/names.csv"
	gc-stats --dump "$T/n.gcs" | gc-import | cmp - "$T/n.gcs"
	# kernel 3: 9 attribute records and 94 name bytes in 4 name records
	types "$T/n.gcs" >"$T/t"
	expect_eq "$(grep -c '^81$' "$T/t")" 9 "attribute records"
	expect_eq "$(grep -c '^82$' "$T/t")" 6 "name records"
	gc-stats --json "$T/n.gcs" >"$T/j"
	grep -qF '"name": "void cutlass::Kernel<cutlass::gemm::Gemm<float, 128, \"tn\">>(cutlass::gemm::Params const&, int)",' "$T/j"
	# the attributes in their order, a repeated key too
	tr -d ' \n' <"$T/j" | grep -q '"attributes":{"insts":18446744073709551615,"mem_insts":0,"stream":7,"binary":90,"shmem_base":140733193388032,"local_base":140728898420736,"attr.0":1,"attr.65535":2,"insts":3}'
}

@test "csv: timestamps of 2^32 and above: time-base records are made again" {
	gc-import "$FIX/csv/access.csv" >"$T/a.gcs"
	types "$T/a.gcs" >"$T/t"
	expect_eq "$(grep -c '^84$' "$T/t")" 1 "time-base records"
	gc-import "$FIX/csv/request.csv" >"$T/r.gcs"
	types "$T/r.gcs" >"$T/t"
	expect_eq "$(grep -c '^84$' "$T/t")" 2 "time-base records"
	# and the dump has no line for them
	gc-stats --dump "$T/r.gcs" | cmp - "$FIX/csv/request.csv"
}

@test "csv: gzip-compressed dumps, comments and blank lines" {
	gc-import "$FIX/csv/access.csv" >"$T/a.gcs"
	gzip -c "$FIX/csv/access.csv" >"$T/a.csv.gz"
	gc-import "$T/a.csv.gz" | cmp - "$T/a.gcs"
	sed 's/^1,,,,,,,kend/# a comment\n\n&/' "$FIX/csv/access.csv" | gc-import | cmp - "$T/a.gcs"
}

@test "csv: detected by content; another CSV is not a dump" {
	gc-import --list-formats | grep -q '^csv '
	printf 'a,b,c\n1,2,3\n' >"$T/other.csv"
	sh_status 1 "gc-import '$T/other.csv'"
	expect_eq "$(cat "$T/err")" "gc-import: $T/other.csv: unknown trace format (see --list-formats; --format NAME forces one)"
	(cd "$T" && sh_status 1 "gc-import -f csv other.csv")
	expect_eq "$(cat "$T/err")" "gc-import: other.csv:1: not a gc-stats dump: the first line must be '# gc-stats dump 1'"
	[ ! -s "$T/out" ]
}

@test "csv: a dump must be the only input" {
	(cd "$FIX/csv" && sh_status 1 "gc-import access.csv access.csv")
	expect_eq "$(cat "$T/err")" "gc-import: access.csv: a gc-stats dump restores a whole stream; it must be the only input"
	[ ! -s "$T/out" ]
}

@test "csv: malformed data lines name the column" {
	bad_line '12s/,load,global,0x1004,/,lod,global,0x1004,/' \
		"column op: unknown operation 'lod' (load, store, atomic, kbegin, opcode, kend or end)"
	bad_line '12s/,global,/,globl,/' \
		"column space: unknown memory space 'globl' (global, local, shared, const, texture or generic)"
	bad_line '12s/0x1004,4,/0x1004,4x,/' "column size: '4x' is not a number from 0 to 255"
	bad_line '12s/0x1004,4,/0x1004,256,/' "column size: '256' is not a number from 0 to 255"
	bad_line '12s/0x1004,4,/0x1004,0,/' "column size: an access has 1 to 255 bytes, not 0"
	bad_line '12s/^1,0,0,0,1,/1,65536,0,0,1,/' "column sm: '65536' is not a number from 0 to 65535"
	bad_line '12s/^1,0,0,0,1,/1,0,0,0,256,/' "column lane: '256' is not a number from 0 to 255"
	bad_line '12s/0x1004/0x1g04/' "column addr: '0x1g04' is not a number from 0 to 18446744073709551615"
	bad_line '12s/,100,,0,,$/,99,,0,,/' "column time: 99 is earlier than the previous record's 100"
	bad_line '12s/,100,,0,,$/,100,,16,,/' "column flags: '16' is not a number from 0 to 15"
	bad_line '12s/0x1004,4,,/0x1004,4,0xf,/' "column mask: must be empty in an access stream (found '0xf')"
	bad_line '12s/,100,,0,,$/,100,hit,0,,/' "column outcome: must be empty in an access stream (found 'hit')"
	bad_line '12s/,0,,$/,0,x,/' "column name: must be empty on a data line (found 'x')"
	bad_line '12s/^1,/2,/' "column kernel: 2, but the open kernel is 1"
	bad_line '12s/$/,/' "18 fields, expected 17 (kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info)"
	bad_line '12s/,0,,$/,0,/' "16 fields, expected 17 (kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info)"
	bad_line '12s/global/glo"bal/' "column space: a quote inside an unquoted field"
	bad_line '17d' "a data line outside a kernel (no kbegin line before it)" 17
}

@test "csv: malformed requests" {
	sed 's/0x10080,64,0x3/0x10080,64,0x100/' "$FIX/csv/request.csv" >"$T/bad.csv"
	(cd "$T" && sh_status 1 "gc-import bad.csv")
	expect_eq "$(cat "$T/err")" "gc-import: bad.csv:13: column mask: '0x100' is not a number from 0 to 255"
	sed 's/0x10080,64,0x3,11,miss\/compulsory/0x10080,64,0x3,11,miss\/cold/' "$FIX/csv/request.csv" >"$T/bad.csv"
	(cd "$T" && sh_status 1 "gc-import bad.csv")
	expect_eq "$(cat "$T/err")" "gc-import: bad.csv:13: column outcome: 'miss/cold' is not an outcome (like hit, miss/capacity+wb or 0x2d)"
	sed 's/^7,0,0,1,,0x100,0,load,global,0x10080/7,0,0,1,3,0x100,0,load,global,0x10080/' "$FIX/csv/request.csv" >"$T/bad.csv"
	(cd "$T" && sh_status 1 "gc-import bad.csv")
	expect_eq "$(cat "$T/err")" "gc-import: bad.csv:13: column lane: must be empty in a request or DRAM stream (found '3')"
	sed 's/0x10080,64,0x3/0x1000000000000,64,0x3/' "$FIX/csv/request.csv" >"$T/bad.csv"
	(cd "$T" && sh_status 1 "gc-import bad.csv")
	expect_eq "$(cat "$T/err")" "gc-import: bad.csv:13: column addr: '0x1000000000000' is not a number from 0 to 281474976710655"
	[ ! -s "$T/out" ]
}

@test "csv: malformed kernel lines" {
	bad_line '10s/regs=16/regs=16 foo=3/' \
		"column info: unknown item 'foo' (grid, block, regs, shmem, an attribute name or attr.N)" 10
	bad_line '10s/grid=2x1x1/grid=2x1/' \
		"column info: grid=2x1 is not XxYxZ (x up to 4294967295, y and z up to 65535)" 10
	bad_line '10s/block=64x1x1/block=65536x1x1/' \
		"column info: block=65536x1x1 is not XxYxZ (x up to 65535, y and z up to 65535)" 10
	bad_line '10s/regs=16/regs=65536/' "column info: regs=65536 is not a number from 0 to 65535" 10
	bad_line '10s/ insts=40/ attr.65536=1/' \
		"column info: unknown item 'attr.65536' (grid, block, regs, shmem, an attribute name or attr.N)" 10
	bad_line '10s/ insts=40/ attr.1=1 attr.2=2 attr.3=3 attr.4=4 attr.5=5 attr.6=6 attr.7=7 attr.8=8 attr.9=9 attr.10=10 attr.11=11 attr.12=12 attr.13=13 attr.14=14 attr.15=15 attr.16=16/' \
		"column info: more than 16 kernel attributes" 10
	bad_line '10s/"vecadd(float\*, float const\*, int)"/"vecadd"x/' "column name: text after the closing quote" 10
	bad_line '10s/^1,,,,,,,kbegin,/1,0,,,,,,kbegin,/' "column sm: must be empty on a kbegin line (found '0')" 10
	bad_line '16d' "kbegin for kernel 2, but kernel 1 has no kend line" 16
	bad_line '16s/^1,/2,/' "kend for kernel 2, but kernel 1 is open" 16
	bad_line '16s/records=5/records=4/' \
		"column info: kernel 1 ends with records=4, but the dump holds 5 data lines for it (lines lost or added?)" 16
	bad_line '16s/records=5/count=5/' "column info: 'count=5' is not records=N" 16
	bad_line '15d' \
		"column info: kernel 1 ends with records=5, but the dump holds 4 data lines for it (lines lost or added?)" 15
	bad_line '16s/.*/&\n&/' "kend for kernel 1, but no kernel is open" 17
	bad_line '10s/kbegin/begin/' \
		"column op: unknown operation 'begin' (load, store, atomic, kbegin, opcode, kend or end)" 10
}

@test "csv: the end line and truncated dumps" {
	bad_line '21s/records=17/records=16/' \
		"column info: the end line says records=16 data=7, but the dump holds 17 records (7 data; lines lost or added?)" 21
	bad_line '21s/^,/1,/' "column kernel: must be empty on an end line (found '1')" 21
	bad_line '20d' "end line inside kernel 2 (its kend line is missing)" 20
	bad_line '21s/$/\n1,,,,,,,kend,,,,,,,,,records=0/' "a line after the end line" 22
	bad_line '21d' "truncated dump: no end line" 20
	bad_line '18,21d' "truncated dump: kernel 2 has no kend line" 17
	bad_line '9,21d' "truncated dump: no column row" 8
}

@test "csv: malformed header lines" {
	bad_line '2s/accesses/access/' "header: kind 'access' is not accesses, requests or dram" 2
	bad_line '1s/1$/2/' "dump format 2 is not supported (this reads 1)" 1
	bad_line '3s/1.0/2.0/' "header: stream version 2.0 (this restores 1.x)" 3
	bad_line '4s/32/33/' "header: record_size '33' is not a multiple of 8 from 32 to 256" 4
	bad_line '6s/0x0/zz/' "header: optional flags 'zz' are not a 32-bit number" 6
	bad_line '8s/gpu=test/gpu=x\n# header gpu=y/' "header: key 'gpu' repeated" 9
	bad_line '8s/gpu=test/g u=x/' "header: bad key 'g u' (letters, digits, _ . - only; at most 256 keys)" 8
	bad_line '8s/gpu=test/gpu/' "header: 'gpu' is not KEY=VALUE" 8
	bad_line '5s/required/needed/' \
		"header: unknown line '# needed 0x0' (expected kind, version, record_size, required, optional or header)" 5
	bad_line '2d' "header: no '# kind' line before the column row" 8
	bad_line '9s/lane,pc/lane,PC/' \
		"expected the column row 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'" 9
	bad_line '10s/$/\x00/' "a NUL byte in the line" 10
}

@test "csv: --lenient skips malformed lines and counts them" {
	sed '12s/0x1004,4,/0x1004,4x,/; 14s/,global,/,globl,/' "$FIX/csv/access.csv" >"$T/bad.csv"
	(cd "$T" && sh_status 0 "gc-import --lenient --stats s.json bad.csv")
	expect_eq "$(cat "$T/err")" "gc-import: skipped 2 malformed lines (--lenient)"
	mv "$T/out" "$T/l.gcs"
	gc-stats --json "$T/l.gcs" >"$T/j"
	grep -q '^  "records": 5,$' "$T/j"
	grep -q '^  "kernel_count": 2,$' "$T/j"
	grep -q '"bad_lines": 2' "$T/s.json"
	grep -q '"accesses": 5' "$T/s.json"
	# -q: no count
	(cd "$T" && sh_status 0 "gc-import --lenient -q bad.csv")
	[ ! -s "$T/err" ]
	# a dump cut inside a kernel: the kernel is closed, the stream is valid
	head -n 13 "$FIX/csv/access.csv" >"$T/cut.csv"
	(cd "$T" && sh_status 0 "gc-import --lenient cut.csv")
	expect_eq "$(cat "$T/err")" "gc-import: skipped 2 malformed lines (--lenient)"
	gc-stats --json <"$T/out" >"$T/j"
	grep -q '^  "records": 3,$' "$T/j"
}

@test "csv: the --stats summary of a restore" {
	(cd "$FIX/csv" && sh_status 0 "gc-import --stats '$T/s.json' -v request.csv")
	tr -d ' \n' <"$T/s.json" >"$T/flat"
	expect_eq "$(cat "$T/flat")" '{"tool":"gc-import","input":"request.csv","gpu":null,"lines":25,"text_bytes":1284,"kernel_count":2,"instructions":0,"mem_instructions":0,"accesses":10,"bad_lines":0}'
	expect_eq "$(cat "$T/err")" "gc-import: 25 lines (1284 bytes) read, 0 skipped; 2 kernels, 0 warp instructions, 0 memory warp instructions, 10 accesses"
}

@test "gc-import: a line over 16 MiB is an error naming the file and line, in every format" {
	local f fmt first
	head -c 16777217 /dev/zero | tr '\0' x >"$T/long"
	for fmt in csv accelsim nvbit ppt-gpu ocelot; do
		case $fmt in
		csv) first='# gc-stats dump 1' ;;
		accelsim) first='-kernel name = k' ;;
		nvbit) first='application output' ;;
		ppt-gpu) first='' ;;
		ocelot) first='blocksize: 32 1 1' ;;
		esac
		f=$T/kernel_1_block_0.mem
		if [ -n "$first" ]; then
			{ echo "$first"; cat "$T/long"; echo; } >"$f"
		else
			{ cat "$T/long"; echo; } >"$f"
		fi
		sh_status 1 "gc-import --format $fmt '$f' >'$T/o'"
		expect_eq "$(cat "$T/err")" \
			"gc-import: $f:$([ -n "$first" ] && echo 2 || echo 1): line too long (more than 16777216 bytes)" "$fmt"
		[ ! -s "$T/o" ]
	done
}

@test "csv: every outcome byte, the longest text included, survives dump and restore" {
	# "sector-miss/compulsory+wb+bypass" (0x66) is 32 characters; unknown
	# bits (0x80) come back as 0xNN.
	local o
	for o in sector-miss/compulsory+wb+bypass 0x80 0xe6 miss/mshr+wb+bypass; do
		sed "12s|,miss/compulsory,|,$o,|" "$FIX/csv/request.csv" >"$T/o.csv"
		gc-import "$T/o.csv" >"$T/o.gcs"
		gc-stats --dump "$T/o.gcs" | sed -n 12p | grep -qF ",$o,"
		gc-stats --dump "$T/o.gcs" | gc-import | cmp - "$T/o.gcs"
	done
}

@test "csv: a distance stream (gc-rd --annotate) round-trips byte for byte, distances in the info column" {
	gc-gen -n 2000 gather | gc-sched | gc-coalesce | gc-rd --annotate >"$T/a.gcs"
	gc-stats --dump "$T/a.gcs" >"$T/a.csv"
	grep -q ',dist=inf$' "$T/a.csv"
	grep -Eq ',dist=[0-9]+$' "$T/a.csv"
	gc-import "$T/a.csv" | cmp - "$T/a.gcs"
	# the distances are the ones gc-rd measured: as many first uses as
	# gc-rd counts compulsory references
	inf=$(grep -c ',dist=inf$' "$T/a.csv")
	expect_eq "$inf" "$(gc-rd --json "$T/a.gcs" | sed -n 's/^ *"compulsory": \([0-9]*\),*$/\1/p' | head -1)"
	sed 's/,dist=inf$/,dist=x/' "$T/a.csv" >"$T/bad.csv"
	sh_status 1 "gc-import '$T/bad.csv'"
	expect_match "$(cat "$T/err")" "column info: 'x' is not a distance"
	sed 's/,dist=inf$/,/' "$T/a.csv" >"$T/bad2.csv"
	sh_status 1 "gc-import '$T/bad2.csv'"
	expect_match "$(cat "$T/err")" "needs dist=N, dist=inf or dist=none"
}
