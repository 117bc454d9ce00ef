#!/usr/bin/env bats
# gc-clone: proxies generated from profiles (seed 002's Algorithms 1 and
# 2).  The hand-written profiles are in tests/fixtures/profiles/; the
# streams are decoded with od and awk (decode_stream, apart from the
# library), so the records below are worked out from the profiles alone.

load helpers

P="$FIX/profiles"

# data FILE: the data lines of decode_stream (BLOCK,WARP,LANE,PC,SEQ,OP,
# SPACE,SIZE,ADDR).
data() {
	decode_stream "$1" | grep -E '^[0-9]'
}

# first_kernel FILE: the first line of decode_stream (the first kernel's
# begin), from the stream's first 8 records only.
first_kernel() {
	local h
	h=($(od -An -tu2 -j12 -N8 "$1"))
	head -c $((h[0] + 65536 * h[1] + 8 * h[3])) "$1" >"$T/first8"
	decode_stream "$T/first8" | sed -n 1p
}

# dumpdata FILE: gc-stats --dump without its header lines: the kernels'
# begin and end lines and every record, the columns of the stream.
dumpdata() {
	gc-stats --dump "$1" | grep -v '^#'
}

# jv KEY FILE: the first value of "KEY": in a JSON file.
jv() {
	grep -m1 "\"$1\":" "$2" | sed 's/.*: *//; s/,$//; s/^"\(.*\)"$/\1/'
}

@test "gc-clone: the mandatory command-line cases" {
	common_cli_cases gc-clone --seed
}

@test "gc-clone: --help and the manual list the same options" {
	help_matches_man gc-clone
}

@test "gc-clone: usage errors exit 2 and write nothing" {
	local bad
	for bad in "" "--scale 0 $P/vecadd.gcp" "--scale 1001 $P/vecadd.gcp" \
		"--scale -1 $P/vecadd.gcp" "--ablate pq $P/vecadd.gcp" "--ablate q,,pr $P/vecadd.gcp" \
		"--kernel x $P/vecadd.gcp" "--kernel 1, $P/vecadd.gcp" "$P/vecadd.gcp $P/loop.gcp"; do
		sh_status 2 "gc-clone $bad"
		[ ! -s "$T/out" ]
		expect_match "$(cat "$T/err")" "^gc-clone: "
	done
	sh_status 2 "gc-clone --ablate pq '$P/vecadd.gcp'"
	expect_match "$(cat "$T/err")" "^gc-clone: --ablate: 'pq' is not q, runs, pe, pa, pr or extent"
	sh_status 2 "gc-clone"
	expect_match "$(cat "$T/err")" "^gc-clone: missing PROFILE"
	sh_status 2 "gc-clone --scale 0 '$P/vecadd.gcp'"
	expect_match "$(cat "$T/err")" "^gc-clone: --scale: 0 is not above 0"
}

# vecadd.gcp: 2 blocks of 8 threads, warps of 4; threads 0 to 11 run
# 0x10 load A[i], 0x20 load B[i], 0x30 store C[i] at seq 0, 1, 2, with
# i = 8 * block + 4 * warp + lane (P_E: +4 in tx, +32 from block to
# block); threads 12 to 15 (block 1, warp 1) make no access.
@test "gc-clone: a vecadd profile gives its records, by hand" {
	gc-clone "$P/vecadd.gcp" >"$T/s"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(sed -n 1p "$T/d")" 'K 1 "vecadd" 2,1,1 8,1,1 32 0'
	expect_eq "$(sed -n 2p "$T/d")" "A 2 9"
	awk 'BEGIN {
		split("0x10 0x20 0x30", pc, " "); split("4096 4352 4608", base, " ")
		for (bw = 0; bw < 3; bw++)
			for (s = 0; s < 3; s++)
				for (l = 0; l < 4; l++)
					printf "%d,%d,%d,%s,%d,%s,global,4,0x%x\n", int(bw / 2), bw % 2, l,
						pc[s + 1], s, s == 2 ? "store" : "load",
						base[s + 1] + 4 * (4 * bw + l)
	}' >"$T/want"
	expect_same <(data "$T/s") "$T/want" records
	expect_eq "$(sed -n 3p "$T/d")" "0,0,0,0x10,0,load,global,4,0x1000"
	expect_eq "$(grep -c . "$T/want")" 36
	expect_eq "$(tail -n 2 "$T/d" | tr '\n' ' ')" "E 1 36 Z 40 36 "
}

# loop.gcp, one warp of 2 lanes (lane l: +4l):
#   seq 0-2  inst 0: 0x1000, then +64 (P_A) twice: 0x1040, 0x1080
#   seq 3    inst 1 first: B = 0x2000
#   seq 4    P_R draws 1: the stack (0x2000, 0x1080, ...) has 0x1080 at
#            depth 1 and 0x1080 - 0x2000 = -3968 is in P_A: reuse 0x1080
#   seq 5    depth 1 is now 0x2000; 0x2000 - 0x1080 = +3968 is not in P_A:
#            0x1080 - 3968 = 0x100, outside [0x2000, 0x2032): wrapped by
#            the extent's 50 bytes rounded down to a multiple of the
#            access size, 48: 0x100 - 0x2000 = -7936 = 32 mod 48: 0x2020
#            (lane 1: 0x104 -> -7932 = 36 mod 48: 0x2024)
@test "gc-clone: strides, reuse and the extent, by hand" {
	gc-clone "$P/loop.gcp" >"$T/s"
	cat >"$T/want" <<-EOF
	0,0,0,0x100,0,load,global,4,0x1000
	0,0,1,0x100,0,load,global,4,0x1004
	0,0,0,0x100,1,load,global,4,0x1040
	0,0,1,0x100,1,load,global,4,0x1044
	0,0,0,0x100,2,load,global,4,0x1080
	0,0,1,0x100,2,load,global,4,0x1084
	0,0,0,0x108,3,load,global,4,0x2000
	0,0,1,0x108,3,load,global,4,0x2004
	0,0,0,0x108,4,load,global,4,0x1080
	0,0,1,0x108,4,load,global,4,0x1084
	0,0,0,0x108,5,load,global,4,0x2020
	0,0,1,0x108,5,load,global,4,0x2024
	EOF
	expect_same <(data "$T/s") "$T/want" records
	expect_eq "$(decode_stream "$T/s" | sed -n 1p)" 'K 5 "loop" 1,1,1 2,1,1 16 0'
}

# --ablate pr: no reuse.  seq 4: 0x2000 - 3968 = 0x1080, wrapped:
# -3968 = 16 mod 48: 0x2010; seq 5: 0x2010 - 3968 = 0x1090, -3952 = 32
# mod 48: 0x2020.  --ablate extent: the reuse at seq 4, then 0x1080 -
# 3968 = 0x100 unwrapped.
@test "gc-clone: --ablate pr and extent, by hand" {
	gc-clone --ablate pr "$P/loop.gcp" >"$T/s"
	expect_eq "$(data "$T/s" | sed -n '9,12p' | cut -d, -f9 | tr '\n' ' ')" \
		"0x2010 0x2014 0x2020 0x2024 "
	expect_eq "$(hkey "$T/s" clone.ablate)" pr
	gc-clone --ablate extent "$P/loop.gcp" >"$T/s"
	expect_eq "$(data "$T/s" | sed -n '9,12p' | cut -d, -f9 | tr '\n' ' ')" \
		"0x1080 0x1084 0x100 0x104 "
	# both: a stride from 0x2000 is 0x1080 too; then 0x100
	gc-clone --ablate extent,pr "$P/loop.gcp" >"$T/s"
	expect_eq "$(data "$T/s" | sed -n '9,12p' | cut -d, -f9 | tr '\n' ' ')" \
		"0x1080 0x1084 0x100 0x104 "
	expect_eq "$(hkey "$T/s" clone.ablate)" pr,extent
}

# --ablate q: all 16 threads of vecadd.gcp take profile 0; threads 12-15
# (block 1, warp 1) get 0x1020 + 16 = 0x1030 on: outside A's extent
# [0x1000, 0x1030), so they wrap to 0x1000 (with extent too: 0x1030).
@test "gc-clone: --ablate q gives every thread the first profile" {
	gc-clone --ablate q "$P/vecadd.gcp" >"$T/s"
	expect_eq "$(data "$T/s" | grep -c .)" 48
	expect_eq "$(data "$T/s" | grep '^1,1,' | grep ',0x10,' | cut -d, -f9 | tr '\n' ' ')" \
		"0x1000 0x1004 0x1008 0x100c "
	gc-clone --ablate q,extent "$P/vecadd.gcp" >"$T/s"
	expect_eq "$(data "$T/s" | grep '^1,1,' | grep ',0x10,' | cut -d, -f9 | tr '\n' ' ')" \
		"0x1030 0x1034 0x1038 0x103c "
	expect_eq "$(hkey "$T/s" clone.ablate)" q,extent
	# runs: drawn from Q instead, 12 of 16 threads active on average
	gc-clone --ablate runs --stats "$T/j" "$P/vecadd.gcp" >"$T/s"
	expect_eq "$(jv threads "$T/j")" 16
	[ $(($(jv accesses "$T/j") % 3)) -eq 0 ]
}

@test "gc-clone: the header" {
	gc-clone --seed 42 "$P/vecadd.gcp" >"$T/s"
	expect_eq "$(hkey "$T/s" source_format)" gc-clone
	expect_eq "$(hkey "$T/s" warp_size)" 4
	expect_eq "$(hkey "$T/s" clone.seed)" 42
	expect_eq "$(hkey "$T/s" clone.scale)" 1
	expect_eq "$(hkey "$T/s" clone.profile_source_format)" gc-gen
	expect_empty "$(hkey "$T/s" clone.ablate)"
	expect_match "$(hkey "$T/s" provenance)" "^gc-clone --seed 42 "
	gc-clone --scale 0.5 "$P/loop.gcp" >"$T/s"
	expect_eq "$(hkey "$T/s" clone.scale)" 0.5
	expect_eq "$(hkey "$T/s" clone.profile_source_format)" -
	gc-clone --gpu volta-v100 --stats "$T/j" "$P/loop.gcp" >"$T/s"
	expect_eq "$(hkey "$T/s" gpu)" volta-v100
	expect_eq "$(sed -n 4p "$T/j")" '  "gpu": "volta-v100",'
	expect_eq "$(hkey "$T/s" gpu.l1.line)" 128
}

@test "gc-clone: the same seed gives the same bytes, another seed other records" {
	gc-clone "$P/mixed.gcp" >"$T/a"
	gc-clone "$P/mixed.gcp" >"$T/b"
	cmp "$T/a" "$T/b"
	# the header's provenance differs, not the records
	gc-clone --seed 1 "$P/mixed.gcp" >"$T/b"
	expect_same <(dumpdata "$T/a") <(dumpdata "$T/b") "--seed 1"
	gc-clone <"$P/mixed.gcp" - >"$T/c"
	expect_same <(dumpdata "$T/a") <(dumpdata "$T/c") stdin
	gc-clone --seed 2 "$P/mixed.gcp" >"$T/d"
	expect_differ <(dumpdata "$T/a") <(dumpdata "$T/d") "seeds 1 and 2"
	gc-clone --seed 2 "$P/mixed.gcp" >"$T/e"
	cmp "$T/d" "$T/e"
	# kernel 7 has one value per context: no seed changes it
	expect_same <(dumpdata "$T/a" | grep '^7,') <(dumpdata "$T/d" | grep '^7,') "kernel 7"
}

# mixed.gcp kernel 1: each thread draws profile 0 (4 accesses, 3/4 of
# the threads) or 1 (2 accesses); at --scale 1000, 32000 threads make
# about 4 * 24000 + 2 * 8000 = 112000 accesses (sd about 155).  P_R
# never reuses (depth 0 is the previous address of the same instruction,
# a stride of 0 P_A lacks; depth 2 is deeper than the stack), so every
# later access of inst 0 strides: 128 with probability 30/52.
@test "gc-clone: profiles drawn from Q and strides from P_A in proportion" {
	gc-clone --scale 1000 --kernel 1 --stats "$T/j" "$P/mixed.gcp" >"$T/s"
	local n
	n=$(jv accesses "$T/j")
	expect_num "$n"
	[ "$n" -gt 111000 ] && [ "$n" -lt 113000 ]
	expect_eq "$(jv blocks "$T/j")" 4000
	# strides of inst 0 (pc 0x10) within each thread (block, warp, lane),
	# modulo the extent's 8448 bytes (a stride may wrap): 128 in 30/52 of
	# them, within 0.01 (sd 0.0023 for about 48000 strides)
	data "$T/s" | awk -F, '
	function hex(s,    v, i) {
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$4 == "0x10" {
		k = $1 "," $2 "," $3; a = hex($9)
		if (k in last) { n++; if ((a - last[k] + 8448) % 8448 == 128) s128++ }
		last[k] = a
	} END { d = s128 / n - 30 / 52; print ((n > 40000 && d < 0.01 && d > -0.01) ? "near" : n " " s128 / n) }' >"$T/f"
	expect_eq "$(cat "$T/f")" near
}

@test "gc-clone: --kernel picks kernels by id, with the records of a full run" {
	gc-clone "$P/mixed.gcp" >"$T/all"
	gc-clone --kernel 7 "$P/mixed.gcp" >"$T/k7"
	expect_eq "$(decode_stream "$T/k7" | grep -c '^K ')" 1
	expect_eq "$(decode_stream "$T/k7" | grep '^K ')" 'K 7 "grid2d" 2,2,1 4,1,1 8 0'
	expect_same <(dumpdata "$T/k7" | grep '^7,') <(dumpdata "$T/all" | grep '^7,') "kernel 7"
	gc-clone --kernel 1 "$P/mixed.gcp" >"$T/k1"
	expect_same <(dumpdata "$T/k1" | grep '^1,') <(dumpdata "$T/all" | grep '^1,') "kernel 1"
	# kernel 9, kernel 1 under another id, draws its own numbers, the
	# same alone as after kernels 1 and 7
	gc-clone --kernel 9 "$P/mixed.gcp" >"$T/k9"
	expect_same <(dumpdata "$T/k9" | grep '^9,') <(dumpdata "$T/all" | grep '^9,') "kernel 9"
	expect_differ <(dumpdata "$T/all" | grep '^9,0,' | cut -d, -f2-) \
		<(dumpdata "$T/all" | grep '^1,0,' | cut -d, -f2-) "the records of kernels 1 and 9"
	gc-clone --kernel 1,7,9 "$P/mixed.gcp" >"$T/k179"
	cmp <(dumpdata "$T/k179") <(dumpdata "$T/all")
	gc-clone --kernel 9 --kernel 7,1 "$P/mixed.gcp" >"$T/k971"
	cmp <(dumpdata "$T/k971") <(dumpdata "$T/all")
	sh_status 1 "gc-clone --kernel 3 '$P/mixed.gcp'"
	expect_eq "$(cat "$T/err")" "gc-clone: $P/mixed.gcp: --kernel 3: no such kernel in the profile"
	[ ! -s "$T/out" ]
}

# vecadd.gcp has 2 blocks of 8 threads.  --scale 0.5: 1 block; thread t
# takes the profile of thread 2t (runs): threads 0-5 vecadd's, 6-7
# (threads 12, 14) none: 18 accesses at A + 4t; mem_insts 9 * 0.5 = 4.5
# rounds to 5.  --scale 2: 4 blocks, thread t takes thread t/2's
# profile: threads 0-23 active, 72 accesses, A + 4t up to 0x105c (the
# extent, 48 bytes, doubled to 96), mem_insts 18.
@test "gc-clone: --scale changes the blocks and the accesses, by hand" {
	gc-clone --scale 0.5 --stats "$T/j" "$P/vecadd.gcp" >"$T/s"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(sed -n 1,2p "$T/d" | tr '\n' ' ')" 'K 1 "vecadd" 1,1,1 8,1,1 32 0 A 2 5 '
	expect_eq "$(data "$T/s" | grep -c .)" 18
	expect_eq "$(data "$T/s" | grep ',0x10,' | cut -d, -f9 | tr '\n' ' ')" \
		"0x1000 0x1004 0x1008 0x100c 0x1010 0x1014 "
	expect_eq "$(jv accesses "$T/j")" 18
	expect_eq "$(jv threads "$T/j")" 8
	gc-clone --scale 2 "$P/vecadd.gcp" >"$T/s"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(sed -n 1,2p "$T/d" | tr '\n' ' ')" 'K 1 "vecadd" 4,1,1 8,1,1 32 0 A 2 18 '
	expect_eq "$(data "$T/s" | grep -c .)" 72
	awk 'BEGIN { for (t = 0; t < 24; t++) printf "0x%x\n", 4352 + 4 * t }' >"$T/want"
	expect_same <(data "$T/s" | grep ',0x20,' | cut -d, -f9) "$T/want" "B, scaled"
	expect_eq "$(data "$T/s" | grep -c '^3,')" 0
}

# mixed.gcp kernel 7: a 2x2 grid of 4 threads of 8 bytes, by +64 and bx
# +32.  --scale 2: y doubles (2x4), 32 accesses, block (bx, by) at
# 0x80000 + 64 by + 32 bx, inside the doubled extent [0x80000, 0x80100).
# --scale 0.5: 2x1.  --scale 0.1: 0.4 blocks round to 1, but y cannot go
# below 1 row of 2 blocks (1 / 2 rounds to 1): 2x1.
@test "gc-clone: --scale on a 2-D grid scales y" {
	gc-clone --scale 2 --kernel 7 "$P/mixed.gcp" >"$T/s"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(sed -n 1,2p "$T/d" | tr '\n' ' ')" 'K 7 "grid2d" 2,4,1 4,1,1 8 0 A 2 8 '
	expect_eq "$(grep -c '^[0-9]' "$T/d")" 32
	expect_eq "$(awk -F, '/^[0-9]/ && $3 == 0 { printf "%s:%s ", $1, $9 }' "$T/d")" \
		"0:0x80000 1:0x80020 2:0x80040 3:0x80060 4:0x80080 5:0x800a0 6:0x800c0 7:0x800e0 "
	gc-clone --scale 0.5 --kernel 7 "$P/mixed.gcp" >"$T/s"
	decode_stream "$T/s" >"$T/d"
	expect_eq "$(sed -n 1,2p "$T/d" | tr '\n' ' ')" 'K 7 "grid2d" 2,1,1 4,1,1 8 0 A 2 2 '
	expect_eq "$(grep -c '^[0-9]' "$T/d")" 8
	gc-clone --scale 0.1 --kernel 7 "$P/mixed.gcp" >"$T/s"
	expect_eq "$(decode_stream "$T/s" | sed -n 1p)" 'K 7 "grid2d" 2,1,1 4,1,1 8 0'
	# 200 rows of blocks: 300 times is 60000 rows, 400 times too many
	sed -e 's/^grid 2 2 1$/grid 2 200 1/; s/^threads 16$/threads 1600/' \
		-e 's/^profile 0 threads 16 len 1 /profile 0 threads 1600 len 1 /' "$P/mixed.gcp" >"$T/tall.gcp"
	gc-clone --kernel 7 --scale 300 "$T/tall.gcp" >"$T/s"
	expect_eq "$(first_kernel "$T/s")" 'K 7 "grid2d" 2,60000,1 4,1,1 8 0'
	sh_status 1 "gc-clone --kernel 7 --scale 400 '$T/tall.gcp'"
	expect_eq "$(cat "$T/err")" "gc-clone: $T/tall.gcp: kernel 7: --scale 400: 80000 blocks in y exceed 65535"
	[ ! -s "$T/out" ]
}

@test "gc-clone: --stats and -v" {
	gc-clone -v --stats "$T/j" -o "$T/s" "$P/vecadd.gcp" 2>"$T/e"
	expect_eq "$(jv tool "$T/j")" gc-clone
	expect_eq "$(sed -n 4p "$T/j")" '  "gpu": null,' # a profile names no GPU
	expect_eq "$(jv kernel_count "$T/j")" 1
	expect_eq "$(jv threads "$T/j")" 16
	expect_eq "$(jv accesses "$T/j")" 36
	expect_eq "$(jv mem_instructions "$T/j")" 9
	expect_eq "$(jv profile_accesses "$T/j")" 36
	expect_eq "$(sed -n 1p "$T/e")" "gc-clone: kernel 1 vecadd: 2x1x1 blocks of 8x1x1, 16 threads: 36 accesses in 9 warp instructions (the profile's: 36)"
	gc-clone -z "$P/vecadd.gcp" | gzip -dc >"$T/z"
	expect_same <(dumpdata "$T/z") <(dumpdata "$T/s") "-z"
	sh_status 1 "gc-clone '$P/vecadd.gcp' >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-clone: .*No space left on device"
}

@test "gc-clone: the output rule: --emit none, --report FILE (gc(7))" {
	output_rule "gc-clone '$P/vecadd.gcp'"
	expect_eq "$(sed -n 2p "$T/rule.r")" "gc-clone: 1 kernel(s), 16 threads, 36 accesses"
	# no stream, the same counts: --stats as with the stream
	gc-clone --stats "$T/a.json" "$P/vecadd.gcp" >/dev/null
	gc-clone --emit none --stats "$T/b.json" "$P/vecadd.gcp" >/dev/null
	expect_same "$T/a.json" "$T/b.json" "--stats with --emit none"
	sh_status 2 "gc-clone --emit requests '$P/vecadd.gcp'"
	expect_eq "$(head -1 "$T/err")" "gc-clone: --emit: 'requests' is not accesses or none"
}

# collide.gcp: lane 0 loads at seq 0, 2, 4 and stores at 5; lane 1 loads at
# 0 and stores at 2.  At seq 2 the lanes meet with different instructions:
# the load (inst 0) goes first at seq 2, the store takes seq 3, and lane 0's
# later entries keep their seqs (4 is past 3).  gc-sched refuses two
# instructions of one warp under one seq, so it must take the stream.
@test "gc-clone: lanes that meet at one seq with different instructions get distinct seqs" {
	gc-clone "$P/collide.gcp" >"$T/s"
	cat >"$T/want" <<-EOF
	0,0,0,0x10,0,load,global,4,0x1000
	0,0,1,0x10,0,load,global,4,0x1004
	0,0,0,0x10,2,load,global,4,0x1040
	0,0,1,0x20,3,store,global,4,0x2004
	0,0,0,0x10,4,load,global,4,0x1080
	0,0,0,0x20,5,store,global,4,0x2000
	EOF
	expect_same <(data "$T/s") "$T/want" records
	sh_status 0 "gc-sched <'$T/s' | gc-coalesce >/dev/null"
}

@test "gc-clone: a proxy runs through the memory hierarchy" {
	sh_status 0 "gc-clone --scale 20 '$P/mixed.gcp' | gc-sched | gc-coalesce | gc-l1 | gc-l2 | gc-dram --emit none -o '$T/r'"
	expect_match "$(sed -n 3p "$T/r")" "^records [1-9][0-9]*, kernels 3$"
}

# The issue's check: a kernel with one profile (or runs of them) and fixed
# strides is cloned exactly, record for record: every kernel-begin line
# (grid, block, attributes), record and kernel-end line of gc-stats --dump.
# vecadd and copy with a partial last block (runs of the empty profile);
# three launches; the 2-D kernels with 16x16, 16x8 and 8x4 blocks, a
# partial block row and column (matmul 40x24: 52 runs), and stencil2d,
# whose border threads make no access (29 runs).
@test "gc-clone: gc-gen | gc-profile | gc-clone gives the original's records (vecadd, copy, 2-D)" {
	local k
	for k in "vecadd -n 1000" "copy -n 5000" "vecadd -n 300 --block 64 --kernels 3" \
		"copy -n 100 --warp-size 8 --block 24" "transpose -n 64" \
		"transpose -n 48 --block 16x8" "matmul -n 32" "matmul -n 48 --block 8x4" \
		"matmul --width 40 --height 24 --inner 8" "stencil2d -n 16" "mdm -n 512" \
		"strided --loads 16" "table2"; do
		gc-gen $k >"$T/o"
		gc-profile "$T/o" >"$T/p"
		gc-clone "$T/p" >"$T/c"
		expect_same <(dumpdata "$T/o") <(dumpdata "$T/c") "gc-gen $k"
	done
}

# Data-dependent addresses are not: gather's loads of A[idx[i]] differ.
@test "gc-clone: a gather is not cloned exactly, but keeps its counts" {
	gc-gen gather -n 1000 >"$T/o"
	gc-profile "$T/o" | gc-clone - >"$T/c"
	expect_differ <(dumpdata "$T/o") <(dumpdata "$T/c") gather
	expect_same <(dumpdata "$T/o" | cut -d, -f1-8) <(dumpdata "$T/c" | cut -d, -f1-8) \
		"records but their addresses"
}

# --scale 0.25 of a full vecadd: 4 of its 16 blocks, thread t the profile
# of thread 4t (all alike), addresses chained by P_E from A, B and C: the
# original's first 4 blocks, record for record.
@test "gc-clone: a scaled-down vecadd is the original's first blocks" {
	gc-gen vecadd -n 4096 >"$T/o"
	gc-profile "$T/o" | gc-clone --scale 0.25 - >"$T/c"
	expect_eq "$(decode_stream "$T/c" | sed -n 1p)" 'K 1 "vecadd" 4,1,1 256,1,1 32 0'
	expect_same <(data "$T/o" | awk -F, '$1 < 4') <(data "$T/c") "4 blocks"
	expect_eq "$(data "$T/c" | grep -c .)" 3072
}

# bad_profile FILE MESSAGE: gc-clone refuses FILE (in tests/fixtures/
# profiles/) with exactly "gc-clone: PATH: MESSAGE", exit 1, and writes
# nothing on standard output.
bad_profile() {
	sh_status 1 "gc-clone '$P/$1'"
	expect_eq "$(cat "$T/err")" "gc-clone: $P/$1: $2"
	[ ! -s "$T/out" ]
}

# Each bad-*.gcp is vecadd.gcp with one fault.
@test "gc-clone: a bad or cut profile exits 1 naming the line, and writes nothing" {
	bad_profile bad-cut.gcp "line 45: cut short: the text ends where 'end' is wanted"
	bad_profile bad-cut-inst.gcp "line 31: cut short: the text ends where 'pa' is wanted"
	bad_profile bad-version.gcp "line 5: version: 2 not supported (want 1)"
	bad_profile bad-threads.gcp "line 40: profiles: their threads add up to 15, not the kernel's 16"
	bad_profile bad-inst.gcp "line 37: entries: instruction 3 out of range (insts 3)"
	bad_profile bad-len.gcp "line 37: entries: more than len 3"
	bad_profile bad-runs.gcp "line 44: run first: 8, not above the run before's 12"
	bad_profile bad-prof.gcp "line 43: run profile: 2 out of range (0..1)"
	bad_profile bad-dist.gcp "line 30: pe 1 tx: total: 10, but none, exact and bins add up to 9"
	bad_profile bad-op.gcp "line 32: op: 'jump' is not load, store or atomic"
	bad_profile bad-order.gcp "line 28: inst: index 2, want 1"
	# every fixture is tested
	expect_eq "$(ls "$P"/bad-*.gcp | wc -l | tr -d ' ')" 11
	# from standard input the name is stdin; an empty file is cut short
	sh_status 1 "gc-clone - <'$P/bad-cut.gcp'"
	expect_eq "$(cat "$T/err")" "gc-clone: stdin: line 45: cut short: the text ends where 'end' is wanted"
	sh_status 1 "gc-clone - </dev/null"
	expect_match "$(cat "$T/err")" "^gc-clone: stdin: line [01]: "
	[ ! -s "$T/out" ]
	sh_status 1 "gc-clone '$T/no-such-file'"
	expect_match "$(cat "$T/err")" "^gc-clone: $T/no-such-file: No such file"
}
