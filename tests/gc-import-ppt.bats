#!/usr/bin/env bats
# gc-import: PPT-GPU memory traces (trace-formats §2.2).  The stream is
# decoded with od and awk (layout in lib/stream/stream.c), so these tests need no
# other gc tool.  Counts in comments are worked out by hand from the runs in
# tests/fixtures/ppt/ (app_config[.py] + memory_traces/).

load helpers

PPT="$FIX/ppt"

@test "ppt-gpu: detected from app_config names, ===== records, .mem names and record lines" {
	local m=$PPT/run-classic/memory_traces
	for f in run-classic/app_config run-subcore/app_config.py run-classic/memory_traces/kernel_1_block_0.mem; do
		gc-import "$PPT/$f" >"$T/s"
		stream_htext "$T/s" | grep -q '^source_format=ppt-gpu$'
	done
	# From content alone (standard input has no name).
	gc-import <"$m/kernel_1_block_0.mem" >"$T/s"
	stream_htext "$T/s" | grep -q '^source_format=ppt-gpu$'
	gc-import <"$PPT/run-subcore/memory_traces/kernel_1_block_0.mem" >"$T/s"
	stream_htext "$T/s" | grep -q '^source_format=ppt-gpu$'
	stream_htext "$T/s" | grep -q '^warp_size=32$'
	gc-import --list-formats | grep -q '^ppt-gpu '
}

@test "ppt-gpu: a whole run from app_config: kernels in order, blocks from file names" {
	imp "$PPT/run-classic/app_config"
	# kernel 1: blocks 0 and 2 (block 1 made no global access); kernel 2:
	# an entry without block files; kernel 3: block files without an entry
	# (geometry derived: one block, one warp).  kernel_1_sm_0.mem is not a
	# block file and is not read.
	expect_eq "$(grep '^[KE]' "$T/d" | tr '\n' ' ')" \
		'K 1 "vecAdd" 3,1,1 64,1,1 16 0 E 1 10 K 2 "transpose<float, 32>" 4,2,1 32,8,1 30 4224 E 2 0 K 3 "kernel_3" 1,1,1 32,1,1 0 0 E 3 3 '
	# Memory instructions 4, 0, 2; cuda_stream_id where app_config has it.
	expect_eq "$(grep -A2 '^K 1 ' "$T/d" | tail -2 | tr '\n' ' ')" 'A 2 4 A 3 0 '
	expect_eq "$(grep -A2 '^K 2 ' "$T/d" | tail -2 | tr '\n' ' ')" 'A 2 0 A 3 7 '
	expect_eq "$(grep -A1 '^K 3 ' "$T/d" | tail -1)" 'A 2 2'
	# loads 4 + 3 (block 0) + 1 + 2 (kernel 3), stores 2, atomics 1.
	expect_eq "$(ndata ',load,')" 10
	expect_eq "$(ndata ',store,')" 2
	expect_eq "$(ndata ',atomic,')" 1
	# Lanes are positions among the written (non-zero) addresses; one warp
	# (0) per block without warp ids, seq in file order; PC 0.
	expect_eq "$(sed -n '/^K 1 /,/^E 1 /p' "$T/d" | grep '^[0-9]' | cut -d, -f1-8 | tr '\n' ' ')" \
		'0,0,0,0x0,0,load,global,8 0,0,1,0x0,0,load,global,8 0,0,2,0x0,0,load,global,8 0,0,3,0x0,0,load,global,8 0,0,0,0x0,1,load,global,8 0,0,1,0x0,1,load,global,8 0,0,2,0x0,1,load,global,8 0,0,0,0x0,2,store,global,8 0,0,1,0x0,2,store,global,8 2,0,0,0x0,0,atomic,global+bypass,4 '
	expect_eq "$(sed -n '/^K 3 /,$p' "$T/d" | grep '^[0-9]' | tr '\n' ' ')" \
		'0,0,0,0x0,0,load,local,8,0xfffe00 0,0,0,0x0,1,load,global,4,0x7f3355000000 0,0,1,0x0,1,load,global,4,0x7f3355000004 '
}

@test "ppt-gpu: junk lane addresses kept by default, dropped with --junk drop[=BELOW]" {
	imp "$PPT/run-classic/app_config"
	expect_eq "$(grep ',0x5$' "$T/d")" '0,0,1,0x0,1,load,global,8,0x5'
	# drop (below 0x1000): 0x5 goes, its neighbours keep their lanes.
	imp --junk drop "$PPT/run-classic/app_config"
	expect_eq "$(ndata ',0x5$')" 0
	expect_eq "$(grep '^E 1' "$T/d")" 'E 1 9'
	expect_eq "$(ndata '^0,0,[02],0x0,1,load,global,8,0x7f3354cc38[01]0$')" 2
	# drop=16M: the local address 0xfffe00 is junk too; its instruction
	# has no lane left and is no instruction.
	imp --junk drop=16M "$PPT/run-classic/app_config"
	expect_eq "$(grep -A1 '^K 3' "$T/d" | tail -1)" 'A 2 1'
	expect_eq "$(grep '^E 3' "$T/d")" 'E 3 2'
	expect_eq "$(ndata ',local,')" 0
}

# run-bfs: cut from a PPT-GPU trace of Rodinia BFS (Kernel, 2 blocks),
# lanes shortened; the lanes that took no part hold junk of three kinds:
#   block 0  line 3  U8 load   4 real, 0x4 (below 0x1000), 0xf0000000 (range)
#            line 5  64 load   2 real, 0x3ff0000000000000, 0x3feeaf6000000007 (above 2^48)
#            line 7  32 load   real, 0xf0000004 (range), real, 0x18 (below)
#            line 9  32 store  1 real, 0x3fe5555560000000 (above)
#            line 11 U8 store  0x10 (below), 0xfffffff0 (range): no lane left
#   block 1  line 3  U8 load   2 real, 0xc (below)
#            line 5  64 load   1 real, 0x40f0000000000001 (above)
# below 4, range 3, above 4 (11 lanes); 12 real lanes in 6 instructions.

@test "ppt-gpu: BFS junk: an address of 2^48 or more is refused at its line; --junk inactive drops all three kinds" {
	local r=$PPT/run-bfs m=$PPT/run-bfs/memory_traces
	local why="(8 bytes) reaches 2^48, where no GPU modelled has memory (an inactive lane's junk? --junk inactive drops it)"
	import_bad "$r/app_config" "$m/kernel_1_block_0.mem:5: lane 2: address 0x3ff0000000000000 $why"
	expect_empty "$(cat "$T/o")"
	# drop (below 0x1000) keeps the high ones: still refused.
	import_bad "$r/app_config" "$m/kernel_1_block_0.mem:5: lane 2: address 0x3ff0000000000000 $why" --junk drop
	sh_status 0 "gc-import --junk inactive -v --stats '$T/j' '$r/app_config' >'$T/s'"
	expect_eq "$(sed -n 2p "$T/err")" \
		"gc-import: junk lanes dropped: 4 below 0x1000, 3 in 0xf0000000-0xffffffff, 4 above 0xffffffffffff"
	expect_eq "$(tr -d ' \n' <"$T/j" | sed 's/.*"bad_lines"://')" '0,"junk_below":4,"junk_range":3,"junk_above":4}'
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep '^[AE]' "$T/d" | tr '\n' ' ')" 'A 2 6 A 3 0 E 1 12 '
	# Lanes keep their positions: the edges load's real lanes are 0 and 2.
	expect_eq "$(grep ',2,load,' "$T/d" | tr '\n' ' ')" \
		'0,0,0,0x0,2,load,global,4,0x7f5a3c800010 0,0,2,0x0,2,load,global,4,0x7f5a3c800014 '
	# The same rules spelt out give the same records.
	imp --junk below:0x1000,range:0xf0000000-0xffffffff,above:0xffffffffffff "$r/app_config"
	expect_eq "$(grep -v '^Z' "$T/d")" "$(decode_stream "$T/s" | grep -v '^Z')"
	# The chain runs to the end: one request per instruction (each one's
	# real lanes share a 128-byte line), 5 loads and 1 store.
	command -v gc-coalesce >/dev/null || skip "gc-coalesce not built"
	gc-coalesce "$T/s" | gc-stats --json >"$T/j"
	expect_eq "$(jnum records) $(jnum loads) $(jnum stores)" '6 5 1'
	# --lenient with drop: the three lines with a lane above 2^48 are skipped.
	sh_status 0 "gc-import --lenient --junk drop '$r/app_config' >'$T/s'"
	expect_eq "$(cat "$T/err")" "gc-import: skipped 3 malformed lines (--lenient)"
	decode_stream "$T/s" >"$T/d"
	# left: U8 load 4 + 0xf0000000, edges 2 + 0xf0000004, U8 store
	# 0xfffffff0; block 1 U8 load 2: 11 lanes, 4 instructions.
	expect_eq "$(grep '^[AE]' "$T/d" | tr '\n' ' ')" 'A 2 4 A 3 0 E 1 11 '
}

@test "ppt-gpu: --junk rules: syntax, ranges, errors" {
	local r=$PPT/run-bfs
	# range:LO-HI includes both ends; above:N drops what is above N, so
	# 0x3fe5555560000000 itself is kept, and refused:
	sh_status 1 "gc-import --junk range:0xf0000000-0xf0000004,above:0x3fe5555560000000 '$r/app_config'"
	expect_match "$(cat "$T/err")" "kernel_1_block_0.mem:9: lane 1: address 0x3fe5555560000000 \(4 bytes\) reaches 2\^48"
	sh_status 0 "gc-import -v --junk range:0xf0000000-0xf0000004,above:0x3fe5555560000000,above:0xffffffffffff,below:0x11 '$r/app_config' >'$T/s'"
	expect_eq "$(sed -n 2p "$T/err")" \
		"gc-import: junk lanes dropped: 2 in 0xf0000000-0xf0000004, 3 above 0x3fe5555560000000, 1 above 0xffffffffffff, 3 below 0x11"
	# below:0x11 drops 0x4, 0x10 and 0xc, keeps 0x18; 0xfffffff0 is kept.
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(ndata ',0x(18|fffffff0)$')" 2
	expect_eq "$(ndata ',0x(4|10|c|f0000000|f0000004)$')" 0
	# --lenient: a line skipped for a lane above 2^48 counts none of its
	# junk lanes (0x8 here); the next line's 0x9 is counted.
	printf '\n=====\nLDG.E 0x8 0x3ff0000000000000 \n=====\nLDG.E 0x9 0x7f0000000000 \n' >"$T/kernel_4_block_0.mem"
	sh_status 0 "gc-import --lenient --junk drop -v '$T/kernel_4_block_0.mem' >'$T/s'"
	expect_eq "$(sed -n 2,3p "$T/err" | tr '\n' ' ')" "gc-import: junk lanes dropped: 1 below 0x1000 gc-import: skipped 1 malformed lines (--lenient) "
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep '^[0-9]' "$T/d")" '0,0,1,0x0,0,load,global,4,0x7f0000000000'
	# keep, after rules, drops nothing again (the last --junk counts).
	run_status 1 gc-import --junk inactive --junk keep "$r/app_config"
	sh_status 2 "gc-import --junk range:5 '$r/app_config'"
	expect_eq "$(head -1 "$T/err")" "gc-import: --junk: expected keep, drop, drop=BELOW, inactive, below:N, range:LO-HI or above:N, not 'range:5'"
	sh_status 2 "gc-import --junk range:9-5 '$r/app_config'"
	expect_match "$(head -1 "$T/err")" "^gc-import: --junk: 5 is out of range"
	sh_status 2 "gc-import --junk below:0 '$r/app_config'"
	expect_match "$(head -1 "$T/err")" "^gc-import: --junk: 0 is out of range"
	sh_status 2 "gc-import --junk inactive,inactive,inactive '$r/app_config'"
	expect_eq "$(head -1 "$T/err")" "gc-import: --junk: 'inactive,inactive,inactive' has more than 8 rules"
	expect_empty "$(cat "$T/out")"
}

@test "ppt-gpu: an empty .mem file is empty input; a kernel without accesses is an empty kernel" {
	: >"$T/kernel_1_block_0.mem"
	import_bad "$T/kernel_1_block_0.mem" "$T/kernel_1_block_0.mem: empty input"
	expect_empty "$(cat "$T/o")"
	# A record with no address, and one whose lanes are all junk: no
	# instruction, a kernel of 0 records that the chain carries.
	printf '\n=====\n' >"$T/kernel_2_block_0.mem"
	imp "$T/kernel_2_block_0.mem"
	expect_eq "$(grep -v '^Z' "$T/d" | tr '\n' ' ')" 'K 2 "kernel_2" 1,1,1 32,1,1 0 0 A 2 0 E 2 0 '
	printf '\n=====\nLDG.E 0x8 0x3ff0000000000000 \n' >"$T/kernel_3_block_0.mem"
	imp --junk inactive "$T/kernel_3_block_0.mem"
	expect_eq "$(grep -v '^Z' "$T/d" | tr '\n' ' ')" 'K 3 "kernel_3" 1,1,1 32,1,1 0 0 A 2 0 E 3 0 '
	command -v gc-coalesce >/dev/null || skip "gc-coalesce not built"
	gc-coalesce "$T/s" | gc-stats --json >"$T/j"
	expect_eq "$(jnum kernel_count) $(jnum records)" '1 0'
}

@test "ppt-gpu: the subcore syntax, one record a line without 0x" {
	imp "$PPT/run-subcore/app_config.py"
	expect_eq "$(grep '^[KEZ]' "$T/d" | tr '\n' ' ')" 'K 1 "saxpy" 2,1,1 128,1,1 12 0 E 1 8 Z 13 8 '
	expect_eq "$(ndata '^0,0,[0-2],0x0,0,load,global,4,')" 3
	expect_eq "$(ndata '^0,0,0,0x0,1,load,global,4,0x7f0000000100$')" 1
	expect_eq "$(ndata '^0,0,[01],0x0,2,store,global,4,')" 2
	expect_eq "$(grep '^1,' "$T/d" | tr '\n' ' ')" \
		'1,0,0,0x0,0,load,global,16,0x7f0000001000 1,0,1,0x0,0,load,global,16,0x7f0000001010 '
}

@test "ppt-gpu: warp ids (--ppt-level 4), sticky hex, slots numbered per block" {
	imp --ppt-level 5 "$PPT/run-warp/app_config.py"
	expect_eq "$(grep '^[KE]' "$T/d" | tr '\n' ' ')" 'K 1 "stencil" 2,1,1 1024,1,1 40 0 E 1 9 '
	expect_eq "$(grep -A1 '^K 1' "$T/d" | tail -1)" 'A 2 6'
	# Block 0: the first record's "12" is decimal; then the stream is hex:
	# "10" is slot 16, "1a" slot 26, "c" slot 12 again.  Slots in order of
	# first appearance: 12 -> warp 0, 16 -> 1, 26 -> 2.
	expect_eq "$(grep '^0,' "$T/d" | cut -d, -f1-6 | tr '\n' ' ')" \
		'0,0,0,0x0,0,load 0,0,1,0x0,0,load 0,1,0,0x0,0,load 0,2,0,0x0,0,store 0,2,1,0x0,0,store 0,2,2,0x0,0,store 0,0,0,0x0,1,load '
	# Block 1 is another stream: decimal again.  Its first record has no
	# address, so no hex yet: "10" is decimal 10, then "a" is 10 in hex.
	# Slot 11 came first (warp 0, no access), slot 10 is warp 1.
	expect_eq "$(grep '^1,' "$T/d" | tr '\n' ' ')" \
		'1,1,0,0x0,0,load,global,8,0x7f0000000300 1,1,0,0x0,1,load,global,8,0x7f0000000400 '
}

@test "ppt-gpu: predicate fields (--ppt-level 8): lanes from the active mask, predicated-off lanes dropped" {
	imp --ppt-level 13 "$PPT/run-pred/app_config.py"
	# 1: 4 addresses, active f: lanes 0-3; predicate 3: lanes 2, 3 off.
	# 2: active f0: lanes 4-7, all on.  3: 3 addresses but 32 active
	# lanes: positions 0-2, all kept ("1f" is the hex count).
	expect_eq "$(grep '^[0-9]' "$T/d" | tr '\n' ' ')" \
		'0,0,0,0x0,0,load,global,4,0x7f1000000000 0,0,1,0x0,0,load,global,4,0x7f1000000004 0,0,4,0x0,1,store,global,4,0x7f1000000100 0,0,5,0x0,1,store,global,4,0x7f1000000104 0,0,6,0x0,1,store,global,4,0x7f1000000108 0,0,7,0x0,1,store,global,4,0x7f100000010c 0,0,0,0x0,2,load,global,4,0x7f1000000200 0,0,1,0x0,2,load,global,4,0x5 0,0,2,0x0,2,load,global,4,0x7f1000000208 '
	imp --ppt-level 13 --junk drop "$PPT/run-pred/app_config.py"
	expect_eq "$(grep '^Z' "$T/d")" 'Z 13 8'
}

@test "ppt-gpu: one .mem file is one block; geometry from --app-config" {
	local m=$PPT/run-classic/memory_traces
	imp "$m/kernel_1_block_2.mem"
	# Without app_config: the smallest 1-D grid holding block 2.
	expect_eq "$(grep -v '^[AZ]' "$T/d" | tr '\n' ' ')" \
		'K 1 "kernel_1" 3,1,1 32,1,1 0 0 2,0,0,0x0,0,atomic,global+bypass,4,0x7f3354f00000 E 1 1 '
	imp --app-config "$PPT/run-classic/app_config" "$m/kernel_1_block_2.mem"
	expect_eq "$(grep '^K' "$T/d")" 'K 1 "vecAdd" 3,1,1 64,1,1 16 0'
	# Several files: one kernel each, in command-line order; the id is
	# the tracer's kernel number K of kernel_K_block_B.mem.
	imp "$m/kernel_3_block_0.mem" "$m/kernel_1_block_0.mem"
	expect_eq "$(grep '^[KE]' "$T/d" | tr '\n' ' ')" \
		'K 3 "kernel_3" 1,1,1 32,1,1 0 0 E 3 3 K 1 "kernel_1" 1,1,1 32,1,1 0 0 E 1 9 '
	# Standard input: block 0 of a kernel named after the input.
	gc-import <"$m/kernel_1_block_2.mem" >"$T/s"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep '^[0-9K]' "$T/d" | tr '\n' ' ')" \
		'K 1 "stdin" 1,1,1 32,1,1 0 0 0,0,0,0x0,0,atomic,global+bypass,4,0x7f3354f00000 '
	# A block beyond the app_config grid.
	printf '\n=====\nLDG.E 0x7f0000000000 \n' >"$T/kernel_1_block_5.mem"
	import_bad "$T/kernel_1_block_5.mem" "$T/kernel_1_block_5.mem:3: block 5 is outside the grid of kernel 1 (3 blocks)" \
		--app-config "$PPT/run-classic/app_config"
}

@test "ppt-gpu: runs and files that cannot be read" {
	import_bad "$PPT/run-classic/memory_traces/kernel_1_sm_0.mem" \
		"$PPT/run-classic/memory_traces/kernel_1_sm_0.mem: per-SM trace files carry no block ids; import the per-block files (ENV_TRACING_LEVEL bit 1)"
	mkdir "$T/run"
	cp "$PPT/run-subcore/app_config.py" "$T/run/"
	import_bad "$T/run/app_config.py" "$T/run/app_config.py: no block files: $T/run/memory_traces: No such file or directory"
	mkdir "$T/run/memory_traces"
	cp "$PPT/run-subcore/memory_traces/kernel_1_block_0.mem" "$T/run/memory_traces/"
	gzip -c "$PPT/run-subcore/memory_traces/kernel_1_block_0.mem" >"$T/run/memory_traces/kernel_1_block_0.mem.gz"
	import_bad "$T/run/app_config.py" "$T/run/memory_traces/kernel_1_block_0.mem and $T/run/memory_traces/kernel_1_block_0.mem.gz hold the same block"
}

@test "ppt-gpu: every malformed record line has its message" {
	local f=$T/kernel_1_block_0.mem
	printf '\n=====\nIMAD 0x7f0000000000 \n' >"$f"
	import_bad "$f" "$f:3: 'IMAD' is not a memory instruction"
	printf '\n=====\nLDG.E.2048 0x7f0000000000 \n' >"$f"
	import_bad "$f" "$f:3: access width 256 from 'LDG.E.2048' is out of range"
	printf 'LDG.E 7f00 7g00 \n' >"$f"
	import_bad "$f" "$f:1: bad address '7g00'"
	printf 'LDG.E %s\n' "$(seq -s ' ' 4096 4128)" >"$f"
	import_bad "$f" "$f:1: 33 addresses for one warp"
	printf 'LDGSTS.E.128 %s\n' "$(seq -s ' ' 4096 4160)" >"$f"
	import_bad "$f" "$f:1: more than 64 addresses"
	printf 'LDG.E x1 7f00 \n' >"$f"
	import_bad "$f" "$f:1: bad warp id 'x1'" --ppt-level 4
	printf 'LDG.E 99 f f 7f00 \n' >"$f"
	import_bad "$f" "$f:1: bad predicated-off thread count" --ppt-level 8
	printf 'LDG.E 1 zz f 7f00 \n' >"$f"
	import_bad "$f" "$f:1: bad active mask" --ppt-level 8
	printf 'LDG.E 1 f 1ffffffff 7f00 \n' >"$f"
	import_bad "$f" "$f:1: bad predicate mask" --ppt-level 8
}

@test "ppt-gpu: every malformed app_config has its message" {
	local f=$T/app_config.py
	mkdir "$T/memory_traces"
	printf 'kernel_1 : {}\n' >"$f"
	import_bad "$f" "$f:1: expected '=' after 'kernel_1'"
	printf 'kernel_1 = {\n  "kernel_name" : "k",\n  "grid_size" : 0,\n}\n' >"$f"
	import_bad "$f" "$f:3: \"grid_size\" must be a positive number or a list of up to 3"
	printf 'kernel_1 = { "block_size" : [1, 2, 3, 4] }\n' >"$f"
	import_bad "$f" "$f:1: \"block_size\" must be a positive number or a list of up to 3"
	printf 'kernel_1 = { "num_registers" : 70000 }\n' >"$f"
	import_bad "$f" "$f:1: \"num_registers\" must be a number from 0 to 65535"
	printf 'kernel_1 = { "kernel_name" : 5 }\n' >"$f"
	import_bad "$f" "$f:1: \"kernel_name\" must be a string"
	printf 'kernel_1 = { "kernel_name" : "k }\n' >"$f"
	import_bad "$f" "$f:1: unterminated string"
	printf 'kernel_1 = { "grid_size" : 12x }\n' >"$f"
	import_bad "$f" "$f:1: bad number '12x'"
	printf 'kernel_1 = { "grid_size" : 2 "block_size" : 32 }\n' >"$f"
	import_bad "$f" "$f:1: expected ',' or '}'"
	printf 'kernel_1 = 5\n' >"$f"
	import_bad "$f" "$f:1: 'kernel_1' must be a dictionary"
	printf 'kernel_1 = {\n' >"$f"
	import_bad "$f" "$f:2: unexpected end of file"
	printf '# a comment\n= 5\n' >"$f"
	import_bad "$f" "$f:2: expected NAME = VALUE"
	# Python's other values are accepted and ignored.
	printf '# run\nkernel_1 = {"kernel_name": '"'"'k'"'"', "extra": (True, None, [1, "x"]),}\napp_kernels_id = [1]\n' >"$f"
	imp "$f"
	expect_eq "$(grep '^K' "$T/d")" 'K 1 "k" 1,1,1 32,1,1 0 0'
}

@test "ppt-gpu: --lenient skips malformed lines, counts them, keeps the rest" {
	local f=$T/kernel_4_block_1.mem
	printf 'LDG.E 7f00 7f04 \nFOO 7f00 \nLDG.E 7f10 zz \nSTG.E 7f20 \n' >"$f"
	sh_status 0 "gc-import --lenient '$f' >'$T/s'"
	expect_eq "$(cat "$T/err")" "gc-import: skipped 2 malformed lines (--lenient)"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(grep -v '^[AZ]' "$T/d" | tr '\n' ' ')" \
		'K 4 "kernel_4" 2,1,1 32,1,1 0 0 1,0,0,0x0,0,load,global,4,0x7f00 1,0,1,0x0,0,load,global,4,0x7f04 1,0,0,0x0,1,store,global,4,0x7f20 E 4 3 '
}

@test "ppt-gpu: gzip block files give the same stream as plain ones; output is deterministic" {
	cp -r "$PPT/run-classic" "$T/plain"
	cp -r "$PPT/run-classic" "$T/gz"
	gzip "$T/gz/memory_traces/"*.mem "$T/gz/app_config"
	(cd "$T/plain" && gc-import app_config >../a)
	(cd "$T/gz" && gc-import app_config.gz >../b)
	decode_stream "$T/a" >"$T/da"
	decode_stream "$T/b" >"$T/db"
	diff "$T/da" "$T/db"
	(cd "$T/plain" && gc-import app_config >../c)
	cmp "$T/a" "$T/c"
}

@test "ppt-gpu: gc-stats agrees; the dump restores the stream exactly" {
	command -v gc-stats >/dev/null || skip "gc-stats not built"
	gc-import "$PPT/run-classic/app_config" >"$T/s"
	gc-stats --json "$T/s" >"$T/j"
	# bytes: loads 7x8 + 8 + 2x4, stores 2x8, atomic 4.
	expect_eq "$(jnum kernel_count) $(jnum records) $(jnum loads) $(jnum stores) $(jnum atomics) $(jnum bytes)" \
		'3 13 10 2 1 92'
	gc-stats --dump "$T/s" >"$T/dump.csv"
	grep -q '^2,,,,,,,kbegin,,,,,,,,"transpose<float, 32>",grid=4x2x1 block=32x8x1 regs=30 shmem=4224 mem_insts=0 stream=7$' "$T/dump.csv"
	grep -q '^1,0,2,0,0,0x0,0,atomic,global,0x7f3354f00000,4,' "$T/dump.csv"
	gc-import "$T/dump.csv" | cmp - "$T/s"
}

@test "ppt-gpu: --stats and -v count the lines of app_config and every block file read" {
	# The whole run: kernels 1-3 with 4, 0 and 2 memory instructions, 13
	# lanes (the app_config test); kernel_1_sm_0.mem is not read.
	local r=$PPT/run-classic lines bytes f
	lines=$(wc -l <"$r/app_config")
	bytes=$(wc -c <"$r/app_config")
	# (awk counts a last line without its newline, as the block files end)
	for f in kernel_1_block_0 kernel_1_block_2 kernel_3_block_0; do
		lines=$((lines + $(awk 'END { print NR }' "$r/memory_traces/$f.mem")))
		bytes=$((bytes + $(wc -c <"$r/memory_traces/$f.mem")))
	done
	sh_status 0 "gc-import -v --stats '$T/s.json' '$r/app_config' >/dev/null"
	expect_eq "$(tr -d ' \n' <"$T/s.json")" \
		"{\"tool\":\"gc-import\",\"input\":\"$r/app_config\",\"gpu\":null,\"lines\":$lines,\"text_bytes\":$bytes,\"kernel_count\":3,\"instructions\":6,\"mem_instructions\":6,\"accesses\":13,\"bad_lines\":0}"
	expect_eq "$(cat "$T/err")" \
		"gc-import: $lines lines ($bytes bytes) read, 0 skipped; 3 kernels, 6 warp instructions, 6 memory warp instructions, 13 accesses"
}
