#!/usr/bin/env bats
# gc-sched: occupancy, blocks to SMs, warp interleaving, timestamps.
#
# Streams come from gc-gen (whose records are known exactly, gc-gen(1)) or
# from hand-written dumps restored by gc-import (acsv, helpers.bash), and the
# output is read back through gc-stats --dump.  Every schedule asserted
# here is worked out by hand in the comments.

load helpers

# rows FILE: the data records as "time sm block warp lane pc seq addr".
rows() {
	gc-stats --dump "$1" | awk -F, '$8 == "load" || $8 == "store" || $8 == "atomic" {
		print $13, $2, $3, $4, $5, $6, $7, $10 }'
}

# insts FILE: one line per issued instruction, "time:sm:block:warp:seq".
insts() {
	rows "$1" | awk '{ print $1 ":" $2 ":" $3 ":" $4 ":" $7 }' | uniq | tr '\n' ' ' |
		sed 's/ $//'
}

# js FILE PATH: a value of a --stats JSON file, by its flattened path.
js() {
	gc-stats --merge --arrays "$1" |
		awk -F, -v p="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == p) c = i }
				   NR == 2 && c { print $c }'
}

gpu2() {
	printf 'name = two-sms\nsm.count = 2  # two SMs of the seed-000 GPU\n' >"$T/two.gpu"
	printf 'name = one-sm\nsm.count = 1\n' >"$T/one.gpu"
}

@test "gc-sched: mandatory command-line cases" {
	common_cli_cases gc-sched --sms
	help_matches_man gc-sched
	sh_status 2 "gc-sched --policy fifo"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --policy: 'fifo' is not lrr, gto or pself"
	sh_status 2 "gc-sched --p-self 1.5 --policy pself"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --p-self: 1.5 is out of range (0 to 1)"
	sh_status 2 "gc-sched --p-self 0.5"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --p-self and --seed go with --policy pself"
	sh_status 2 "gc-sched --sms 0"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --sms: 0 is out of range (1 to 65535)"
	gc-gen table2 >"$T/t2.gcs"
	sh_status 2 "gc-sched --sms 15 '$T/t2.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --sms: 15 is more than the 14 SMs of fermi-gtx470-16k"
	[ ! -s "$T/out" ]
}

@test "gc-sched: seed 000 Table 2: round robin over one-thread warps" {
	gc-gen table2 | gc-sched >"$T/s.gcs"
	# instruction 0 of threads 0-3, then instruction 1: x[0] x[2] x[4] x[6] x[1] x[3] x[5] x[7]
	run rows "$T/s.gcs"
	expect_eq "$output" "0 0 0 0 0 0x10 0 0x10000000
1 0 0 1 0 0x10 0 0x10000008
2 0 0 2 0 0x10 0 0x10000010
3 0 0 3 0 0x10 0 0x10000018
4 0 0 0 0 0x20 1 0x10000004
5 0 0 1 0 0x20 1 0x1000000c
6 0 0 2 0 0x20 1 0x10000014
7 0 0 3 0 0x20 1 0x1000001c"
}

@test "gc-sched: gto runs each warp to its end; pself 0 is lrr, pself 1 greedy" {
	gc-gen table2 >"$T/t2.gcs"
	gc-sched --policy gto "$T/t2.gcs" >"$T/gto.gcs"
	expect_eq "$(insts "$T/gto.gcs")" "0:0:0:0:0 1:0:0:0:1 2:0:0:1:0 3:0:0:1:1 4:0:0:2:0 5:0:0:2:1 6:0:0:3:0 7:0:0:3:1"
	gc-sched "$T/t2.gcs" >"$T/lrr.gcs"
	gc-sched --policy pself --p-self 0 "$T/t2.gcs" >"$T/p0.gcs"
	gc-sched --policy pself --p-self 1 "$T/t2.gcs" >"$T/p1.gcs"
	expect_eq "$(rows "$T/p0.gcs")" "$(rows "$T/lrr.gcs")"
	expect_eq "$(rows "$T/p1.gcs")" "$(rows "$T/gto.gcs")"
	expect_eq "$(hkey "$T/p1.gcs" sched.policy)" "pself"
	expect_eq "$(hkey "$T/p1.gcs" sched.p_self)" "1"
	expect_eq "$(hkey "$T/p1.gcs" sched.seed)" "1"
}

@test "gc-sched: pself is deterministic for a seed and keeps each warp's order" {
	gc-gen matmul -n 16 >"$T/m.gcs"
	gc-sched --policy pself --seed 7 "$T/m.gcs" >"$T/a.gcs"
	gc-sched --policy pself --seed 7 "$T/m.gcs" >"$T/b.gcs"
	cmp "$T/a.gcs" "$T/b.gcs"
	gc-sched --policy pself --seed 8 "$T/m.gcs" >"$T/c.gcs"
	expect_differ <(rows "$T/a.gcs") <(rows "$T/c.gcs") "seeds 7 and 8"
	# the same records as lrr, in another order
	gc-sched "$T/m.gcs" >"$T/l.gcs"
	expect_eq "$(rows "$T/a.gcs" | cut -d' ' -f3- | sort)" "$(rows "$T/l.gcs" | cut -d' ' -f3- | sort)"
}

@test "gc-sched: blocks round-robin until the SMs are full, then to the SM that frees first" {
	gpu2
	# 10 blocks of one warp, 2 instructions each (load 0x10, store 0x20),
	# 2 SMs, 2 active blocks per SM.  Fill: b0 SM0, b1 SM1, b2 SM0, b3 SM1.
	# t0 b0/b1 load, t1 b2/b3 load, t2 b0/b1 store: done, b4 -> SM0 and
	# b5 -> SM1 (lower SM first); t3 b2/b3 store: done, b6 SM0, b7 SM1;
	# t4 b4/b5, t5 b6/b7 loads, t6 b4/b5 stores (b8, b9), t7 b6/b7 stores,
	# t8 b8/b9 loads, t9 their stores.
	gc-gen copy -n 320 --block 32 | gc-sched --gpu "$T/two.gpu" --active 2 >"$T/s.gcs"
	expect_eq "$(insts "$T/s.gcs")" "0:0:0:0:0 0:1:1:0:0 1:0:2:0:0 1:1:3:0:0 2:0:0:0:1 2:1:1:0:1 3:0:2:0:1 3:1:3:0:1 4:0:4:0:0 4:1:5:0:0 5:0:6:0:0 5:1:7:0:0 6:0:4:0:1 6:1:5:0:1 7:0:6:0:1 7:1:7:0:1 8:0:8:0:0 8:1:9:0:0 9:0:8:0:1 9:1:9:0:1"
	# every lane of an instruction has its time and SM
	expect_eq "$(rows "$T/s.gcs" | wc -l | tr -d ' ')" 640
	expect_eq "$(rows "$T/s.gcs" | awk '{ print $1, $2, $3 }' | uniq | wc -l | tr -d ' ')" 20
}

@test "gc-sched: first done, first served follows each block's work" {
	gpu2
	# One active block per SM.  b0 has 4 instructions, b1 1, b2 1, b3 2, b4 1.
	# t0: SM0 b0.0, SM1 b1 (done: b2 -> SM1); t1: b0.1, b2 (done: b3 ->
	# SM1); t2: b0.2, b3.0; t3: b0.3 (done), b3.1 (done): b4 -> SM0, the
	# lower SM; t4: SM0 b4.
	acsv 5x1x1 32x1x1 0 0 >"$T/in.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x1000 4
	0 0 0 0x10 1 load global 0x1004 4
	0 0 0 0x10 2 load global 0x1008 4
	0 0 0 0x10 3 load global 0x100c 4
	1 0 0 0x10 0 load global 0x2000 4
	2 0 0 0x10 0 load global 0x3000 4
	3 0 0 0x10 0 load global 0x4000 4
	3 0 0 0x10 1 load global 0x4004 4
	4 0 0 0x10 0 load global 0x5000 4
	EOF
	gc-sched --gpu "$T/two.gpu" --active 1 "$T/in.gcs" >"$T/s.gcs"
	expect_eq "$(insts "$T/s.gcs")" "0:0:0:0:0 0:1:1:0:0 1:0:0:0:1 1:1:2:0:0 2:0:0:0:2 2:1:3:0:0 3:0:0:0:3 3:1:3:0:1 4:0:4:0:0"
}

@test "gc-sched: occupancy worked by hand for presets and kernels" {
	# fermi-gtx470-16k, gc-gen copy (256 threads, 32 registers): threads
	# 1536/256 = 6, warps 48/8 = 6, blocks 8, registers: 32x32 = 1024 a
	# warp, 32K/2 partitions = 16384 / 1024 = 16 warps x 2 = 32 / 8 = 4.
	gc-gen copy -n 4096 | gc-sched --stats "$T/f.json" >/dev/null
	expect_eq "$(js "$T/f.json" kernels.0.active_blocks_per_sm)" 4
	expect_eq "$(js "$T/f.json" kernels.0.limiter)" registers
	expect_eq "$(js "$T/f.json" kernels.0.limits.threads)" 6
	expect_eq "$(js "$T/f.json" kernels.0.limits.warps)" 6
	expect_eq "$(js "$T/f.json" kernels.0.limits.blocks)" 8
	expect_eq "$(js "$T/f.json" kernels.0.limits.registers)" 4
	expect_eq "$(js "$T/f.json" kernels.0.limits.shmem)" null
	# volta-v100, the same kernel: threads 2048/256 = 8, warps 64/8 = 8,
	# registers 65536/4 = 16384 / 1024 = 16 x 4 = 64 warps / 8 = 8: 8,
	# threads binding first.
	gc-gen copy -n 4096 | gc-sched --gpu volta-v100 --stats "$T/v.json" >/dev/null
	expect_eq "$(js "$T/v.json" kernels.0.active_blocks_per_sm)" 8
	expect_eq "$(js "$T/v.json" kernels.0.limiter)" threads
	expect_eq "$(js "$T/v.json" kernels.0.limits.registers)" 8
	# turing-rtx2060: threads 1024/256 = 4, warps 32/8 = 4.
	gc-gen copy -n 4096 | gc-sched --gpu turing-rtx2060 --stats "$T/t.json" >/dev/null
	expect_eq "$(js "$T/t.json" kernels.0.active_blocks_per_sm)" 4
	expect_eq "$(js "$T/t.json" kernels.0.limiter)" threads
	# table2 on Fermi: 4 threads, one warp: the 8-block limit binds.
	gc-gen table2 | gc-sched --stats "$T/b.json" >/dev/null
	expect_eq "$(js "$T/b.json" kernels.0.active_blocks_per_sm)" 8
	expect_eq "$(js "$T/b.json" kernels.0.limiter)" blocks
	# volta-v100, 256 threads, 64 registers, 30000 bytes of shared memory:
	# registers 64x32 = 2048 a warp, 16384/2048 = 8 x 4 = 32 warps / 8 = 4;
	# shared memory 30000 -> 30208 (units of 256), 96K/30208 = 3.
	echo "0 0 0 0x10 0 load global 0x1000 4" | acsv 1x1x1 256x1x1 64 30000 >"$T/k1.gcs"
	gc-sched --gpu volta-v100 --stats "$T/k1.json" "$T/k1.gcs" >/dev/null
	expect_eq "$(js "$T/k1.json" kernels.0.limits.registers)" 4
	expect_eq "$(js "$T/k1.json" kernels.0.limits.shmem)" 3
	expect_eq "$(js "$T/k1.json" kernels.0.active_blocks_per_sm)" 3
	expect_eq "$(js "$T/k1.json" kernels.0.limiter)" shmem
	# fermi, 128 threads, 63 registers, 1000 bytes: 63x32 = 2016 -> 2048,
	# 16384/2048 = 8 x 2 = 16 warps / 4 = 4; shared 1024, 48K/1024 = 48.
	echo "0 0 0 0x10 0 load global 0x1000 4" | acsv 1x1x1 128x1x1 63 1000 >"$T/k2.gcs"
	gc-sched --stats "$T/k2.json" "$T/k2.gcs" >/dev/null
	expect_eq "$(js "$T/k2.json" kernels.0.limits.threads)" 12
	expect_eq "$(js "$T/k2.json" kernels.0.limits.shmem)" 48
	expect_eq "$(js "$T/k2.json" kernels.0.active_blocks_per_sm)" 4
	expect_eq "$(js "$T/k2.json" kernels.0.limiter)" registers
	# ampere-a100, 96 threads (3 warps), 40 registers, 50000 bytes:
	# threads 2048/96 = 21, warps 64/3 = 21, registers 1280 a warp,
	# 16384/1280 = 12 x 4 = 48 / 3 = 16, shared 50048, 164K/50048 = 3.
	echo "0 0 0 0x10 0 load global 0x1000 4" | acsv 1x1x1 96x1x1 40 50000 >"$T/k3.gcs"
	gc-sched --gpu ampere-a100 --stats "$T/k3.json" "$T/k3.gcs" >/dev/null
	expect_eq "$(js "$T/k3.json" kernels.0.limits.threads)" 21
	expect_eq "$(js "$T/k3.json" kernels.0.limits.warps)" 21
	expect_eq "$(js "$T/k3.json" kernels.0.limits.registers)" 16
	expect_eq "$(js "$T/k3.json" kernels.0.active_blocks_per_sm)" 3
	# -v names them too
	sh_status 0 "gc-sched -v --gpu ampere-a100 '$T/k3.gcs' >/dev/null"
	expect_eq "$(head -1 "$T/err")" "gc-sched: kernel 1 (k): 96 threads, 40 registers, 50000 bytes of shared memory per block: 3 active blocks per SM (shared memory)"
}

@test "gc-sched: a block the GPU cannot run, a kernel without a block size" {
	echo "0 0 0 0x10 0 load global 0x1000 4" | acsv 1x1x1 128x1x1 64 0 >"$T/r.gcs"
	sh_status 1 "gc-sched '$T/r.gcs'"
	expect_eq "$(cat "$T/err")" "gc-sched: $T/r.gcs: kernel 1 (k): a block of 128 threads, 64 registers per thread and 0 bytes of shared memory cannot run on fermi-gtx470-16k: more registers per thread than sm.max_regs_per_thread"
	gc-stats "$T/out" 2>&1 | grep -q "missing end-of-stream\|empty input"
	echo "0 0 0 0x10 0 load global 0x1000 4" | acsv 1x1x1 0x1x1 0 0 >"$T/z.gcs"
	sh_status 1 "gc-sched '$T/z.gcs'"
	expect_eq "$(cat "$T/err")" "gc-sched: $T/z.gcs: kernel 1 (k) has no block size: gc-sched needs it for the occupancy (or give --active N)"
	sh_status 0 "gc-sched --active 2 '$T/z.gcs'"
}

@test "gc-sched: SMs run in parallel: one instruction per busy SM per step" {
	# 4096 blocks of 8 warps x 2 instructions on 14 SMs, 4 blocks each:
	# every step of the first 4096*16/14 has 14 instructions, one per SM.
	gc-gen copy -n 1M | gc-sched --stats "$T/s.json" >"$T/s.gcs"
	# (rows | awk '{ print $1, $2, $3, $4, $7 }' | uniq in one awk: time,
	# sm, block, warp, seq of each data record, runs of equal lines once)
	gc-stats --dump "$T/s.gcs" | awk -F, '$8 == "load" || $8 == "store" || $8 == "atomic" {
		k = $13 " " $2 " " $3 " " $4 " " $7; if (k != last) print k; last = k }' >"$T/i"
	expect_eq "$(wc -l <"$T/i" | tr -d ' ')" 65536
	expect_eq "$(awk '$1 == 0' "$T/i" | awk '{ print $2 }' | tr '\n' ' ')" "0 1 2 3 4 5 6 7 8 9 10 11 12 13 "
	# no SM issues twice in a step.  4096 = 14 x 292 + 8: 8 SMs run 293
	# blocks, 6 run 292; never idle, an SM of 292 blocks x 16 instructions
	# issues at steps 0 to 4671, one of 293 until 4687.
	expect_eq "$(awk '{ print $1, $2 }' "$T/i" | sort | uniq -d | wc -l | tr -d ' ')" 0
	expect_eq "$(awk '{ n[$1]++ } END { for (t in n) if (n[t] != 14) print t }' "$T/i" | sort -n | head -1)" 4672
	expect_eq "$(awk '$1 == 4672' "$T/i" | wc -l | tr -d ' ')" 8
	expect_eq "$(js "$T/s.json" time_last)" 4687
	expect_eq "$(awk '{ print $2, $3 }' "$T/i" | sort -u | awk '{ n[$1]++ } END { for (s in n) print n[s] }' | sort -n | uniq -c | awk '{ print $1 "x" $2 }' | tr '\n' ' ')" "6x292 8x293 "
}

@test "gc-sched: each warp keeps its program order and every record is kept" {
	gc-gen spmv -n 512 --nnz 0.02 --width 256 >"$T/in.gcs"
	gc-sched --gpu volta-v100 "$T/in.gcs" >"$T/out.gcs"
	# per (block, warp): the records in the same order before and after
	rows "$T/in.gcs" | awk '{ print $3, $4, $7, $5, $8 }' | sort -s -k1,1n -k2,2n >"$T/a"
	rows "$T/out.gcs" | awk '{ print $3, $4, $7, $5, $8 }' | sort -s -k1,1n -k2,2n >"$T/b"
	expect_same "$T/a" "$T/b" "per-warp records"
	# time never decreases (the reader checks it), and the lanes of an
	# instruction are together at one time
	expect_eq "$(rows "$T/out.gcs" | awk '{ print $3, $4, $7 }' | uniq | sort | uniq -d | wc -l | tr -d ' ')" 0
	expect_eq "$(rows "$T/out.gcs" | awk '{ print $1, $3, $4, $7 }' | uniq | wc -l)" \
		"$(rows "$T/out.gcs" | awk '{ print $3, $4, $7 }' | uniq | wc -l)"
}

@test "gc-sched: several kernels, one after the other" {
	gc-gen table2 --kernels 3 | gc-sched >"$T/s.gcs"
	gc-stats --dump "$T/s.gcs" | awk -F, '$8 == "kbegin" || $8 == "kend" { print $1, $8, $NF }
		$8 == "load" { print $1, $13 }' | tr '\n' ';' >"$T/k"
	expect_eq "$(cat "$T/k")" "1 kbegin grid=1x1x1 block=4x1x1 regs=32 shmem=0 mem_insts=8;1 0;1 1;1 2;1 3;1 4;1 5;1 6;1 7;1 kend records=8;2 kbegin grid=1x1x1 block=4x1x1 regs=32 shmem=0 mem_insts=8;2 8;2 9;2 10;2 11;2 12;2 13;2 14;2 15;2 kend records=8;3 kbegin grid=1x1x1 block=4x1x1 regs=32 shmem=0 mem_insts=8;3 16;3 17;3 18;3 19;3 20;3 21;3 22;3 23;3 kend records=8;"
}

@test "gc-sched: --sms writes the first N SMs of the whole GPU's schedule" {
	gc-gen copy -n 64K >"$T/in.gcs"
	gc-sched "$T/in.gcs" >"$T/all.gcs"
	gc-sched --sms 2 --stats "$T/s.json" "$T/in.gcs" >"$T/two.gcs"
	# (each stream's rows made once)
	rows "$T/all.gcs" >"$T/all.rows"
	rows "$T/two.gcs" >"$T/two.rows"
	expect_eq "$(cat "$T/two.rows")" "$(awk '$2 < 2' "$T/all.rows")"
	expect_eq "$(hkey "$T/two.gcs" sched.sms)" 2
	expect_eq "$(hkey "$T/two.gcs" sched.scale)" 7
	# 256 blocks: SMs 0 and 1 run 18 and 19 (the schedule's split)
	expect_eq "$(js "$T/s.json" kernels.0.blocks_written)" \
		"$(awk '$2 < 2 { print $3 }' "$T/all.rows" | sort -u | wc -l | tr -d ' ')"
	expect_eq "$(js "$T/s.json" accesses_written)" "$(wc -l <"$T/two.rows" | tr -d ' ')"
}

@test "gc-sched: --waves keeps the first K waves of blocks and records the scale" {
	# 256 blocks; a wave on Fermi is 14 SMs x 4 blocks = 56 blocks
	gc-gen copy -n 64K | gc-sched --waves 1 --stats "$T/s.json" >"$T/s.gcs"
	expect_eq "$(rows "$T/s.gcs" | awk '{ print $3 }' | sort -un | tr '\n' ' ' | awk '{ print $1, $NF, NF }')" "0 55 56"
	expect_eq "$(js "$T/s.json" kernels.0.blocks)" 56
	expect_eq "$(js "$T/s.json" kernels.0.blocks_dropped)" 200
	expect_eq "$(js "$T/s.json" accesses)" 131072
	expect_eq "$(js "$T/s.json" accesses_written)" 28672
	# 256 / 56 blocks
	expect_eq "$(hkey "$T/s.gcs" sched.scale)" "$(awk 'BEGIN { printf "%.17g", 256 / 56 }')"
	expect_eq "$(hkey "$T/s.gcs" sched.waves)" 1
	gc-gen copy -n 64K | gc-sched --waves 5 --stats "$T/all.json" >/dev/null
	expect_eq "$(js "$T/all.json" kernels.0.blocks)" 256
	expect_eq "$(js "$T/all.json" kernels.0.scale)" 1
}

@test "gc-sched: memory holds the active blocks and the one being read" {
	gc-gen copy -n 1M | gc-sched --stats "$T/f.json" >/dev/null
	expect_eq "$(js "$T/f.json" peak_buffered_blocks)" 57 # 14 x 4 + 1
	expect_eq "$(js "$T/f.json" peak_buffered_accesses)" 28673
	gc-gen copy -n 1M | gc-sched --gpu volta-v100 --stats "$T/v.json" >/dev/null
	expect_eq "$(js "$T/v.json" peak_buffered_blocks)" 641 # 80 x 8 + 1
	expect_eq "$(js "$T/v.json" kernels_buffered_whole)" 0
}

@test "gc-sched: interleaved blocks are buffered whole, or refused once scheduled" {
	gpu2
	# the same 4 instructions, grouped by block, and interleaved
	acsv 2x1x1 32x1x1 0 0 >"$T/g.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x1000 4
	0 0 0 0x20 1 load global 0x1004 4
	1 0 0 0x10 0 load global 0x2000 4
	1 0 0 0x20 1 load global 0x2004 4
	EOF
	acsv 2x1x1 32x1x1 0 0 >"$T/i.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x1000 4
	1 0 0 0x10 0 load global 0x2000 4
	0 0 0 0x20 1 load global 0x1004 4
	1 0 0 0x20 1 load global 0x2004 4
	EOF
	gc-sched "$T/g.gcs" >"$T/g.out"
	gc-sched --stats "$T/s.json" "$T/i.gcs" >"$T/i.out"
	expect_eq "$(rows "$T/i.out")" "$(rows "$T/g.out")"
	expect_eq "$(js "$T/s.json" kernels_buffered_whole)" 1
	gc-sched --whole-kernels "$T/g.gcs" >"$T/w.out"
	expect_eq "$(rows "$T/w.out")" "$(rows "$T/g.out")"
	# one SM, one block at a time: block 0 has issued when it comes back
	# (record 6: the kernel begin, its name, then the fourth access)
	acsv 3x1x1 32x1x1 0 0 >"$T/late.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x1000 4
	1 0 0 0x10 0 load global 0x2000 4
	2 0 0 0x10 0 load global 0x3000 4
	0 0 0 0x20 1 load global 0x1004 4
	EOF
	sh_status 1 "gc-sched --gpu '$T/one.gpu' --active 1 '$T/late.gcs' >'$T/late.out'"
	expect_eq "$(cat "$T/err")" "gc-sched: $T/late.gcs: record 6 (offset $(($(od -An -tu4 -j12 -N4 "$T/late.gcs") + 5 * 32))): block 0 continues after gc-sched scheduled it: the input's blocks are interleaved (use --whole-kernels)"
	gc-sched --gpu "$T/one.gpu" --active 1 --whole-kernels "$T/late.gcs" >"$T/late.out"
	expect_eq "$(insts "$T/late.out")" "0:0:0:0:0 1:0:0:0:1 2:0:1:0:0 3:0:2:0:0"
}

@test "gc-sched: bad input data is named by record" {
	acsv 2x1x1 32x1x1 0 0 >"$T/seq.gcs" <<-EOF
	0 0 0 0x10 1 load global 0x1000 4
	0 0 0 0x10 0 load global 0x1004 4
	EOF
	sh_status 1 "gc-sched '$T/seq.gcs'"
	expect_match "$(cat "$T/err")" "^gc-sched: $T/seq.gcs: record 4 \(offset [0-9]+\): block 0 warp 0: seq 0 after seq 1 \(not in program order\)$"
	acsv 2x1x1 32x1x1 0 0 >"$T/pc.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x1000 4
	0 0 1 0x18 0 load global 0x1004 4
	EOF
	sh_status 1 "gc-sched '$T/pc.gcs'"
	expect_match "$(cat "$T/err")" "record 4 \(offset [0-9]+\): block 0 warp 0 seq 0: pc 0x18, but the instruction's pc is 0x10$"
	echo "5 0 0 0x10 0 load global 0x1000 4" | acsv 2x1x1 32x1x1 0 0 >"$T/grid.gcs"
	sh_status 1 "gc-sched '$T/grid.gcs'"
	expect_match "$(cat "$T/err")" "record 3 \(offset [0-9]+\): block 5 is outside the kernel's grid of 2 blocks$"
	# the wrong kind
	gc-gen table2 | gc-sched | gc-coalesce >"$T/req.gcs" 2>/dev/null || skip "gc-coalesce not built"
	sh_status 1 "gc-sched '$T/req.gcs'"
	expect_eq "$(cat "$T/err")" "gc-sched: $T/req.gcs: gc-sched reads accesses; this stream holds requests"
}

@test "gc-sched: the header: scheduled flag, provenance, the GPU and the schedule" {
	gc-gen table2 | gc-sched >"$T/s.gcs"
	gc-stats --dump "$T/s.gcs" >"$T/d"
	expect_eq "$(sed -n 's/^# optional //p' "$T/d")" 0x1
	expect_eq "$(hkey "$T/s.gcs" provenance)" "gc-gen table2 | gc-sched"
	expect_eq "$(grep -c '^# header gpu\.' "$T/d")" 115
	expect_eq "$(hkey "$T/s.gcs" gpu.name)" fermi-gtx470-16k
	run_status 1 grep -q '^# header gpu=' "$T/d"
	expect_eq "$(hkey "$T/s.gcs" sched.policy)" lrr
	expect_eq "$(hkey "$T/s.gcs" sched.sms)" 14
	expect_eq "$(hkey "$T/s.gcs" sched.waves)" 0
	expect_eq "$(hkey "$T/s.gcs" sched.scale)" 1
	# --gpu: the preset, and its name as given
	gc-gen table2 | gc-sched --gpu volta-v100 >"$T/v.gcs"
	expect_eq "$(hkey "$T/v.gcs" gpu.name)" volta-v100
	expect_eq "$(hkey "$T/v.gcs" gpu)" volta-v100
	expect_eq "$(hkey "$T/v.gcs" sched.sms)" 80
}

@test "gc-sched: the GPU comes from --gpu, else the input header, else the default" {
	# gc-gen --gpu records the GPU; gc-sched follows it
	gc-gen table2 --gpu turing-rtx2060 | gc-sched >"$T/a.gcs"
	expect_eq "$(hkey "$T/a.gcs" gpu.name)" turing-rtx2060
	expect_eq "$(hkey "$T/a.gcs" gpu.sm.count)" 30
	expect_eq "$(hkey "$T/a.gcs" sched.sms)" 30
	# --gpu wins over the header
	gc-gen table2 --gpu turing-rtx2060 | gc-sched --gpu ampere-a100 >"$T/b.gcs"
	expect_eq "$(hkey "$T/b.gcs" gpu.name)" ampere-a100
	expect_eq "$(hkey "$T/b.gcs" gpu)" ampere-a100
	# only a gpu key (no gpu.* keys): the preset it names
	gc-gen table2 | gc-stats --dump | sed 's/^# header seed=1$/&\n# header gpu=hopper-h100/' |
		gc-import -f csv | gc-sched >"$T/h.gcs"
	expect_eq "$(hkey "$T/h.gcs" gpu.name)" hopper-h100
	expect_eq "$(hkey "$T/h.gcs" gpu)" hopper-h100
	# nothing: the seed-000 GPU
	gc-gen table2 | gc-sched >"$T/d.gcs"
	expect_eq "$(hkey "$T/d.gcs" gpu.name)" fermi-gtx470-16k
	# a stage after gc-sched takes the same GPU again
	gc-sched "$T/a.gcs" >"$T/c.gcs"
	expect_eq "$(gc-stats --dump "$T/c.gcs" | grep '^# header gpu\.')" \
		"$(gc-stats --dump "$T/a.gcs" | grep '^# header gpu\.')"
	# a bad gpu.* key in the input is a data error
	gc-stats --dump "$T/a.gcs" | sed 's/^# header gpu.sm.count=30$/# header gpu.sm.count=0/' |
		gc-import -f csv >"$T/bad.gcs"
	sh_status 1 "gc-sched '$T/bad.gcs'"
	expect_eq "$(cat "$T/err")" "gc-sched: input: stream header key 'gpu.sm.count': bad value '0' for key 'sm.count' (expected an integer from 1 to 65535)"
}

# same A B: the same stream but for the provenance (which names the input).
same() {
	expect_same <(gc-stats --dump "$1" | grep -v '^# header provenance=') \
		<(gc-stats --dump "$2" | grep -v '^# header provenance=')
}

@test "gc-sched: stdin, a file and - give the same stream; gzip input too" {
	gc-gen matmul -n 16 >"$T/in.gcs"
	gc-sched "$T/in.gcs" >"$T/a"
	gc-sched <"$T/in.gcs" >"$T/b"
	gc-sched - <"$T/in.gcs" >"$T/c"
	same "$T/a" "$T/b"
	same "$T/a" "$T/c"
	gzip -c "$T/in.gcs" >"$T/in.gcs.gz"
	gc-sched <"$T/in.gcs.gz" >"$T/d"
	cmp "$T/b" "$T/d"
	# determinism
	gc-sched "$T/in.gcs" >"$T/e"
	cmp "$T/a" "$T/e"
	# -o and -z
	gc-sched -z -o "$T/f.gz" <"$T/in.gcs"
	gzip -dc "$T/f.gz" >"$T/f"
	same "$T/f" "$T/b"
}

@test "gc-sched: a full disk, a truncated input" {
	gc-gen copy -n 4096 >"$T/in.gcs"
	sh_status 1 "gc-sched '$T/in.gcs' >/dev/full"
	expect_eq "$(cat "$T/err")" "gc-sched: stdout: write error: No space left on device"
	head -c 100003 "$T/in.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-sched '$T/cut.gcs' >'$T/o.gcs'"
	expect_match "$(cat "$T/err")" "^gc-sched: $T/cut.gcs: record [0-9]+ \(offset [0-9]+\): truncated record"
	# whatever went out is detectably incomplete
	sh_status 1 "gc-stats '$T/o.gcs'"
}

@test "gc-sched: the --stats object and -v" {
	gc-gen table2 | gc-sched -v --stats "$T/s.json" >/dev/null 2>"$T/v"
	expect_eq "$(js "$T/s.json" kernel_count)" 1
	expect_eq "$(js "$T/s.json" instructions)" 8
	expect_eq "$(js "$T/s.json" accesses)" 8
	expect_eq "$(js "$T/s.json" time_first)" 0
	expect_eq "$(js "$T/s.json" time_last)" 7
	expect_eq "$(js "$T/s.json" kernels.0.name)" table2
	expect_eq "$(sed -n 2p "$T/v")" "gc-sched: kernel 1: 1 blocks (1 written), 8 instructions, 8 accesses (8 written), time 0 to 7"
	expect_eq "$(sed -n 3p "$T/v")" "gc-sched: 8 accesses, 8 written, 1 kernels; at most 1 blocks (8 accesses) buffered"
}

@test "gc-sched: the output rule: --emit none, --report FILE (gc(7))" {
	gc-gen table2 >"$T/t2.gcs"
	output_rule "gc-sched '$T/t2.gcs'"
	# the report is of the whole input: its 8 accesses (seed 000 Table 2)
	expect_eq "$(rows "$T/t2.gcs" | wc -l | tr -d ' ')" 8
	expect_eq "$(sed -n 3p "$T/rule.r")" \
		"gc-sched: 8 accesses, 8 written, 1 kernels; at most 1 blocks (8 accesses) buffered"
	sh_status 2 "gc-sched --emit requests '$T/t2.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --emit: 'requests' is not accesses or none"
}
