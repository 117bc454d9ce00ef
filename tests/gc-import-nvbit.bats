#!/usr/bin/env bats
# gc-import: NVBit mem_trace output (trace-formats §2.1).  The stream is
# decoded with od and awk (layout in lib/stream/stream.c), so these tests need no
# other gc tool.  Counts in comments are worked out by hand from the
# fixtures in tests/fixtures/nvbit/.

load helpers

NV="$FIX/nvbit"

# lanes N: the 32 lane slots of an access line, lanes 0..N-1 active.
lanes() {
	local i
	for ((i = 0; i < 32; i++)); do
		printf '0x%016x ' $((i < $1 ? 0x7f0000000000 + 4 * i : 0))
	done
}

# acc ID CTA SLOT OPCODE N: a 1.5.x/1.7.x access line with N active lanes.
acc() {
	printf 'MEMTRACE: CTX 0x00005581f3a2c0b0 - grid_launch_id %s - CTA %s - warp %s - %s - %s\n' \
		"$1" "$2" "$3" "$4" "$(lanes "$5")"
}

# launch NAME ID GRID: a LAUNCH line.
launch() {
	printf 'MEMTRACE: CTX 0x00005581f3a2c0b0 - LAUNCH - Kernel pc 0x00007f2a1c000100 - Kernel name %s - grid launch id %s - grid size %s - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0\n' \
		"$1" "$2" "$3"
}

@test "nvbit: detected from content, source_format and warp_size in the header" {
	for f in v155 v17 old nolaunch; do
		gc-import "$NV/$f.txt" >"$T/s"
		stream_htext "$T/s" | grep -q '^source_format=nvbit$'
		stream_htext "$T/s" | grep -q '^warp_size=32$'
	done
	gc-import --list-formats | grep -q '^nvbit '
}

@test "nvbit 1.5.5: kernels from LAUNCH lines, demangled names with commas, parentheses and ' - '" {
	imp "$NV/v155.txt"
	# LAUNCH: split on ' - <keyword> ', so the name keeps "(int)4 - (int)1".
	expect_eq "$(grep '^K 1 ' "$T/d")" 'K 1 "void scale<float, (int)4 - (int)1>(float*, float const*, std::pair<int, int>)" 2,2,1 64,1,1 24 512'
	expect_eq "$(grep '^K 2 ' "$T/d")" 'K 2 "kernel_info" 1,1,1 32,1,1 20 0'
	# The last LAUNCH line has no access lines: an empty kernel.
	expect_eq "$(grep '^K 3 ' "$T/d")" 'K 3 "empty_kernel()" 8,1,1 128,1,1 8 0'
	# Memory instructions: 6 (one line has no active lane), 2 (the
	# LDGSTS pair), 0; stream ids, a negative one as its 64-bit pattern.
	expect_eq "$(grep -A2 '^K 1 ' "$T/d" | tail -2 | tr '\n' ' ')" 'A 2 6 A 3 0 '
	expect_eq "$(grep -A2 '^K 2 ' "$T/d" | tail -2 | tr '\n' ' ')" 'A 2 2 A 3 94618018363472 '
	expect_eq "$(grep -A2 '^K 3 ' "$T/d" | tail -2 | tr '\n' ' ')" 'A 2 0 A 3 18446603336221196288 '
	# Kernel 1: 8 + 4 + 16 + 8 + 1 + 4 lanes; kernel 2: 4 + 4; kernel 3: none.
	expect_eq "$(grep '^[EZ]' "$T/d" | tr '\n' ' ')" 'E 1 41 E 2 8 E 3 0 Z 66 49 '
	# loads: 8 + 4 LDG, 4 LDS, 4 LDGSTS source; stores: 16 + 8 STG, 4
	# LDGSTS destination; atomics: 1.
	expect_eq "$(ndata ',load,')" 20
	expect_eq "$(ndata ',store,')" 28
	expect_eq "$(ndata ',atomic,')" 1
	# No PC in the format: 0 everywhere.
	expect_eq "$(ndata ',0x0,[0-9]+,(load|store|atomic),')" 49
}

@test "nvbit: hardware warp slots renumbered per CTA in order of first appearance; seq per warp" {
	imp "$NV/v155.txt"
	# CTA 0,0,0 (block 0) shows slots 5 then 2: warps 0 and 1.  Slot 5's
	# all-zero line is no instruction, so its STG.E.64 is seq 1.
	expect_eq "$(ndata '^0,0,[0-7],0x0,0,load,global,8,')" 8
	expect_eq "$(ndata '^0,1,(0|2|4|6|8|10|12|14|16|18|20|22|24|26|28|30),0x0,0,store,global,4,')" 16
	expect_eq "$(ndata '^0,0,[0-7],0x0,1,store,global,8,')" 8
	# CTA 1,0,0 is block 1 (grid 2,2,1): slot 9 is warp 0, LDG then LDS.
	expect_eq "$(ndata '^1,0,[0-3],0x0,0,load,global,8,')" 4
	expect_eq "$(ndata '^1,0,[0-3],0x0,1,load,shared,16,')" 4
	# CTA 0,1,0 is block 2; slot 5 there is warp 0 again.
	expect_eq "$(grep '^2,' "$T/d")" '2,0,0,0x0,0,atomic,global+bypass,4,0x7f2a1e600000'
	# Lane order and addresses of one line.
	expect_eq "$(grep -m1 '^0,1,' "$T/d")" '0,1,0,0x0,0,store,global,4,0x7f2a1e400000'
	expect_eq "$(grep '^0,1,30,' "$T/d")" '0,1,30,0x0,0,store,global,4,0x7f2a1e400078'
}

@test "nvbit: application output is skipped, also before a trace line on the same line" {
	imp "$NV/v155.txt"
	# "progress: 50% MEMTRACE: ..." holds the LDS line.
	expect_eq "$(grep ',shared,16,0x1[0-3]0$' "$T/d" | grep -c ',load,')" 4
	# The same trace without any application output gives the same stream.
	grep -a 'MEMTRACE' "$NV/v155.txt" | sed 's/^progress: 50% //' >"$T/clean.txt"
	gc-import <"$NV/v155.txt" >"$T/a"
	gc-import <"$T/clean.txt" >"$T/b"
	cmp "$T/a" "$T/b"
}

@test "nvbit: a lane address of 2^48 or more is refused at its line, or dropped as junk" {
	# Line 8, lane 1 (0x...008) made a double's bits, as an inactive
	# lane's register would hold.
	sed '8s/0x00007f2a1e000008/0x3ff0000000000000/' "$NV/v155.txt" >"$T/hi.txt"
	import_bad "$T/hi.txt" "$T/hi.txt:8: lane 1: address 0x3ff0000000000000 (8 bytes) reaches 2^48, where no GPU modelled has memory (an inactive lane's junk? --junk inactive drops it)"
	expect_empty "$(cat "$T/o")"
	# With above:N it is junk: 49 lanes less one, 0x5 kept; the line keeps
	# its other 7 lanes (warp slot 5 is the CTA's warp 0), lane 1 gone.
	sh_status 0 "gc-import -v --junk above:0xffffffffffff '$T/hi.txt' >'$T/s'"
	expect_eq "$(sed -n 2p "$T/err")" "gc-import: junk lanes dropped: 1 above 0xffffffffffff"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep '^Z' "$T/d")" 'Z 65 48'
	expect_eq "$(ndata '^0,0,[02-7],0x0,0,load,global,8,0x7f2a1e0000')" 7
	expect_eq "$(ndata '^0,0,1,0x0,0,load,global,8,0x7f2a1e00000')" 0
	expect_eq "$(ndata ',0x5$')" 1
	# An access whose last byte reaches 2^48 is refused too.
	sed '8s/0x00007f2a1e000008/0x0000fffffffffffc/' "$NV/v155.txt" >"$T/hi.txt"
	import_bad "$T/hi.txt" "$T/hi.txt:8: lane 1: address 0xfffffffffffc (8 bytes) reaches 2^48, where no GPU modelled has memory (an inactive lane's junk? --junk inactive drops it)"
}

@test "nvbit: LDGSTS lines come in pairs, shared destination then global source" {
	imp "$NV/v155.txt"
	expect_eq "$(sed -n '/^K 2 /,/^E 2 /p' "$T/d" | grep '^0,' | tr '\n' ' ')" \
		'0,0,0,0x0,0,store,shared,16,0x100 0,0,1,0x0,0,store,shared,16,0x110 0,0,2,0x0,0,store,shared,16,0x120 0,0,3,0x0,0,store,shared,16,0x130 0,0,0,0x0,1,load,global,16,0x7f2a1e800000 0,0,1,0x0,1,load,global,16,0x7f2a1e800010 0,0,2,0x0,1,load,global,16,0x7f2a1e800020 0,0,3,0x0,1,load,global,16,0x7f2a1e800030 '
}

@test "nvbit: junk lane addresses are kept by default and dropped with --junk drop" {
	imp "$NV/v155.txt"
	expect_eq "$(grep -c ',0x5$' "$T/d")" 1
	imp --junk keep "$NV/v155.txt"
	expect_eq "$(grep -c ',0x5$' "$T/d")" 1
	# Lane 3 of the STG.E.64 (0x5) goes; shared offsets (0x100...) stay.
	imp --junk drop "$NV/v155.txt"
	expect_eq "$(grep -c ',0x5$' "$T/d")" 0
	expect_eq "$(grep '^Z' "$T/d")" 'Z 65 48'
	expect_eq "$(ndata '^0,0,[0-7],0x0,1,store,global,8,')" 7
	expect_eq "$(ndata '^0,0,3,0x0,1,store')" 0
	expect_eq "$(ndata ',shared,')" 8
	# drop=BELOW moves the threshold: now the LDG lines at ...000 and
	# ...200 of kernel 1 are junk too (8 + 4 lanes), still not shared ones.
	imp --junk drop=0x7f2a1e000400 "$NV/v155.txt"
	expect_eq "$(grep '^E 1' "$T/d")" 'E 1 28'
	expect_eq "$(ndata ',shared,')" 8
	sh_status 2 "gc-import --junk maybe '$NV/v155.txt'"
	expect_eq "$(cat "$T/err" | head -1)" "gc-import: --junk: expected keep, drop, drop=BELOW, inactive, below:N, range:LO-HI or above:N, not 'maybe'"
	sh_status 2 "gc-import --junk drop=zz '$NV/v155.txt'"
	expect_match "$(cat "$T/err")" "^gc-import: --junk: 'zz' is not a number"
	[ ! -s "$T/out" ]
}

@test "nvbit 1.7: launch ids match, an empty launch between two, late lines of a launch" {
	imp "$NV/v17.txt"
	expect_eq "$(grep '^[KE]' "$T/d" | tr '\n' ' ')" \
		'K 1 "vecAdd(double*, double*, double*, int)" 2,1,1 64,1,1 16 0 E 1 112 K 2 "noop()" 1,1,1 32,1,1 4 0 E 2 0 K 3 "reduce<256u>(float const*, float*)" 1,1,1 256,1,1 32 1024 E 3 3 '
	# The STG.E.64 of launch 0 printed after the LAUNCH line of launch 1
	# still belongs to kernel 1: CTA 0,0,0 slot 0 is warp 0, its seq 1.
	expect_eq "$(ndata '^0,0,[0-9]+,0x0,1,store,global,8,')" 32
	# Slots 0 then 1 in CTA 0,0,0; slot 4 in CTA 1,0,0.
	expect_eq "$(ndata '^0,1,[0-9]+,0x0,0,load,global,8,')" 32
	expect_eq "$(ndata '^1,0,[0-9]+,0x0,0,load,global,8,')" 16
	# Generic stores and a reduction (L1 bypass) in kernel 3.
	expect_eq "$(sed -n '/^K 3 /,$p' "$T/d" | grep '^[0-9]' | tr '\n' ' ')" \
		'0,0,0,0x0,0,store,generic,4,0x7f10b0200000 0,0,31,0x0,0,store,generic,4,0x7f10b020007c 0,1,5,0x0,0,atomic,global+bypass,4,0x7f10b0300000 '
}

@test "nvbit: the older layout (no MEMTRACE prefix, no CTX, no launch id)" {
	imp "$NV/old.txt"
	expect_eq "$(grep '^[KEZ]' "$T/d" | tr '\n' ' ')" \
		'K 1 "histogram(unsigned int const*, unsigned int*, int)" 2,1,1 32,1,1 18 1024 E 1 66 K 2 "finish(unsigned int*)" 1,1,1 32,1,1 8 0 E 2 4 Z 81 70 '
	expect_eq "$(ndata '^1,0,[0-9]+,0x0,0,load,global,4,')" 32
	expect_eq "$(grep ',atomic,' "$T/d" | tr '\n' ' ')" \
		'0,0,0,0x0,1,atomic,shared,4,0x40 0,0,1,0x0,1,atomic,shared,4,0x44 '
	# STG.E.U8: one byte a lane.
	expect_eq "$(ndata ',store,global,1,')" 4
}

@test "nvbit: without LAUNCH lines, kernels split by launch id and geometry derived" {
	imp "$NV/nolaunch.txt"
	# Grid: largest CTA coordinates + 1 (2,0,0 and 0,1,0: 3,2,1); block:
	# 32 threads per warp slot of the busiest CTA (two slots: 64).
	expect_eq "$(grep '^[KE]' "$T/d" | tr '\n' ' ')" \
		'K 1 "launch_0" 3,2,1 64,1,1 0 0 E 1 96 K 2 "launch_1" 1,1,1 32,1,1 0 0 E 2 2 '
	# CTA 2,0,0 is block 2; CTA 0,1,0 is block 3, warps 0 and 1.
	expect_eq "$(ndata '^2,0,')" 32
	expect_eq "$(ndata '^3,0,')" 32
	expect_eq "$(ndata '^3,1,')" 32
	expect_eq "$(ndata '^0,0,[01],0x0,0,store,local,16,')" 2
}

@test "nvbit: gzip input gives the same stream as plain input; output is deterministic" {
	gzip -c "$NV/v155.txt" >"$T/v.txt.gz"
	gc-import <"$NV/v155.txt" >"$T/a"
	gc-import <"$T/v.txt.gz" >"$T/b"
	cmp "$T/a" "$T/b"
	gc-import <"$NV/v155.txt" >"$T/c"
	cmp "$T/a" "$T/c"
	imp "$T/v.txt.gz"
	expect_eq "$(grep '^Z' "$T/d")" 'Z 66 49'
}

@test "nvbit: every malformed line has its message" {
	local f=$T/bad.txt
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E 4 | sed 's/ 0x0000000000000000 $//'; } >"$f"
	import_bad "$f" "$f:2: expected 32 lane addresses, found 31"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E 4 | sed 's/ 0x0000000000000000 $/ 0x0 0x0/'; } >"$f"
	import_bad "$f" "$f:2: more than 32 lane addresses"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E 4 | sed 's/0x00007f0000000004/0x00007f00zz000004/'; } >"$f"
	import_bad "$f" "$f:2: bad lane address '0x00007f00zz000004'"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 IMAD.MOV.U32 4; } >"$f"
	import_bad "$f" "$f:2: 'IMAD.MOV.U32' is not a memory instruction"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E.2048 4; } >"$f"
	import_bad "$f" "$f:2: access width 256 from 'LDG.E.2048' is out of range"
	{ launch k 0 2,1,1; acc 0 2,0,0 1 LDG.E 4; } >"$f"
	import_bad "$f" "$f:2: CTA 2,0,0 is outside the grid 2,1,1 of its LAUNCH line"
	{ launch k 0 2,1,1; acc 0 0,0 1 LDG.E 4; } >"$f"
	import_bad "$f" "$f:2: malformed access line: bad CTA coordinates"
	{ launch k 0 2,1,1; acc 0 0,0,0 w1 LDG.E 4; } >"$f"
	import_bad "$f" "$f:2: malformed access line: bad warp slot"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E 4 | sed 's/ - warp / - wrp /'; } >"$f"
	import_bad "$f" "$f:2: malformed access line: expected ' - warp '"
	{ launch k 0 2,1,1; acc x 0,0,0 1 LDG.E 4; } >"$f"
	import_bad "$f" "$f:2: malformed access line: bad grid_launch_id"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E 4 | sed 's/ - LDG.E - / - LDG.E /'; } >"$f"
	import_bad "$f" "$f:2: malformed access line: expected ' - ' after the opcode"
	{ launch k 0 2,1,1; acc 0 0,0,0 1 LDG.E 4 | sed 's/CTX 0x00005581f3a2c0b0/CTX 0xzz/'; } >"$f"
	import_bad "$f" "$f:2: malformed MEMTRACE line: bad CTX field"
	{ launch k 0 2,x,1; } >"$f"
	import_bad "$f" "$f:1: malformed LAUNCH line: bad grid size '2,x,1'"
	{ launch k 0 2,1,1 | sed 's/ - nregs 8/ - nregs 99999/'; } >"$f"
	import_bad "$f" "$f:1: malformed LAUNCH line: bad nregs '99999'"
	{ launch k 0 2,1,1 | sed 's/ - Kernel name k//'; } >"$f"
	import_bad "$f" "$f:1: malformed LAUNCH line: no 'Kernel name' field"
	{ launch k 0 2,1,1 | sed 's/ - LAUNCH - / - LAUNCH - Knl /'; } >"$f"
	import_bad "$f" "$f:1: malformed LAUNCH line: unknown field 'Knl Kernel pc 0x00007f2a1c000100'"
	# 1.7 prints the launch's own id, 1.5.x the next one; nothing else.
	{ launch k 7 2,1,1; acc 3 0,0,0 1 LDG.E 4; } >"$f"
	import_bad "$f" "$f:2: access lines of grid launch 3 follow the LAUNCH line of grid launch 7"
	{ acc 0 0,0,0 1 LDG.E 4; acc 1 0,0,0 1 LDG.E 4; acc 0 0,0,0 1 LDG.E 4; } >"$f"
	import_bad "$f" "$f:3: grid launch 0 resumes after another launch's lines (interleaved launches are not supported)"
	# A CTA whose linear block id needs more than 32 bits stops the import.
	{ launch k 0 2147483647,65535,1; acc 0 5,0,0 1 LDG.E 2; acc 0 0,3,0 1 LDG.E 2; } >"$f"
	import_bad "$f" "$f: CTA 0,3,0 of kernel 1: its linear block id 6442450941 does not fit 32 bits"
	# The older layout: the same parser behind "CTA ".
	printf 'CTA 0,0,0 - warp 1 - LDG.E - 0x1\n' >"$f"
	import_bad "$f" "$f:1: expected 32 lane addresses, found 1"
}

@test "nvbit: --lenient skips malformed lines, counts them, keeps the rest" {
	local f=$T/mixed.txt
	{
		launch k 0 2,1,1
		acc 0 0,0,0 1 LDG.E 4
		acc 0 0,0,0 1 IMAD 4
		acc 0 5,0,0 1 LDG.E 4
		acc 0 1,0,0 1 STG.E 2
	} >"$f"
	sh_status 0 "gc-import --lenient '$f' >'$T/s'"
	expect_eq "$(cat "$T/err")" "gc-import: skipped 2 malformed lines (--lenient)"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep '^[EZ]' "$T/d" | tr '\n' ' ')" 'E 1 6 Z 11 6 '
	expect_eq "$(grep -A1 '^K 1 ' "$T/d" | tail -1)" 'A 2 2'
	sh_status 0 "gc-import -q --lenient '$f' >'$T/s'"
	[ ! -s "$T/err" ]
}

@test "nvbit: --format nvbit reads a trace whose start is only application output" {
	{
		for i in $(seq 3000); do echo "application line $i with some text to push the trace away"; done
		launch k 0 1,1,1
		acc 0 0,0,0 0 LDG.E 3
	} >"$T/late.txt"
	sh_status 1 "gc-import '$T/late.txt' >'$T/o'"
	expect_match "$(cat "$T/err")" "unknown trace format"
	imp --format nvbit "$T/late.txt"
	expect_eq "$(grep '^Z' "$T/d")" 'Z 8 3'
}

@test "nvbit: gc-stats agrees; the dump restores the stream exactly" {
	command -v gc-stats >/dev/null || skip "gc-stats not built"
	gc-import "$NV/v155.txt" >"$T/s"
	gc-stats --json "$T/s" >"$T/j"
	# bytes: loads 8x8 + 4x8 + 4x16 + 4x16, stores 16x4 + 8x8 + 4x16, atomic 4.
	expect_eq "$(jnum kernel_count) $(jnum records) $(jnum loads) $(jnum stores) $(jnum atomics) $(jnum bytes)" \
		'3 49 20 28 1 420'
	gc-stats --dump "$T/s" >"$T/dump.csv"
	grep -q '^2,,,,,,,kbegin,,,,,,,,"kernel_info",grid=1x1x1 block=32x1x1 regs=20 shmem=0 mem_insts=2 stream=94618018363472$' "$T/dump.csv"
	grep -q '^1,0,0,1,30,0x0,0,store,global,0x7f2a1e400078,4,' "$T/dump.csv"
	gc-import "$T/dump.csv" | cmp - "$T/s"
}

@test "nvbit: --stats and -v count lines, memory instructions, accesses" {
	# v155.txt: 3 kernels, 6 + 2 + 0 memory warp instructions, 41 + 8
	# lanes (the 1.5.5 test); NVBit traces no other instructions.
	local lines bytes
	lines=$(wc -l <"$NV/v155.txt")
	bytes=$(wc -c <"$NV/v155.txt")
	sh_status 0 "gc-import -v --stats '$T/s.json' '$NV/v155.txt' >/dev/null"
	expect_eq "$(tr -d ' \n' <"$T/s.json")" \
		"{\"tool\":\"gc-import\",\"input\":\"$NV/v155.txt\",\"gpu\":null,\"lines\":$lines,\"text_bytes\":$bytes,\"kernel_count\":3,\"instructions\":8,\"mem_instructions\":8,\"accesses\":49,\"bad_lines\":0}"
	expect_eq "$(cat "$T/err")" \
		"gc-import: $lines lines ($bytes bytes) read, 0 skipped; 3 kernels, 8 warp instructions, 8 memory warp instructions, 49 accesses"
}

@test "nvbit: kernel ids are 1..n in order of appearance, whatever the launch ids" {
	imp "$NV/v17.txt" "$NV/v155.txt"
	expect_eq "$(grep -c '^K' "$T/d")" 6 kernels
	expect_eq "$(grep '^K' "$T/d" | awk '{ printf "%s ", $2 }')" "1 2 3 4 5 6 " "kernel ids"
}
