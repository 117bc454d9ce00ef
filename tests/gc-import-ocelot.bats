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

# mm N B ORDER: a naive C = A * B of N x N floats in B x B blocks, a 1-D
# grid of (N/B)^2 blocks (block b is tile b % (N/B), b / (N/B)); each
# thread loads A[row][k] and B[k][col] for k = 0..N-1, then stores
# C[row][col] (A at 0x10000, B at 0x20000, C at 0x30000).  ORDER ocelot:
# instruction by instruction, the block's threads in index order, as
# Ocelot writes; ORDER thread: thread by thread, each thread's accesses in
# program order, as the reuse-distance model reads the file.
mm() {
	awk -v N="$1" -v B="$2" -v ORDER="$3" '
	function addr(i, t,    row, col, k) {
		row = by * B + int(t / B); col = bx * B + t % B; k = int(i / 2)
		if (i == 2 * N) return 196608 + 4 * (row * N + col)
		return i % 2 == 0 ? 65536 + 4 * (row * N + k) : 131072 + 4 * (k * N + col)
	}
	BEGIN {
		print "blocksize: " B " " B " 1"
		nt = B * B; ni = 2 * N + 1
		for (b = 0; b < (N / B) * (N / B); b++) {
			bx = b % (N / B); by = int(b / (N / B))
			for (x = 0; x < nt * ni; x++) {
				if (ORDER == "ocelot") { i = int(x / nt); t = x % nt }
				else { t = int(x / ni); i = x % ni }
				print b * nt + t, (i == ni - 1), addr(i, t), 4
			}
		}
	}'
}

@test "ocelot: a thread-by-thread file is read as the model reads it: the same stream as Ocelot order" {
	mkdir "$T/oc" "$T/th"
	mm 8 4 ocelot >"$T/oc/mm_00.trc"
	mm 8 4 thread >"$T/th/mm_00.trc"
	expect_eq "$(sed -n 2,3p "$T/oc/mm_00.trc" | tr '\n' ' ')" '0 0 65536 4 1 0 65536 4 '
	expect_eq "$(sed -n 2,3p "$T/th/mm_00.trc" | tr '\n' ' ')" '0 0 65536 4 0 0 131072 4 '
	# 4 blocks of 16 threads (one warp each), 8 + 8 loads and a store a
	# thread: 4 x 17 = 68 warp instructions, 64 x 17 = 1088 accesses.
	sh_status 0 "gc-import -v --stats '$T/j' '$T/oc/mm_00.trc' >'$T/oc.s'"
	expect_eq "$(cat "$T/err")" "gc-import: 1089 lines ($(wc -c <"$T/oc/mm_00.trc") bytes) read, 0 skipped; 1 kernels, 68 warp instructions, 68 memory warp instructions, 1088 accesses"
	sh_status 0 "gc-import -v --stats '$T/j' '$T/th/mm_00.trc' >'$T/th.s'"
	expect_eq "$(cat "$T/err")" "gc-import: 1089 lines ($(wc -c <"$T/th/mm_00.trc") bytes) read, 0 skipped; 1 kernels, 68 warp instructions, 68 memory warp instructions, 1088 accesses
gc-import: 1 Ocelot files read in thread order"
	expect_eq "$(tr -d ' \n' <"$T/j" | sed 's/.*"bad_lines"://')" '0,"thread_order_files":1}'
	decode_stream "$T/oc.s" >"$T/oc.d"
	decode_stream "$T/th.s" >"$T/th.d"
	expect_eq "$(wc -l <"$T/oc.d")" 1092
	cmp "$T/oc.d" "$T/th.d"
	# Block 1's thread 5 (row 1, col 5): its 17th access, seq 16, stores
	# C[1][5] at 0x30000 + 4 x 13.
	expect_eq "$(grep '^1,0,5,0x0,16,' "$T/th.d")" '1,0,5,0x0,16,store,global,4,0x30034'
	# --order thread on the Ocelot file reads the same; --order file on the
	# thread file makes every line its own warp instruction.
	imp --order thread "$T/oc/mm_00.trc"
	cmp "$T/d" "$T/oc.d"
	imp --order file "$T/th/mm_00.trc"
	expect_eq "$(grep '^A' "$T/d")" 'A 2 1088'
	command -v gc-coalesce >/dev/null || skip "gc-coalesce not built"
	# A warp's 4 rows of A (32 bytes each), 4 floats of B, a 4 x 4 tile of
	# C: each one 128-byte line, so one request a warp instruction.
	gc-coalesce "$T/th.s" | gc-stats --json >"$T/j"
	expect_eq "$(jnum records)" 68
	gc-import --order file "$T/th/mm_00.trc" | gc-coalesce | gc-stats --json >"$T/j"
	expect_eq "$(jnum records)" 1088
}

@test "ocelot: thread order: detection, divergence, its errors" {
	# Threads once each: both readings agree; read in file order (no
	# thread has two lines, so no "Ocelot files read in thread order").
	printf 'blocksize: 4 1 1\n0 0 100 4\n1 0 104 4\n2 0 108 4\n' >"$T/a_00.trc"
	sh_status 0 "gc-import -v '$T/a_00.trc' >/dev/null"
	expect_eq "$(wc -l <"$T/err")" 1
	# Thread 0's three lines, then thread 1's one: every thread's lines
	# are contiguous, so thread order: thread 1's first access joins
	# thread 0's first (seq 0), as the model reads it (Ocelot order would
	# mean thread 1 diverged into the third instruction).
	printf 'blocksize: 4 1 1\n0 0 100 4\n0 0 200 4\n0 0 300 4\n1 0 304 4\n' >"$T/b_00.trc"
	imp "$T/b_00.trc"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f3,5,9 | tr '\n' ' ')" '0,0,0x64 1,0,0x130 0,1,0xc8 0,2,0x12c '
	expect_eq "$(grep '^A' "$T/d")" 'A 2 3'
	imp --order file "$T/b_00.trc"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f3,5,9 | tr '\n' ' ')" '0,0,0x64 0,1,0xc8 0,2,0x12c 1,2,0x130 '
	# Thread 1 comes back after thread 0: Ocelot order, where thread 1
	# alone ran the first instruction and both the second (thread order
	# would give 0,0,0x64 1,0,0x68 1,1,0xcc).
	printf 'blocksize: 4 1 1\n1 0 104 4\n0 0 100 4\n1 0 204 4\n' >"$T/c_00.trc"
	imp "$T/c_00.trc"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f3,5,9 | tr '\n' ' ')" '1,0,0x68 0,1,0x64 1,1,0xcc '
	imp --order thread "$T/c_00.trc"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f3,5,9 | tr '\n' ' ')" '0,0,0x64 1,0,0x68 1,1,0xcc '
	# Blocks keep their order of first appearance (block 2 before 0).
	printf 'blocksize: 2 1 1\n4 0 400 4\n4 0 404 4\n0 0 100 4\n0 0 104 4\n1 0 108 4\n1 0 112 4\n' >"$T/d_00.trc"
	imp "$T/d_00.trc"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f1,3,5 | tr '\n' ' ')" '2,0,0 2,0,1 0,0,0 0,1,0 0,0,1 0,1,1 '
	# A warp's k-th accesses must agree on the direction.
	printf 'blocksize: 4 1 1\n0 0 100 4\n0 1 200 4\n1 1 104 4\n1 0 204 4\n' >"$T/e_00.trc"
	import_bad "$T/e_00.trc" "$T/e_00.trc:4: thread order: access 0 of thread 1 is a store, but access 0 of thread 0 in its warp is a load" --order thread
	sh_status 2 "gc-import --order sideways '$T/e_00.trc'"
	expect_eq "$(head -1 "$T/err")" "gc-import: --order: expected auto, file or thread, not 'sideways'"
	expect_empty "$(cat "$T/out")"
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
	printf 'blocksize: 4 1 1\n0 0 281474976710652 4\n0 0 281474976710653 4\n' >"$f"
	import_bad "$f" "$f:3: address 0xfffffffffffd (4 bytes) reaches 2^48, where no GPU modelled has memory"
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
	expect_eq "$(jnum kernel_count) $(jnum records) $(jnum loads) $(jnum stores) $(jnum atomics) $(jnum bytes)" \
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
		"{\"tool\":\"gc-import\",\"input\":\"$OC/matmul_00.trc\",\"gpu\":null,\"lines\":$((2 * lines)),\"text_bytes\":$((2 * bytes)),\"kernel_count\":2,\"instructions\":14,\"mem_instructions\":14,\"accesses\":28,\"bad_lines\":0}"
	expect_eq "$(cat "$T/err")" \
		"gc-import: $((2 * lines)) lines ($((2 * bytes)) bytes) read, 0 skipped; 2 kernels, 14 warp instructions, 14 memory warp instructions, 28 accesses"
	# The files carry no kernel id: 1 and 2, in order.
	imp "$OC/matmul_00.trc" "$OC/matmul_00.trc"
	expect_eq "$(grep '^[KE]' "$T/d" | awk '{print $1 $2}' | tr '\n' ' ')" "K1 E1 K2 E2 "
}
