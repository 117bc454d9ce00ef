#!/usr/bin/env bats
# gc-stats --metrics ncu|accelsim and --compare: the stages' --stats as
# the field's counters.  The BFS trace against Accel-Sim's own output
# (../shared/reference/accelsim-bfs-qv100.md), and a small hand-made
# stream (tests/fixtures/ncu/small.csv) whose counts are worked out here.

load helpers

# bfs: the chain on the BFS trace, its --stats in $T/l1.json, l2.json, dram.json.
# The chain runs once for the file (in $BATS_FILE_TMPDIR/bfs), each test
# gets a copy.
bfs() {
	local b=$BATS_FILE_TMPDIR/bfs
	if [ ! -s "$b/dram.json" ]; then
		mkdir -p "$b"
		bfs_front "$b/front.gcs"
		(cd "$b" && gc-l1 --stats l1.json front.gcs | gc-l2 --stats l2.json |
			gc-dram --stats dram.json >/dev/null) || { rm -f "$b/dram.json"; return 1; }
	fi
	cp "$b/front.gcs" "$b/l1.json" "$b/l2.json" "$b/dram.json" "$T/"
}

# small: the hand-made stream through gc-l1, gc-l2, gc-dram (volta-v100):
# $T/s1.json, s2.json, s3.json.
small() {
	gc-import -f csv "$FIX/ncu/small.csv" >"$T/small.gcs"
	gc-l1 --gpu volta-v100 --stats "$T/s1.json" "$T/small.gcs" |
		gc-l2 --stats "$T/s2.json" | gc-dram --stats "$T/s3.json" >/dev/null
}

# load_get FILE, then get NAME (its [ and ] escaped): the value of
# "NAME = VALUE" lines of FILE, as sed -n "s/^[[:space:]]*NAME = //p" FILE
# gives it (every match a line), from an array read once: no process a
# name.
load_get() {
	local l n
	unset G
	declare -gA G
	while IFS= read -r l; do
		l=${l#"${l%%[![:space:]]*}"}
		[[ $l == *" = "* ]] || continue
		n=${l%% = *}
		G[$n]=${G[$n]+${G[$n]}$'\n'}${l#* = }
	done <"$1"
}
get() {
	printf '%s\n' "${G[${1//\\/}]-}"
}

# value NAME: the value of metric NAME in $output's block for kernel
# header line HEAD ("  _Z6streamPfS_ (1)").
value() {
	printf '%s\n' "$output" | awk -v h="$1" -v m="$2" '
		/^  [^ ]/ { on = ($0 == h) } on && $1 == m { print $NF; exit }'
}

@test "accelsim: the BFS chain gives Accel-Sim's sector accesses, read from its names" {
	bfs
	run_status 0 gc-stats --metrics accelsim "$T/l1.json" "$T/l2.json" "$T/dram.json"
	printf '%s\n' "$output" >"$T/as.txt"
	# the whole run: the block after "all kernels"
	sed -n '/^all kernels$/,$p' "$T/as.txt" >"$T/all.txt"
	load_get "$T/all.txt"
	# Accel-Sim SM7_QV100: L1 72,615 read and 18,014 write sectors, L2
	# 14,759 and 18,014, DRAM 4,991 reads (ours 4,992)
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]')" 72615
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[TOTAL_ACCESS\]')" 18014
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]')" 14759
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[TOTAL_ACCESS\]')" 18014
	expect_eq "$(get 'total dram reads')" 4992
	expect_eq "$(get L1D_total_cache_accesses)" 90629
	expect_eq "$(get L2_total_cache_accesses)" 32773
	# the per-SM and per-bank lines add up to the totals
	expect_eq "$(grep -c '^	L1D_cache_core\[' "$T/all.txt")" 8
	expect_eq "$(awk -F'Access = |, Miss' '/L1D_cache_core/ { s += $2 } END { print s }' "$T/all.txt")" 90629
	expect_eq "$(awk -F'Access = |, Miss' '/^L2_cache_bank/ { s += $2 } END { print s }' "$T/all.txt")" 32773
	# every kernel's block has them too, the sums so far as the log's:
	# after the last kernel, the kernels' per-SM and per-bank counts
	# (kernels[].per_sm, per_slice) add up to the run's (per_sm, per_slice)
	expect_eq "$(grep -c '^	L1D_cache_core\[' "$T/as.txt")" $((17 * 8))
	expect_eq "$(grep -c '^L2_cache_bank\[' "$T/as.txt")" $((17 * 64))
	sed -n '/^kernel_launch_uid = 16 $/,/^all kernels$/p' "$T/as.txt" | grep -E '_cache_(core|bank)\[' >"$T/k16.txt"
	grep -E '_cache_(core|bank)\[' "$T/all.txt" >"$T/run.txt"
	expect_eq "$(wc -l <"$T/k16.txt")" 72
	expect_eq "$(cat "$T/k16.txt")" "$(cat "$T/run.txt")"
	# kernel 9 on SM 3 (its line after kernel 9 less that after kernel 8)
	# is what gc-l1 finds for SM 3 on kernel 9's records alone (the L1 is
	# flushed between kernels): 4824 accesses, 961 misses (1569 before a
	# store hit the sectors a partial store left)
	core3() { sed -n "/^kernel_launch_uid = $1 \$/,/^kernel_name/s/^	L1D_cache_core\[3\]: Access = \([0-9]*\), Miss = \([0-9]*\),.*/\1 \2/p" "$T/as.txt"; }
	read -r a8 m8 <<<"$(core3 8)"
	read -r a9 m9 <<<"$(core3 9)"
	gc-stats --dump "$T/front.gcs" | awk -F, '/^#/ || /^kernel,/ || $1 == 9' |
		gc-import -q -f csv --lenient | gc-l1 --stats "$T/k9.json" >/dev/null
	expect_eq "$((a9 - a8)) $((m9 - m8))" "4824 961"
	run_status 0 gc-stats --metrics accelsim "$T/k9.json"
	expect_match "$output" "	L1D_cache_core\[3\]: Access = 4824, Miss = 961, Miss_rate = 0.199, "
	# every status, each type: HIT + HIT_RESERVED + MISS + SECTOR_MISS = TOTAL_ACCESS
	for c in Total_core_cache_stats_breakdown L2_cache_stats_breakdown; do
		for t in GLOBAL_ACC_R GLOBAL_ACC_W; do
			n=0
			for s in HIT HIT_RESERVED MISS SECTOR_MISS; do
				n=$((n + $(get "$c\\[$t\\]\\[$s\\]")))
			done
			expect_eq "$n" "$(get "$c\\[$t\\]\\[TOTAL_ACCESS\\]")" "$c $t"
		done
	done
	# Accel-Sim's L2 write MISS and SECTOR_MISS are ours exactly; its
	# L2 read MISS too
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[MISS\]')" 138
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[SECTOR_MISS\]')" 384
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MISS\]')" 1111
	# L1 writes: a store hits a sector a partial store left (GPGPU-Sim's
	# MODIFIED sector with a byte mask): HIT 9,385, MISS 3,832, SECTOR_MISS
	# 4,797 against Accel-Sim's 9,347, 3,831, 4,795 (1,799 and 12,383
	# while such a store missed)
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[HIT\]')" 9385
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[MISS\]')" 3832
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[SECTOR_MISS\]')" 4797
	# Kernel 1's block: Accel-Sim's per-kernel table gives 201 L1D accesses,
	# 163 at L2 with 162 misses
	expect_eq "$(sed -n '1,/^kernel_launch_uid = 2 $/p' "$T/as.txt" | sed -n 's/^L2_total_cache_accesses = //p')" 163
	expect_eq "$(sed -n '1,/^kernel_launch_uid = 2 $/p' "$T/as.txt" | sed -n 's/^L2_total_cache_misses = //p')" 162
	expect_eq "$(sed -n 's/^	L1D_total_cache_accesses = //p' "$T/as.txt" | head -1)" 201
	expect_eq "$(head -2 "$T/as.txt")" "kernel_name = _Z6KernelP4NodePiPbS2_S2_S1_i 
kernel_launch_uid = 1 "
	# ours beside theirs (the reference's breakdown), in the test's output
	{
		printf '%-44s %10s %10s\n' "counter (sectors)" gc accel-sim
		while read -r c ref; do
			k=${c/#L1/Total_core_cache_stats_breakdown}
			k=${k/#L2/L2_cache_stats_breakdown}
			printf '%-44s %10s %10s\n' "$c" "$(get "$k")" "$ref"
		done <<-'R'
		L1[GLOBAL_ACC_R][HIT] 56163
		L1[GLOBAL_ACC_R][HIT_RESERVED] 1693
		L1[GLOBAL_ACC_R][MISS] 5276
		L1[GLOBAL_ACC_R][SECTOR_MISS] 9483
		L1[GLOBAL_ACC_R][RESERVATION_FAIL] 4992
		L1[GLOBAL_ACC_W][HIT] 9347
		L1[GLOBAL_ACC_W][HIT_RESERVED] 41
		L1[GLOBAL_ACC_W][MISS] 3831
		L1[GLOBAL_ACC_W][SECTOR_MISS] 4795
		L2[GLOBAL_ACC_R][HIT] 9754
		L2[GLOBAL_ACC_R][HIT_RESERVED] 14
		L2[GLOBAL_ACC_R][MISS] 1111
		L2[GLOBAL_ACC_R][SECTOR_MISS] 3880
		L2[GLOBAL_ACC_W][HIT] 17466
		L2[GLOBAL_ACC_W][HIT_RESERVED] 26
		L2[GLOBAL_ACC_W][MISS] 138
		L2[GLOBAL_ACC_W][SECTOR_MISS] 384
		R
	} >&3
}

@test "accelsim --timing: merged sectors are HIT_RESERVED and MSHR_HIT, pending hits" {
	bfs
	gc-l1 --timing --stats "$T/t1.json" "$T/front.gcs" >/dev/null
	run_status 0 gc-stats --metrics accelsim "$T/t1.json"
	sed -n '/^all kernels$/,$p' <<<"$output" >"$T/all.txt"
	load_get "$T/all.txt"
	merged=$(sed -n '/"loads": {/,/}/p' "$T/t1.json" | sed -n '1,9s/^ *"merged": \([0-9]*\),*$/\1/p' | head -1)
	[ "$merged" -gt 0 ]
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT_RESERVED\]')" "$merged"
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MSHR_HIT\]')" "$merged"
	expect_eq "$(get L1D_total_cache_pending_hits)" "$merged"
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[TOTAL_ACCESS\]')" 72615
	# each cancelled instruction is one failed attempt of a load
	stalls=$(sed -n 's/^  "mshr_stalls": \([0-9]*\),$/\1/p' "$T/t1.json")
	[ "$stalls" -gt 0 ]
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[RESERVATION_FAIL\]')" "$stalls"
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[RESERVATION_FAIL\]')" 0
	expect_eq "$(get L1D_total_cache_reservation_fails)" "$stalls"
	expect_eq "$(awk -F'Reservation_fails = ' '/L1D_cache_core/ { s += $2 } END { print s }' "$T/all.txt")" "$stalls"
}

# hand: the stream of CSV dump lines on stdin (the rows after the column
# row) as $T/hand.gcs, with header key $1 (KEY=VALUE) if given.
hand() {
	{
		printf '# gc-stats dump 1\n# kind requests\n# version 1.0\n'
		printf '# header line_size=128\n# header sector_size=32\n'
		[ -z "$1" ] || printf '# header %s\n' "$1"
		printf 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info\n'
		cat
	} | gc-import -f csv >"$T/hand.gcs"
}

@test "accelsim --timing: RESERVATION_FAIL counts each failed attempt, by hand" {
	# One MSHR, a 10-cycle miss; warps 0 and 1 of one block on SM 0
	# each load a line of their own.  Cycle 0: warp 0 misses and takes
	# the MSHR until cycle 10.  Cycles 1 to 9: warp 1, the only warp
	# queued, is cancelled every cycle: 9 failed attempts.  Cycle 10: the
	# fill frees the MSHR and warp 1's load misses.
	hand <<-'E'
	1,,,,,,,kbegin,,,,,,,,k,grid=1x1x1 block=64x1x1 regs=16 shmem=0
	1,0,0,0,,0x10,0,load,global,0x1000,4,0x1,0,,0,,
	1,0,0,1,,0x10,0,load,global,0x2000,4,0x1,0,,0,,
	1,,,,,,,kend,,,,,,,,,records=2
	,,,,,,,end,,,,,,,,,records=5 data=2
	E
	l1() { gc-l1 --gpu volta-v100 --timing --mshr 1 --miss-latency 10 --sigma 0 "$@" "$T/hand.gcs"; }
	l1 --stats "$T/h1.json" >/dev/null
	run_status 0 gc-stats --metrics accelsim "$T/h1.json"
	sed -n '/^all kernels$/,$p' <<<"$output" >"$T/all.txt"
	load_get "$T/all.txt"
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[RESERVATION_FAIL\]')" 9
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MISS\]')" 2
	expect_eq "$(get L1D_total_cache_reservation_fails)" 9
	expect_match "$output" "	L1D_cache_core\[0\]: Access = 2, Miss = 2, Miss_rate = 1.000, Pending_hits = 0, Reservation_fails = 9"
	# gc-l1's --stats: the run's, kernel 1's and SM 0's loads, and SM 0's
	# in kernel 1's column
	expect_eq "$(grep -c '"reservation_fails": 9,*$' "$T/h1.json")" 3
	expect_eq "$(grep -c '"reservation_fails": \[9\],*$' "$T/h1.json")" 1
	# warp 1's load went to L2 at cycle 10
	expect_eq "$(l1 --emit all | gc-stats --dump | awk -F, '$4 == 1 { print $13, $14 }')" "10 miss/mshr"
	# the same without skipping the cycles where every warp waits
	GC_L1_STEP_ALL=1 l1 --stats "$T/h2.json" >/dev/null
	expect_eq "$(grep -c '"reservation_fails": 9,*$' "$T/h2.json")" 3
}

@test "gc-l2 on gc-l1 --timing's stream: a sector read from DRAM is HIT_RESERVED until it arrives, by hand" {
	# volta-v100: mem.dram_latency 132 cycles.  One line, four SMs:
	#   t 100 load sector 0: MISS; sector 0 arrives at 232
	#   t 150 load sectors 0, 1: 0 HIT_RESERVED, 1 SECTOR_MISS (arrives 282)
	#   t 231 store sector 0: HIT_RESERVED (a write to a sector in flight)
	#   t 232 load sectors 0, 1: 0 HIT (arrived), 1 HIT_RESERVED
	# loads: HIT 1, HIT_RESERVED 2, MISS 1, SECTOR_MISS 1; stores:
	# HIT_RESERVED 1; 3 pending hits, 2 misses of 6 accesses
	cat >"$T/rows" <<-'E'
	1,,,,,,,kbegin,,,,,,,,k,grid=4x1x1 block=32x1x1 regs=16 shmem=0
	1,0,0,0,,0x10,0,load,global,0x1000,32,0x1,100,,0,,
	1,1,1,0,,0x10,0,load,global,0x1000,64,0x3,150,,0,,
	1,2,2,0,,0x20,0,store,global,0x1000,32,0x1,231,,0,,
	1,3,3,0,,0x10,0,load,global,0x1000,64,0x3,232,,0,,
	1,,,,,,,kend,,,,,,,,,records=4
	,,,,,,,end,,,,,,,,,records=7 data=4
	E
	hand l1.model=timing <"$T/rows"
	gc-l2 --gpu volta-v100 --stats "$T/h.json" "$T/hand.gcs" >/dev/null
	grep -q '"miss_latency": 132$' "$T/h.json"
	run_status 0 gc-stats --metrics accelsim "$T/h.json"
	sed -n '/^all kernels$/,$p' <<<"$output" >"$T/all.txt"
	load_get "$T/all.txt"
	b=L2_cache_stats_breakdown
	expect_eq "$(get "$b\\[GLOBAL_ACC_R\\]\\[HIT\\]") $(get "$b\\[GLOBAL_ACC_R\\]\\[HIT_RESERVED\\]") $(get "$b\\[GLOBAL_ACC_R\\]\\[MISS\\]") $(get "$b\\[GLOBAL_ACC_R\\]\\[SECTOR_MISS\\]")" "1 2 1 1"
	expect_eq "$(get "$b\\[GLOBAL_ACC_W\\]\\[HIT\\]") $(get "$b\\[GLOBAL_ACC_W\\]\\[HIT_RESERVED\\]") $(get "$b\\[GLOBAL_ACC_W\\]\\[MSHR_HIT\\]")" "0 1 1"
	expect_eq "$(get L2_total_cache_pending_hits)" 3
	expect_eq "$(grep '^L2_cache_bank' "$T/all.txt" | grep -v 'Access = 0,' | sed 's/^L2_cache_bank\[[0-9]*\]//')" \
		": Access = 6, Miss = 2, Miss_rate = 0.333, Pending_hits = 3, Reservation_fails = 0"
	# kernel 1's block: the same bank line, from kernels[].per_slice
	expect_eq "$(sed -n '/^kernel_launch_uid = 1 $/,/^all kernels$/p' <<<"$output" | grep '^L2_cache_bank' | grep -v 'Access = 0,')" \
		"$(grep '^L2_cache_bank' "$T/all.txt" | grep -v 'Access = 0,')"
	# without the header key the times are no cycles: nothing pending, the
	# pending sectors are hits
	hand <"$T/rows"
	gc-l2 --gpu volta-v100 --stats "$T/h0.json" "$T/hand.gcs" >/dev/null
	grep -q '"miss_latency": 0$' "$T/h0.json"
	run_status 0 gc-stats --metrics accelsim "$T/h0.json"
	sed -n '/^all kernels$/,$p' <<<"$output" >"$T/all.txt"
	load_get "$T/all.txt"
	expect_eq "$(get "$b\\[GLOBAL_ACC_R\\]\\[HIT\\]") $(get "$b\\[GLOBAL_ACC_R\\]\\[HIT_RESERVED\\]") $(get "$b\\[GLOBAL_ACC_W\\]\\[HIT\\]")" "3 0 1"
	expect_eq "$(get L2_total_cache_pending_hits)" 0
}

@test "gc-l1: warp instructions by operation are the distinct (kernel, block, warp, seq) of the stream" {
	bfs
	# an independent count: awk over the coalesced stream's dump
	want=$(gc-stats --dump "$T/front.gcs" | awk -F, '
		$9 == "global" && $8 == "load" { l[$1 "," $3 "," $4 "," $7] = 1 }
		$9 == "global" && $8 == "store" { s[$1 "," $3 "," $4 "," $7] = 1 }
		END { print length(l), length(s) }')
	expect_eq "$want" "21917 9032"
	run_status 0 gc-stats --metrics ncu "$T/l1.json"
	expect_eq "$(value '  all kernels (16)' l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum) $(value '  all kernels (16)' l1tex__t_requests_pipe_lsu_mem_global_op_st.sum)" "$want"
	# gc-l1's own requests are coalesced 128-byte line requests: 69908
	grep -q '^  "requests": 69908,$' "$T/l1.json"
}

@test "ncu: the hand-made stream's metrics, by hand" {
	small
	run_status 0 gc-stats --metrics ncu "$T/s1.json" "$T/s2.json" "$T/s3.json"
	k='  _Z6streamPfS_ (1)'
	# Kernel 1, one warp on SM 0, every line cold:
	#   seq 0 load 0x1000, 4 sectors: 1 request, 4 L1 misses, 4 L2 read misses
	#   seq 1 load 0x1000, 4 sectors: 4 L1 hits
	#   seq 2 store 0x2000, 4 full sectors: 4 L1 write misses, 4 L2 writes
	#     that allocate without a DRAM read (lazy-fetch-on-read)
	#   seq 3 loads 0x3000 and 0x3080, 1 sector each: one instruction, 2 L1
	#     misses, 2 L2 read misses
	#   seq 4 load 0x3000 sectors 1 and 2: the line is there (sector 0), 2
	#     sector misses in L1 and in L2
	# L1: 12 load sectors (4 hits), 4 store sectors (0 hits), 4 load and 1
	# store instructions; 4/16 = 25%, 4/12 = 33.33%, 12/4 = 3 sectors a
	# request.  L2: 8 read sectors (0 hits), 4 write sectors: 4 hits as the
	# hardware counts them (100%), 0 as the model does; 4/12 = 33.33% over
	# all.  DRAM: 8 sectors read = 256 bytes; nothing written (the L2 keeps
	# them).
	expect_eq "$(value "$k" l1tex__t_sector_hit_rate.pct)" 25.00
	expect_eq "$(value "$k" l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct)" 33.33
	expect_eq "$(value "$k" l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" 12
	expect_eq "$(value "$k" l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum)" 4
	expect_eq "$(value "$k" l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)" 4
	expect_eq "$(value "$k" l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)" 4
	expect_eq "$(value "$k" l1tex__t_requests_pipe_lsu_mem_global_op_st.sum)" 1
	expect_eq "$(value "$k" l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio)" 3.00
	expect_eq "$(value "$k" l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio)" 4.00
	expect_eq "$(value "$k" lts__t_sector_hit_rate.pct)" 33.33
	expect_eq "$(value "$k" lts__t_sectors_srcunit_tex_op_read.sum)" 8
	expect_eq "$(value "$k" lts__t_sectors_srcunit_tex_op_write.sum)" 4
	expect_eq "$(value "$k" lts__t_sector_op_read_hit_rate.pct)" 0.00
	expect_eq "$(value "$k" lts__t_sector_op_write_hit_rate.pct)" 100.00
	expect_eq "$(value "$k" dram__bytes_read.sum)" 256
	expect_eq "$(value "$k" dram__bytes_write.sum)" 0
	# all kernels: 4 hits of 28 L1 sectors; 16 of 24 L2 sectors hit as the
	# hardware counts (66.67%)
	expect_eq "$(value '  all kernels (2)' l1tex__t_sector_hit_rate.pct)" 14.29
	expect_eq "$(value '  all kernels (2)' lts__t_sector_hit_rate.pct)" 66.67
	expect_eq "$(value '  all kernels (2)' l1tex__t_requests_pipe_lsu_mem_global_op_st.sum)" 4
}

@test "ncu: streaming writes hit 100% as the hardware counts them, 0% in the model's own class" {
	small
	run_status 0 gc-stats --metrics ncu "$T/s1.json" "$T/s2.json" "$T/s3.json"
	# Kernel 2 writes three fresh lines, 12 full sectors: every one
	# allocates in L2 without a DRAM read
	k='  _Z5writePf (2)'
	expect_eq "$(value "$k" lts__t_sectors_srcunit_tex_op_write.sum)" 12
	expect_eq "$(value "$k" lts__t_sector_op_write_hit_rate.pct)" 100.00
	expect_eq "$(printf '%s\n' "$output" | sed -n "/^$k\$/,/^  [^ ]/p" | grep '^    gc: L2 write sector hit rate, model' | awk '{print $NF}')" 0.00
	expect_eq "$(value "$k" lts__t_sector_op_read_hit_rate.pct)" n/a
	# the two counts, in gc-l2's --stats
	expect_eq "$(sed -n '/"kernels": \[/,$p' "$T/s2.json" | sed -n '/"id": 2,/,/"dram_reads"/p' | sed -n '/"stores": {/,/}/p' | tr -d ' ,\n')" \
		'"stores":{"requested":12"hits":0"misses":12"line_misses":3"sector_misses":9"merged":0"hardware_hits":12}'
	# gc-dram's kernels: kernel 1 read 8 sectors
	grep -q '"kernel_count": 2,' "$T/s3.json"
	expect_eq "$(sed -n '/"kernels": \[/,/\]/p' "$T/s3.json" | sed -n 's/^ *"read_bytes": \([0-9]*\),$/\1/p' | tr '\n' ' ')" "256 0 "
}

@test "accelsim: the hand-made stream's classes, by hand" {
	small
	run_status 0 gc-stats --metrics accelsim "$T/s1.json" "$T/s2.json" "$T/s3.json"
	# kernel 1's block: loads HIT 4, MISS 3 (seq 0's line, seq 3's two
	# lines), SECTOR_MISS 5 (seq 0's other sectors, seq 4's two); stores
	# MISS 1, SECTOR_MISS 3.  L2: reads MISS 3, SECTOR_MISS 5; writes MISS
	# 1, SECTOR_MISS 3 (the model's class: present at the lookup)
	sed -n '1,/^kernel_launch_uid = 2 $/p' <<<"$output" >"$T/k1.txt"
	get() { sed -n "s/^[[:space:]]*$1 = //p" "$T/k1.txt"; }
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[HIT\]')" 4
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MISS\]')" 3
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_R\]\[SECTOR_MISS\]')" 5
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[MISS\]')" 1
	expect_eq "$(get 'Total_core_cache_stats_breakdown\[GLOBAL_ACC_W\]\[SECTOR_MISS\]')" 3
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[MISS\]')" 3
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[SECTOR_MISS\]')" 5
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[HIT\]')" 0
	expect_eq "$(get 'L2_cache_stats_breakdown\[GLOBAL_ACC_W\]\[MISS\]')" 1
	expect_eq "$(get L1D_total_cache_accesses)" 16
	expect_eq "$(get L1D_total_cache_misses)" 12
	expect_eq "$(get L1D_total_cache_miss_rate)" 0.7500
	expect_eq "$(get 'total dram reads')" 8
	# the whole run: SM 0, 28 sectors, 24 misses
	expect_match "$output" "	L1D_cache_core\[0\]: Access = 28, Miss = 24, Miss_rate = 0.857, Pending_hits = 0, Reservation_fails = 0"
}

@test "compare: an ncu --csv details page, predicted against measured per kernel" {
	small
	run_status 0 gc-stats --compare "$FIX/ncu/details.csv" "$T/s1.json" "$T/s2.json" "$T/s3.json"
	row() { printf '%s\n' "$output" | awk -v k="$1" -v m="$2" '$1 == k && $4 == m { print $5, $6, $7, $8 }'; }
	expect_eq "$(printf '%s\n' "${lines[0]}" | tr -s ' ')" "id ncu_id kernel metric predicted measured error"
	expect_eq "$(row 1 l1tex__t_sector_hit_rate.pct)" "25.00 30.00 -5.00 pp"
	expect_eq "$(row 1 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" "12 10 +20.00% "
	expect_eq "$(row 1 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)" "4 3 +33.33% "
	# 0.24 Kbyte = 240 bytes measured, 256 predicted: +6.67%
	expect_eq "$(row 1 dram__bytes_read.sum)" "256 240 +6.67% "
	# "1,003": ncu's thousands separator
	expect_eq "$(row 2 l1tex__t_requests_pipe_lsu_mem_global_op_st.sum)" "3 1003 -99.70% "
	expect_eq "$(row 2 lts__t_sectors_srcunit_tex_op_write.sum)" "12 16 -25.00% "
	expect_eq "$(row 2 lts__t_sector_op_write_hit_rate.pct)" "100.00 99.50 +0.50 pp"
	# ncu's ID 1 is our kernel 2; gpu__time_duration is not compared
	expect_eq "$(printf '%s\n' "$output" | awk '$1 == 2 { print $2, $3 }' | sort -u)" "1 write"
	expect_eq "$(printf '%s\n' "$output" | grep -c gpu__time_duration)" 0
	expect_eq "${#lines[@]}" 10
}

@test "compare: the raw page, a units row after the header" {
	small
	run_status 0 gc-stats --compare "$FIX/ncu/raw.csv" "$T/s1.json" "$T/s2.json" "$T/s3.json"
	row() { printf '%s\n' "$output" | awk -v k="$1" -v m="$2" '$1 == k && $4 == m { print $5, $6, $7, $8 }'; }
	expect_eq "$(row 1 dram__bytes_read.sum)" "256 240 +6.67% "
	expect_eq "$(row 1 l1tex__t_sector_hit_rate.pct)" "25.00 30.00 -5.00 pp"
	expect_eq "$(row 1 l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)" "4 4 +0.00% "
	expect_eq "$(row 2 l1tex__t_sector_hit_rate.pct)" "0.00 0.00 +0.00 pp"
	expect_eq "$(row 2 lts__t_sector_op_write_hit_rate.pct)" "100.00 99.50 +0.50 pp"
	expect_eq "${#lines[@]}" 9
}

@test "compare: a bad export is a one-line error with its line and field, and nothing on stdout" {
	small
	s="$T/s1.json $T/s2.json $T/s3.json"
	bad() { # bad FILE-CONTENT MESSAGE
		printf '%s' "$1" >"$T/bad.csv"
		sh_status 1 "gc-stats --compare $T/bad.csv $s"
		expect_eq "$(cat "$T/err")" "gc-stats: $T/bad.csv: $2"
		expect_eq "$(wc -c <"$T/out")" 0
	}
	h='"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
	bad "" "line 1: header: the file is empty"
	bad '"ID","Kernel Name","Metric Name","Metric Unit"
' 'line 1: header: no column "Metric Value"'
	bad '"ID","Kernel Name","Metric Unit"
' 'line 1: header: no column "Metric Name"'
	bad '"Kernel Name","Metric Name"
' 'line 1: header: no column "ID"'
	bad "$h
\"0\",\"stream\",\"dram__bytes_read.sum\",\"byte\",\"12x\"
" "line 2: Metric Value: '12x' is not a number"
	bad "$h
\"0\",\"stream\",\"dram__bytes_read.sum\",\"byte\"
" "line 2: 4 fields, the header has 5"
	bad "$h
\"0\",\"stream\",\"dram__bytes_read.sum\",\"byte\",\"12
" 'line 2: field 5: a quoted field without its closing quote'
	bad "$h
\"0\"x,\"stream\",\"a\",\"b\",\"1\"
" 'line 2: field 1: text after the closing quote'
	bad "$h
zero,\"stream\",\"dram__bytes_read.sum\",\"byte\",\"1\"
" "line 2: ID: 'zero' is not a kernel ID"
	bad "$h
0,stream,dram__bytes_read.sum,byte,1
" "1 kernels, the --stats files 2 (kernels match by launch order: profile every launch, or give the stages those alone)"
	bad "$h
0,stream,dram__bytes_read.sum,byte,1
1,\"read(float *)\",dram__bytes_read.sum,byte,1
" "line 3: Kernel Name: 'read(float *)' is not launch 2 of the --stats files, _Z5writePf"
	bad "$h
0,stream,gpu__time_duration.sum,usecond,1
1,write,gpu__time_duration.sum,usecond,1
" "no metric of the export is one gc predicts (gc-stats(1) lists them)"
}

@test "metrics: usage errors, files that are not the stages' --stats" {
	small
	run_status 2 gc-stats --metrics perf "$T/s1.json"
	expect_match "$output" "--metrics: 'perf' is not ncu or accelsim"
	run_status 2 gc-stats --metrics ncu
	expect_match "$output" "--metrics: no JSON files given"
	run_status 2 gc-stats --metrics ncu --compare x.csv "$T/s1.json"
	run_status 2 gc-stats --metrics ncu --json "$T/s1.json"
	echo '{"tool": "gc-rd", "x": 1}' >"$T/rd.json"
	run_status 1 gc-stats --metrics ncu "$T/rd.json"
	expect_eq "$output" "gc-stats: $T/rd.json: tool: 'gc-rd' is not gc-l1, gc-l2 or gc-dram"
	echo '{"requests": 1}' >"$T/x.json"
	run_status 1 gc-stats --metrics ncu "$T/x.json"
	expect_eq "$output" "gc-stats: $T/x.json: no \"tool\" key: not the --stats of gc-l1, gc-l2 or gc-dram"
	run_status 1 gc-stats --metrics ncu "$T/s1.json" "$T/s1.json"
	expect_eq "$output" "gc-stats: $T/s1.json: a second gc-l1 file (one of each stage)"
	bfs
	run_status 1 gc-stats --metrics accelsim "$T/s1.json" "$T/l2.json"
	expect_eq "$output" "gc-stats: $T/s1.json has 2 kernels, $T/l2.json 16: not the same run"
}

@test "metrics: older key names are read (per_kernel, a kernels count)" {
	small
	# the per-kernel list under its older name, and gc-l2's kernel count
	# as "kernels"
	sed 's/"kernels": \[/"per_kernel": [/' "$T/s1.json" >"$T/old1.json"
	sed 's/"kernel_count"/"kernels"/' "$T/s3.json" >"$T/old3.json"
	run_status 0 gc-stats --metrics ncu "$T/old1.json" "$T/old3.json"
	expect_eq "$(value '  _Z6streamPfS_ (1)' l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" 12
	expect_eq "$(value '  _Z6streamPfS_ (1)' dram__bytes_read.sum)" 256
}
