#!/usr/bin/env bats
# The compute field (gc-stream(5) "The compute field", issue 17): bytes
# 40-47 of 48-byte records under optional flag 0x8, minor version 2.  Every
# stage carries it with its record, exactly; records a stage makes itself
# (write-backs) carry 0; gc-l2's DRAM transactions drop the flag.  The
# input is a dump written here by hand, restored with gc-import; the
# expected fields are worked out by hand in the comments.

load helpers

# The L1 of the exact cases: one line of 128 bytes, write-back with
# fetch-on-write, global loads cached, kept across kernels, so that every
# miss, eviction and write-back below can be followed by hand.
L1="--sets 1 --ways 1 --index linear --write write-back --write-alloc fetch-on-write --skip-global no --kernel-boundary keep"

# input: $T/c.csv, the dump of a compute stream, and $T/a.gcs, its restore.
#   kernel 1, 2 blocks of 64 threads:
#     b0 w0 seq 0  load  0x1000 0x1004 (lanes 0 1), 0x1080 (lane 2)   3/5/0
#     b0 w0 seq 1  store 0x2000 0x2004                                7/12/1
#     b0 w1 seq 0  load  0x1000 0x1008                                1/2/0
#     b1 w0 seq 0  load  0x3000 (8 bytes)                             0/0/0
#     b1 w0 seq 1  load  0x1000             the widest counts, 2^n - 1 each
#   kernel 2, 1 block of 32 threads, one warp:
#     seq 0  shared load 0x40                                          2/3/1
#     seq 1  load 0x1000                     no field (0: compute=none)
#     seq 2  atomic 0x4000 0x4004            0x4000000000000001 (bit 62 set:
#                                            a value the counts cannot say)
# (insts/cycles/waits.)  Records: kernel 1 begin, attribute, name, 9 data,
# end (13); kernel 2 begin, name, 4 data, end (7): 20, 13 data.
input() {
	cat >"$T/c.csv" <<-'EOF'
	# gc-stats dump 1
	# kind accesses
	# version 1.2
	# record_size 48
	# required 0x0
	# optional 0x8
	# header source_format=test
	kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info
	1,,,,,,,kbegin,,,,,,,,"k1",grid=2x1x1 block=64x1x1 regs=0 shmem=0 thread_insts=200
	1,0,0,0,0,0x10,0,load,global,0x1000,4,,0,,0,,insts=3 cycles=5 waits=0
	1,0,0,0,1,0x10,0,load,global,0x1004,4,,0,,0,,insts=3 cycles=5 waits=0
	1,0,0,0,2,0x10,0,load,global,0x1080,4,,0,,0,,insts=3 cycles=5 waits=0
	1,0,0,0,0,0x20,1,store,global,0x2000,4,,0,,0,,insts=7 cycles=12 waits=1
	1,0,0,0,1,0x20,1,store,global,0x2004,4,,0,,0,,insts=7 cycles=12 waits=1
	1,0,0,1,0,0x10,0,load,global,0x1000,4,,0,,0,,insts=1 cycles=2 waits=0
	1,0,0,1,1,0x10,0,load,global,0x1008,4,,0,,0,,insts=1 cycles=2 waits=0
	1,0,1,0,0,0x10,0,load,global,0x3000,8,,0,,0,,insts=0 cycles=0 waits=0
	1,0,1,0,0,0x30,1,load,global,0x1000,4,,0,,0,,insts=16777215 cycles=67108863 waits=4095
	1,,,,,,,kend,,,,,,,,,records=9
	2,,,,,,,kbegin,,,,,,,,"k2",grid=1x1x1 block=32x1x1 regs=0 shmem=0
	2,0,0,0,0,0x18,0,load,shared,0x40,4,,0,,0,,insts=2 cycles=3 waits=1
	2,0,0,0,0,0x10,1,load,global,0x1000,4,,0,,0,,compute=none
	2,0,0,0,0,0x20,2,atomic,global,0x4000,4,,0,,0,,compute=0x4000000000000001
	2,0,0,0,1,0x20,2,atomic,global,0x4004,4,,0,,0,,compute=0x4000000000000001
	2,,,,,,,kend,,,,,,,,,records=4
	,,,,,,,end,,,,,,,,,records=20 data=13
	EOF
	gc-import "$T/c.csv" >"$T/a.gcs"
}

# input0: $T/a0.gcs, the same stream without the field (1.0, 32 bytes).
input0() {
	sed 's/^# version 1.2$/# version 1.0/; s/^# record_size 48$/# record_size 32/
	     s/^# optional 0x8$/# optional 0x0/' "$T/c.csv" |
		awk -F, -v OFS=, '$8 ~ /^(load|store|atomic)$/ { $17 = "" } 1' >"$T/c0.csv"
	gc-import "$T/c0.csv" >"$T/a0.gcs"
}

# recs FILE: the data records, "kernel block warp seq op addr info" each.
recs() {
	gc-stats --dump "$1" | awk -F, '!/^#/ && $8 ~ /^(load|store|atomic)$/ {
		print $1, $3, $4, $7, $8, $10, $17 }'
}

# foreign IN OUT: the records of OUT whose info (the compute field) is not
# that of their warp instruction (kernel block warp seq) in IN, or whose
# instruction IN lacks.  Empty when every record carries its own.
foreign() {
	awk 'NR == FNR { c[$1 " " $2 " " $3 " " $4] = substr($0, index($0, $7)); next }
	     { k = $1 " " $2 " " $3 " " $4
	       if (!(k in c) || c[k] != substr($0, index($0, $7))) print }' \
		<(recs "$1") <(recs "$2")
}

# hdr FILE: "minor record-size optional-flags" from the fixed header.
hdr() {
	echo "$(od -An -tu2 -j10 -N2 "$1" | tr -d ' ') $(stream_rsize "$1") $(od -An -tu4 -j24 -N4 "$1" | tr -d ' ')"
}

@test "compute: the restore writes 1.2, 48-byte records, the field at bytes 40-47; the dump gives it back" {
	input
	expect_eq "$(hdr "$T/a.gcs")" "2 48 8" "minor, record size, flags"
	# the fields as bytes, decoded apart from the library
	decode_compute "$T/a.gcs" >"$T/bytes"
	cat >"$T/want" <<-'EOF'
	0,0,0 3 5 0 0 1
	0,0,0 3 5 0 0 1
	0,0,0 3 5 0 0 1
	0,0,1 7 12 1 0 1
	0,0,1 7 12 1 0 1
	0,1,0 1 2 0 0 1
	0,1,0 1 2 0 0 1
	1,0,0 0 0 0 0 1
	1,0,1 16777215 67108863 4095 0 1
	0,0,0 2 3 1 0 1
	0,0,1 0 0 0 0 0
	0,0,2 1 0 0 1 0
	0,0,2 1 0 0 1 0
	EOF
	expect_same "$T/bytes" "$T/want"
	# 3/5/0 is 3 | 5 << 24 | 1 << 63 = 0x8000000005000003: little-endian
	# 03 00 00 05 00 00 00 80 at bytes 40-47 of the first data record
	# (after the header, kernel begin, attribute and name: the fourth)
	off=$(($(stream_hsize "$T/a.gcs") + 3 * 48 + 40))
	expect_eq "$(od -An -tx1 -j "$off" -N8 "$T/a.gcs" | tr -d ' ')" "0300000500000080"
	# dump -> restore -> dump: the same text, the same bytes
	gc-stats --dump "$T/a.gcs" >"$T/d.csv"
	expect_same "$T/d.csv" "$T/c.csv"
	gc-import "$T/d.csv" | cmp - "$T/a.gcs"
	# gc-stats names the flag and the attribute
	gc-stats "$T/a.gcs" >"$T/rep"
	grep -q '^flags             required 0x0, optional 0x8 (compute)$' "$T/rep"
	grep -q '^format            1.2, 48-byte records$' "$T/rep"
	grep -q 'thread_insts=200' "$T/d.csv"
}

@test "compute: a 1.0 reader's view: the first 32 bytes and gc-stats' counts are those of the stream without the field" {
	input
	input0
	expect_eq "$(hdr "$T/a0.gcs")" "0 32 0"
	expect_same <(decode_stream "$T/a.gcs") <(decode_stream "$T/a0.gcs")
	# the reports differ only in the format, the flags and the byte count
	gc-stats "$T/a.gcs" | grep -Ev '^(input|format|flags|stream) ' >"$T/r1"
	gc-stats "$T/a0.gcs" | grep -Ev '^(input|format|flags|stream) ' >"$T/r0"
	expect_same "$T/r1" "$T/r0"
	# bytes: 13 data records of 16 more bytes each, and the other 8 too
	b1=$(gc-stats "$T/a.gcs" | sed -n 's/^stream  *21 records, \([0-9]*\) bytes$/\1/p')
	b0=$(gc-stats "$T/a0.gcs" | sed -n 's/^stream  *21 records, \([0-9]*\) bytes$/\1/p')
	expect_eq "$((b1 - b0))" "$((21 * 16))"
	# and every stage models the same: what comes out of the chain is the
	# same records (their first 32 bytes)
	for f in a a0; do
		gc-sched "$T/$f.gcs" | gc-coalesce | gc-l1 $L1 | gc-l2 >"$T/$f.dram"
		gc-sched "$T/$f.gcs" | gc-coalesce | gc-l1 --timing $L1 >"$T/$f.l1t"
	done
	expect_same <(decode_stream "$T/a.dram") <(decode_stream "$T/a0.dram")
	expect_same <(decode_stream "$T/a.l1t") <(decode_stream "$T/a0.l1t")
}

@test "compute: gc-sched moves each field with its record" {
	input
	gc-sched "$T/a.gcs" >"$T/s.gcs"
	expect_eq "$(hdr "$T/s.gcs")" "2 48 9" "minor, record size, flags (scheduled, compute)"
	# the issue order is another: block 1 is on SM 1 and issues at once
	expect_differ <(recs "$T/a.gcs") <(recs "$T/s.gcs")
	# but the records are the same, each with its own field
	expect_same <(recs "$T/a.gcs" | sort) <(recs "$T/s.gcs" | sort)
	expect_empty "$(foreign "$T/a.gcs" "$T/s.gcs")"
	expect_same <(decode_compute "$T/a.gcs" | sort) <(decode_compute "$T/s.gcs" | sort)
}

@test "compute: gc-coalesce: each request takes its instruction's field" {
	input
	gc-coalesce "$T/a.gcs" >"$T/q.gcs"
	expect_eq "$(hdr "$T/q.gcs")" "2 48 8"
	# 128-byte lines: b0 w0 seq 0 touches lines 0x1000 and 0x1080 (two
	# requests, both 3/5/0); every other instruction one line; the shared
	# load of kernel 2 makes no request: 7 requests
	recs "$T/q.gcs" >"$T/r"
	cat >"$T/want" <<-'EOF'
	1 0 0 0 load 0x1000 insts=3 cycles=5 waits=0
	1 0 0 0 load 0x1080 insts=3 cycles=5 waits=0
	1 0 0 1 store 0x2000 insts=7 cycles=12 waits=1
	1 0 1 0 load 0x1000 insts=1 cycles=2 waits=0
	1 1 0 0 load 0x3000 insts=0 cycles=0 waits=0
	1 1 0 1 load 0x1000 insts=16777215 cycles=67108863 waits=4095
	2 0 0 1 load 0x1000 compute=none
	2 0 0 2 atomic 0x4000 compute=0x4000000000000001
	EOF
	expect_same "$T/r" "$T/want"
	expect_empty "$(foreign "$T/a.gcs" "$T/q.gcs")"
	# scheduled first: the same requests, in another order
	gc-sched "$T/a.gcs" | gc-coalesce >"$T/sq.gcs"
	expect_same <(sort "$T/want") <(recs "$T/sq.gcs" | sort)
}

@test "compute: gc-coalesce refuses the lanes of one instruction with different fields" {
	input
	# lane 1 of b0 w0 seq 1 says 7/13/1: record 8 of the stream (kernel
	# begin, attribute, name, then the fifth data record)
	sed '/^1,0,0,0,1,0x20,1,store/s/cycles=12/cycles=13/' "$T/c.csv" | gc-import >"$T/bad.gcs"
	sh_status 1 "gc-coalesce '$T/bad.gcs'"
	# 7/12/1 = 7 | 12 << 24 | 1 << 50 | 1 << 63 = 0x800400000c000007
	expect_eq "$(cat "$T/err")" "gc-coalesce: $T/bad.gcs: record 8 (offset $(($(stream_hsize "$T/bad.gcs") + 7 * 48))): block 0 warp 0 seq 1 lane 1: field compute: 0x800400000d000007, but the instruction's lane 0 has 0x800400000c000007"
	[ ! -s "$T/out" ]
}

@test "compute: a reader refuses the compute flag on 32-byte records; the restore refuses it in the dump" {
	input
	input0
	# set optional bit 3 in place (offset 24)
	cp "$T/a0.gcs" "$T/bad.gcs"
	printf '\010' | dd of="$T/bad.gcs" bs=1 seek=24 conv=notrunc 2>/dev/null
	sh_status 1 "gc-stats '$T/bad.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/bad.gcs: the compute flag needs records of at least 48 bytes, not 32"
	[ ! -s "$T/out" ]
	# 40 bytes are not enough either: the distance's size
	sed 's/^# optional 0x0$/# optional 0x8/; s/^# record_size 32$/# record_size 40/' "$T/c0.csv" >"$T/bad.csv"
	sh_status 1 "gc-import '$T/bad.csv'"
	expect_eq "$(cat "$T/err")" "gc-import: $T/bad.csv:8: header: record_size 40 is too small for the compute flag (48 bytes at least)"
	[ ! -s "$T/out" ]
}

@test "compute: the restore checks the info column of a compute stream" {
	input
	bad_info() {
		sed "/^1,0,0,0,0,0x10,0,load/s/,insts=3 cycles=5 waits=0\$/,$1/" "$T/c.csv" >"$T/bad.csv"
		sh_status 1 "gc-import '$T/bad.csv'"
		expect_eq "$(cat "$T/err")" "gc-import: $T/bad.csv:10: column info: $2"
		[ ! -s "$T/out" ]
	}
	bad_info "insts=3 cycles=5" "a compute stream's data line needs insts=N cycles=N waits=N, or compute=none (found 'insts=3 cycles=5')"
	bad_info "insts=16777216 cycles=5 waits=0" "insts=16777216 is not a number from 0 to 16777215"
	bad_info "insts=3 cycles=67108864 waits=0" "cycles=67108864 is not a number from 0 to 67108863"
	bad_info "insts=3 cycles=5 waits=4096" "waits=4096 is not a number from 0 to 4095"
	bad_info "insts=3 insts=3 cycles=5 waits=0" "insts= repeated"
	bad_info "insts=3 cycles=5 waits=0 compute=none" "a compute stream's data line needs insts=N cycles=N waits=N, or compute=none (found 'insts=3 cycles=5 waits=0 compute=none')"
	bad_info "compute=x" "compute=x is not none or a 64-bit number"
	bad_info "dist=4 insts=3 cycles=5 waits=0" "'dist=4' is not an item of this stream's data lines (insts, cycles, waits or compute)"
	bad_info "" "a compute stream's data line needs insts=N cycles=N waits=N, or compute=none (found '')"
}

@test "compute: gc-l1 functional: misses carry their request's field, write-backs 0, hits go" {
	input
	gc-coalesce "$T/a.gcs" | gc-l1 $L1 >"$T/l.gcs"
	expect_eq "$(hdr "$T/l.gcs")" "2 48 8"
	# One line in the L1:
	#   0x1000 (3/5/0) miss; 0x1080 (3/5/0) miss, evicts 0x1000 (clean);
	#   the store to 0x2000 (8 bytes, a partial sector) fetches it first
	#   (fetch-on-write: a load, 7/12/1) and leaves it dirty;
	#   b0 w1 0x1000 misses and evicts 0x2000: its write-back (a store the
	#   L1 makes: compute=none, the other fields the evicting request's),
	#   then its own fetch (1/2/0); 0x3000 (0/0/0) and 0x1000 (the widest)
	#   miss; kernel 2's load of 0x1000 hits (the line is kept) and is not
	#   sent on; the atomic passes by with its field.
	cat >"$T/want" <<-'EOF'
	1 0 0 0 load 0x1000 insts=3 cycles=5 waits=0
	1 0 0 0 load 0x1080 insts=3 cycles=5 waits=0
	1 0 0 1 load 0x2000 insts=7 cycles=12 waits=1
	1 0 1 0 store 0x2000 compute=none
	1 0 1 0 load 0x1000 insts=1 cycles=2 waits=0
	1 1 0 0 load 0x3000 insts=0 cycles=0 waits=0
	1 1 0 1 load 0x1000 insts=16777215 cycles=67108863 waits=4095
	2 0 0 2 atomic 0x4000 compute=0x4000000000000001
	EOF
	expect_same <(recs "$T/l.gcs") "$T/want"
	# --emit all: every request, the field copied, only the outcome new
	gc-coalesce "$T/a.gcs" >"$T/q.gcs"
	gc-l1 $L1 --emit all "$T/q.gcs" >"$T/la.gcs"
	expect_eq "$(hdr "$T/la.gcs")" "2 48 10"
	expect_same <(recs "$T/q.gcs") <(recs "$T/la.gcs")
	expect_same <(decode_compute "$T/q.gcs") <(decode_compute "$T/la.gcs")
}

@test "compute: gc-l1 --timing: each request to L2 carries its cause's field, the write-back 0" {
	input
	gc-sched "$T/a.gcs" | gc-coalesce >"$T/sq.gcs"
	gc-l1 --timing $L1 "$T/sq.gcs" >"$T/lt.gcs"
	expect_eq "$(hdr "$T/lt.gcs")" "2 48 9"
	# Every record is its instruction's but one: the write-back of the
	# dirty line 0x2000, which kernel 2's miss on 0x1000 evicts when its
	# fill returns; a fill's write-back takes the SM, block and warp of
	# the miss and seq 0 (there: the shared load, 2/3/1), and compute 0.
	expect_eq "$(foreign "$T/sq.gcs" "$T/lt.gcs")" "2 0 0 0 store 0x2000 compute=none"
	# Scheduled, block 1 runs on SM 1, with an L1 of its own: 0x3000 and
	# 0x1000 miss there.  On SM 0: 0x1000 and 0x1080 miss; b0 w1's 0x1000
	# finds its line in flight and waits (no request of its own); the
	# store fetches 0x2000 (7/12/1) and leaves it dirty; kernel 2's 0x1000
	# misses, and its fill evicts 0x2000: the write-back.  With the
	# atomic, 8 records.
	expect_eq "$(recs "$T/lt.gcs" | wc -l)" 8
	# --emit all: the requests in issue order, each with its field
	gc-l1 --timing $L1 --emit all "$T/sq.gcs" >"$T/lta.gcs"
	expect_eq "$(hdr "$T/lta.gcs")" "2 48 11"
	expect_empty "$(foreign "$T/sq.gcs" "$T/lta.gcs")"
	expect_same <(recs "$T/sq.gcs" | sort) <(recs "$T/lta.gcs" | sort)
	# deterministic
	gc-l1 --timing $L1 "$T/sq.gcs" | cmp - "$T/lt.gcs"
}

@test "compute: gc-l2 --emit all copies the field; its DRAM transactions drop the flag" {
	input
	gc-coalesce "$T/a.gcs" | gc-l1 $L1 >"$T/l.gcs"
	gc-l2 --emit all "$T/l.gcs" >"$T/l2a.gcs"
	expect_eq "$(hdr "$T/l2a.gcs")" "2 48 10"
	expect_same <(recs "$T/l.gcs") <(recs "$T/l2a.gcs")
	expect_same <(decode_compute "$T/l.gcs") <(decode_compute "$T/l2a.gcs")
	# the default output: DRAM transactions, 1.0 and 32 bytes, flag clear
	gc-l2 "$T/l.gcs" >"$T/d.gcs"
	expect_eq "$(hdr "$T/d.gcs")" "0 32 2"
	grep -q '^# optional 0x2$' <(gc-stats --dump "$T/d.gcs")
	# the same transactions as from the stream without the field
	input0
	gc-coalesce "$T/a0.gcs" | gc-l1 $L1 | gc-l2 >"$T/d0.gcs"
	expect_same <(decode_stream "$T/d.gcs") <(decode_stream "$T/d0.gcs")
}

@test "compute: gc-rd --annotate keeps the field beside the distance; gc-dram passes it on" {
	input
	gc-sched "$T/a.gcs" | gc-coalesce >"$T/sq.gcs"
	gc-rd --annotate "$T/sq.gcs" >"$T/rd.gcs"
	# flags scheduled, distance, compute: 0x1 + 0x4 + 0x8
	expect_eq "$(hdr "$T/rd.gcs")" "2 48 13"
	expect_same <(decode_compute "$T/sq.gcs") <(decode_compute "$T/rd.gcs")
	# the info column: the distance, then the field
	gc-stats --dump "$T/rd.gcs" >"$T/rd.csv"
	grep -q ',dist=inf insts=3 cycles=5 waits=0$' "$T/rd.csv"
	expect_same <(recs "$T/sq.gcs") <(recs "$T/rd.gcs" | sed 's/ dist=[0-9a-z]* / /')
	gc-import "$T/rd.csv" | cmp - "$T/rd.gcs"
	# gc-dram reads DRAM transactions: made here from gc-l2's, with a
	# field on each (insts = the line number of the dump)
	gc-coalesce "$T/a.gcs" | gc-l1 $L1 | gc-l2 >"$T/d.gcs"
	gc-stats --dump "$T/d.gcs" |
		sed 's/^# optional 0x2$/# optional 0xa/; s/^# record_size 32$/# record_size 48/' |
		awk '/^[0-9]+,[0-9]/ { $0 = $0 "insts=" NR " cycles=1 waits=2" } 1' >"$T/dc.csv"
	gc-import "$T/dc.csv" >"$T/dc.gcs"
	expect_eq "$(hdr "$T/dc.gcs")" "2 48 10"
	gc-dram "$T/dc.gcs" >"$T/dd.gcs"
	cmp "$T/dd.gcs" "$T/dc.gcs"
	expect_eq "$(decode_compute "$T/dd.gcs" | awk '$6 == 1 && $3 == 1 && $4 == 2' | wc -l)" \
		"$(grep -c '^[0-9]*,[0-9]' "$T/dc.csv")"
}

@test "compute: the whole chain is deterministic, and tee copies what it passes on" {
	input
	chain() {
		gc-sched "$T/a.gcs" | tee "$T/$1.s" | gc-coalesce | tee "$T/$1.q" |
			gc-l1 --timing $L1 | tee "$T/$1.l1" | gc-l2 --emit all >"$T/$1.l2"
	}
	chain x
	chain y
	for f in s q l1 l2; do
		cmp "$T/x.$f" "$T/y.$f"
	done
	gc-sched "$T/a.gcs" | cmp - "$T/x.s"
	# (standard input again: the provenance holds the command line)
	gc-coalesce <"$T/x.s" | cmp - "$T/x.q"
	gc-l1 --timing $L1 <"$T/x.q" | cmp - "$T/x.l1"
	gc-l2 --emit all <"$T/x.l1" | cmp - "$T/x.l2"
	expect_eq "$(hdr "$T/x.l2")" "2 48 11"
	expect_empty "$(foreign "$T/a.gcs" "$T/x.l2" | grep -v ' compute=none$')"
}
