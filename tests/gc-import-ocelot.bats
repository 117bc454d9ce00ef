#!/usr/bin/env bats
# gc-import: Ocelot .trc traces of the reuse-distance cache model
# (trace-formats §2.3).  The stream is decoded with od and awk (layout in
# lib/stream/stream.c), so these tests need no other gc tool.  Counts in comments
# are worked out by hand from tests/fixtures/ocelot/matmul_00.trc:
#
#   blocksize: 4 2 1        8 threads a block
#   0 0 1000 4              block 0: load, threads 0 1 2 5 6     instr 1
#   ...
#   0 0 2000 4              thread index drops: threads 0 1      instr 2
#   0 1 3000 8              direction changes: threads 0 4       instr 3
#   12 0 1040 4             block 1: threads 4 5                 instr 4
#   8 0 1030 4              thread index drops: thread 0         instr 5
#   24 0 5000 16            block 3, thread 0                    instr 6
#   33 1 6000 4             block 4, thread 1 (store)            instr 7

load helpers

OC="$FIX/ocelot"

@test "ocelot: detected from the blocksize line; name from the file" {
	gc-import "$OC/matmul_00.trc" >"$T/s"
	stream_htext "$T/s" | grep -q '^source_format=ocelot$'
	stream_htext "$T/s" | grep -q '^warp_size=32$'
	gc-import --warp-size 4 <"$OC/matmul_00.trc" >"$T/s"
	stream_htext "$T/s" | grep -q '^source_format=ocelot$'
	stream_htext "$T/s" | grep -q '^warp_size=4$'
	gc-import --list-formats | grep -q '^ocelot '
}

@test "ocelot: one record a line; without --grid the grid is 1-D and blocks keep their ids" {
	imp "$OC/matmul_00.trc"
	# 5 blocks seen (0 1 3 4): grid 5,1,1; the block size from the header.
	expect_eq "$(grep -v '^[0-9]' "$T/d" | tr '\n' ' ')" 'K 1 "matmul_00" 5,1,1 4,2,1 0 0 A 2 7 E 1 14 Z 18 14 '
	expect_eq "$(ndata ',load,')" 11
	expect_eq "$(ndata ',store,')" 3
	# Warps of 32: every thread of a block is in warp 0, lane = thread.
	expect_eq "$(ndata '^[0-9]+,0,')" 14
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f1,3,5 | tr '\n' ' ')" \
		'0,0,0 0,1,0 0,2,0 0,5,0 0,6,0 0,0,1 0,1,1 0,0,2 0,4,2 1,4,0 1,5,0 1,0,1 3,0,0 4,1,0 '
	# Decimal addresses and sizes; space global; PC 0.
	expect_eq "$(sed -n '/^0,0,0,/p' "$T/d" | tr '\n' ' ')" \
		'0,0,0,0x0,0,load,global,4,0x3e8 0,0,0,0x0,1,load,global,4,0x7d0 0,0,0,0x0,2,store,global,8,0xbb8 '
	expect_eq "$(grep '^3,' "$T/d")" '3,0,0,0x0,0,load,global,16,0x1388'
}

@test "ocelot: --grid converts x-major block numbers to CUDA's x-fastest ids; --warp-size" {
	imp --grid 2,3,1 --warp-size 4 "$OC/matmul_00.trc"
	# x-major bid = bx*3 + by: 0 -> (0,0) -> 0; 1 -> (0,1) -> 2; 3 -> (1,0)
	# -> 1; 4 -> (1,1) -> 3.  Warps of 4 threads: instructions 1 and 3
	# touch both warps of block 0: 2 + 1 + 2 + 1 + 1 + 1 + 1 = 9.
	expect_eq "$(grep -v '^[0-9]' "$T/d" | tr '\n' ' ')" 'K 1 "matmul_00" 2,3,1 4,2,1 0 0 A 2 9 E 1 14 Z 18 14 '
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f1-3,5 | tr '\n' ' ')" \
		'0,0,0,0 0,0,1,0 0,0,2,0 0,1,1,0 0,1,2,0 0,0,0,1 0,0,1,1 0,0,0,2 0,1,0,1 2,1,0,0 2,1,1,0 2,0,0,0 1,0,0,0 3,0,1,0 '
	# Same block ids in a 1-D grid of 6 written as 6,1,1.
	imp --grid 6 "$OC/matmul_00.trc"
	expect_eq "$(grep '^K' "$T/d")" 'K 1 "matmul_00" 6,1,1 4,2,1 0 0'
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f1 | uniq | tr '\n' ' ')" '0 1 3 4 '
	# z in the grid: x-major bid = bx*GY*GZ + by*GZ + bz with grid 1,2,3:
	# bid 4 -> (0,1,1) -> 0 + 1*1 + 1*1*2 = 3; bid 3 -> (0,1,0) -> 1.
	imp --grid 1,2,3 "$OC/matmul_00.trc"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f1 | uniq | tr '\n' ' ')" '0 2 1 3 '
	sh_status 2 "gc-import --grid 2,0 '$OC/matmul_00.trc'"
	expect_match "$(cat "$T/err")" "^gc-import: --grid: "
	sh_status 2 "gc-import --grid 1,2,3,4 '$OC/matmul_00.trc'"
	expect_eq "$(head -1 "$T/err")" "gc-import: --grid: expected X[,Y[,Z]], not '1,2,3,4'"
	sh_status 2 "gc-import --warp-size 0 '$OC/matmul_00.trc'"
	expect_match "$(cat "$T/err")" "^gc-import: --warp-size: "
	[ ! -s "$T/out" ]
}

@test "ocelot: grouping: a direction or size change starts a new instruction" {
	printf 'blocksize: 64 1 1\n0 0 100 4\n1 0 104 4\n2 0 108 8\n3 0 116 8\n4 1 200 8\n5 1 208 8\n40 1 300 8\n' >"$T/g_01.trc"
	imp "$T/g_01.trc"
	# Threads 0-5 in warp 0: loads of 4, loads of 8, stores: seq 0 1 2;
	# thread 40 (warp 1) joins the stores as warp 1's first instruction.
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f2,3,5,6,8 | tr '\n' ' ')" \
		'0,0,0,load,4 0,1,0,load,4 0,2,1,load,8 0,3,1,load,8 0,4,2,store,8 0,5,2,store,8 1,8,0,store,8 '
	expect_eq "$(grep '^A' "$T/d")" 'A 2 4'
}

@test "ocelot: every malformed line has its message" {
	local f=$T/bad_00.trc
	printf 'blocksize: 4 0 1\n0 0 1000 4\n' >"$f"
	import_bad "$f" "$f:1: expected 'blocksize: X Y Z' with positive sizes"
	printf '0 0 1000 4\n' >"$f"
	import_bad "$f" "$f:1: expected 'blocksize: X Y Z' with positive sizes" --format ocelot
	printf '\n\n' >"$f"
	import_bad "$f" "$f:2: no 'blocksize:' line" --format ocelot
	printf 'blocksize: 4 1 1\n0 0 0x1000 4\n' >"$f"
	import_bad "$f" "$f:2: expected 'THREAD DIRECTION ADDRESS BYTES' in decimal"
	printf 'blocksize: 4 1 1\n0 0 1000\n' >"$f"
	import_bad "$f" "$f:2: expected 'THREAD DIRECTION ADDRESS BYTES' in decimal"
	printf 'blocksize: 4 1 1\n0 2 1000 4\n' >"$f"
	import_bad "$f" "$f:2: direction 2 is neither 0 (load) nor 1 (store)"
	printf 'blocksize: 4 1 1\n0 0 1000 0\n' >"$f"
	import_bad "$f" "$f:2: access size 0 is out of range (1-255)"
	printf 'blocksize: 4 2 1\n0 0 1000 4\n48 0 1000 4\n' >"$f"
	import_bad "$f" "$f:3: thread 48 is in block 6, outside --grid 2,3,1" --grid 2,3,1
	printf 'blocksize: 1 1 1\n4294967296 0 1000 4\n' >"$f"
	import_bad "$f" "$f:2: thread 4294967296 is in block 4294967296, beyond 32-bit block ids"
}

@test "ocelot: --lenient skips malformed lines, counts them, keeps the rest" {
	printf 'blocksize: 32 1 1\n0 0 1000 4\nx y\n1 0 1004 4\n2 7 1008 4\n' >"$T/l_00.trc"
	sh_status 0 "gc-import --lenient '$T/l_00.trc' >'$T/s'"
	expect_eq "$(cat "$T/err")" "gc-import: skipped 2 malformed lines (--lenient)"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep -v '^Z' "$T/d" | tr '\n' ' ')" \
		'K 1 "l_00" 1,1,1 32,1,1 0 0 A 2 1 0,0,0,0x0,0,load,global,4,0x3e8 0,0,1,0x0,0,load,global,4,0x3ec E 1 2 '
	# A bad header makes the whole file unusable: skipped, no kernel.
	printf 'blocksize: 0 1 1\n0 0 1000 4\n' >"$T/h_00.trc"
	sh_status 0 "gc-import --lenient '$T/h_00.trc' '$T/l_00.trc' >'$T/s'"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep -c '^K' "$T/d")" 1
}

@test "ocelot: several files, one kernel each; gzip input; deterministic output" {
	gzip -c "$OC/matmul_00.trc" >"$T/matmul_00.trc.gz"
	imp "$OC/matmul_00.trc" "$T/matmul_00.trc.gz"
	expect_eq "$(grep '^K' "$T/d" | tr '\n' ' ')" 'K 1 "matmul_00" 5,1,1 4,2,1 0 0 K 2 "matmul_00" 5,1,1 4,2,1 0 0 '
	gc-import <"$OC/matmul_00.trc" >"$T/a"
	gc-import <"$T/matmul_00.trc.gz" >"$T/b"
	cmp "$T/a" "$T/b"
	gc-import <"$OC/matmul_00.trc" >"$T/c"
	cmp "$T/a" "$T/c"
}

@test "ocelot: gc-stats agrees; the dump restores the stream exactly" {
	command -v gc-stats >/dev/null || skip "gc-stats not built"
	gc-import --grid 2,3,1 --warp-size 4 "$OC/matmul_00.trc" >"$T/s"
	gc-stats --json "$T/s" >"$T/j"
	# bytes: loads 5x4 + 2x4 + 3x4 + 16, stores 2x8 + 4.
	expect_eq "$(jnum kernels) $(jnum records) $(jnum loads) $(jnum stores) $(jnum atomics) $(jnum bytes)" \
		'1 14 11 3 0 76'
	gc-stats --dump "$T/s" >"$T/dump.csv"
	grep -q '^1,,,,,,,kbegin,,,,,,,,"matmul_00",grid=2x3x1 block=4x2x1 regs=0 shmem=0 mem_insts=9$' "$T/dump.csv"
	grep -q '^1,0,3,0,1,0x0,0,store,global,0x1770,4,' "$T/dump.csv"
	gc-import "$T/dump.csv" | cmp - "$T/s"
}

@test "ocelot: --stats and -v count lines, memory instructions, accesses" {
	# matmul_00.trc: one kernel, 7 warp instructions, 14 lines of records.
	local lines bytes
	lines=$(wc -l <"$OC/matmul_00.trc")
	bytes=$(wc -c <"$OC/matmul_00.trc")
	sh_status 0 "gc-import -v --stats '$T/s.json' '$OC/matmul_00.trc' '$OC/matmul_00.trc' >/dev/null"
	expect_eq "$(tr -d ' \n' <"$T/s.json")" \
		"{\"lines\":$((2 * lines)),\"text_bytes\":$((2 * bytes)),\"kernels\":2,\"instructions\":14,\"mem_instructions\":14,\"accesses\":28,\"bad_lines\":0}"
	expect_eq "$(cat "$T/err")" \
		"gc-import: $((2 * lines)) lines ($((2 * bytes)) bytes) read, 0 skipped; 2 kernels, 14 warp instructions, 14 memory warp instructions, 28 accesses"
	# The files carry no kernel id: 1 and 2, in order.
	imp "$OC/matmul_00.trc" "$OC/matmul_00.trc"
	expect_eq "$(grep '^[KE]' "$T/d" | awk '{print $1 $2}' | tr '\n' ' ')" "K1 E1 K2 E2 "
}
