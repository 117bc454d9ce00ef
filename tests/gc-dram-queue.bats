#!/usr/bin/env bats
# gc-dram --queueing (the FR-FCFS controller of lib/model/dramq.h),
# --arrival, --export and the mapping schemes (issue 21).
#
# The hand-built streams run on volta-v100 (SM7_QV100's timing, DRAM
# cycles: tRCD 12, tCL 12, tWL 2, tRP 12, tRAS 28, tRC 40, tRRD 3,
# tCCD 1, tCCDL 2, tRTPL 3, tWR 10, tCDLR 3; burst 2 at 2 a cycle:
# tBURST 1) with --mapping RoBaRaCoCh: a 32-byte offset, 5 channel bits
# (5-9), 6 column bits (10-15), 4 bank bits (16-19), the row above.  So
# 0x0 is channel 0, bank 0, row 0, and 0x100000 * k is row k of the same
# bank.

load helpers

Q="--gpu volta-v100 --mapping RoBaRaCoCh --queueing --emit none"

# mkq FILE OP:ADDR[:TIME]...: a DRAM stream of one-sector records.
mkq() {
	local f=$1 i=0 op a t
	shift
	{
		printf '# gc-stats dump 1\n# kind dram\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header line_size=128\n# header sector_size=32\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"q",grid=1x1x1 block=32x1x1 regs=0 shmem=0'
		for x in "$@"; do
			IFS=: read -r op a t <<-EOS
			$x
			EOS
			echo "1,0,0,0,,0x10,$i,$op,global,$a,32,0x1,${t:-0},,0,,"
			i=$((i + 1))
		done
		echo "1,,,,,,,kend,,,,,,,,,records=$i"
		echo ",,,,,,,end,,,,,,,,,records=$((i + 3)) data=$i"
	} | gc-import >"$T/$f.gcs"
}

@test "gc-dram --queueing: one bank, back-to-back row hits against row conflicts, by hand" {
	# Four reads of row 0 at cycle 0 (--arrival 1e9 GB/s: 32 B every
	# 3e-8 cycles).  The first activates at 0 (empty bank), reads at tRCD
	# = 12, data 24..25: 25.  The hits follow tCCDL = 2 apart (one bank
	# group): reads at 14, 16, 18, latencies 27, 29, 31.  Mean 28, p50 the
	# 2nd = 27, p95 the 4th = 31.  Waiting for the column command: 12 + 14
	# + 16 + 18 = 60 cycles over the 31 of the run: queue length 1.93548
	# in channel 0, 60 / (32 * 31) = 0.0604839 over the 32 channels; the
	# bus is busy 4 of 31 cycles (0.129032).
	mkq h load:0x0 load:0x0 load:0x0 load:0x0
	gc-dram $Q --arrival 1e9 --stats "$T/h.json" "$T/h.gcs" >"$T/h.txt"
	expect_eq "$(sed -n 8p "$T/h.txt")" "read latency (cycles): mean 28.0000, p50 27, p95 31, p99 31, max 31"
	tr -d ' \n' <"$T/h.json" | grep -o '"queueing":{[^[]*' >"$T/h.q"
	expect_eq "$(cat "$T/h.q")" '"queueing":{"arrival":"rate","arrival_gbs":1000000000,"clock_mhz":850,"queue":64,"tburst":1,"cycles":31,"read_latency_mean":28,"read_latency_p50":27,"read_latency_p95":31,"read_latency_p99":31,"read_latency_max":31,"write_latency_mean":0,"write_latency_p50":0,"write_latency_p95":0,"write_latency_p99":0,"write_latency_max":0,"queue_length":0.0604839,"bus_utilisation":0.00403226,"row_hits":3,"row_empty":1,"row_conflicts":0,"row_hit_rate":0.75,"per_channel":'
	expect_match "$(tr -d ' \n' <"$T/h.json")" '"per_channel":\[\{"channel":0,"read_latency_mean":28,"write_latency_mean":0,"queue_length":1.93548,"bus_utilisation":0.129032,"row_hit_rate":0.75\}'
	# Rows 0-3 of the bank: each conflict precharges at the previous
	# activate + tRAS (28; the read's + tRTPL is earlier), activates tRP =
	# 12 later, so activates are tRC = 40 apart: 0, 40, 80, 120; reads at
	# +12, data +12..+13: latencies 25, 65, 105, 145, mean 85.
	mkq c load:0x0 load:0x100000 load:0x200000 load:0x300000
	gc-dram $Q --arrival 1e9 "$T/c.gcs" >"$T/c.txt"
	expect_eq "$(sed -n 8p "$T/c.txt")" "read latency (cycles): mean 85.0000, p50 65, p95 145, p99 145, max 145"
	expect_match "$(sed -n 10p "$T/c.txt")" "served: row hits 0, empty 1, conflicts 3, hit rate 0.0000$"
}

@test "gc-dram --queueing: FR-FCFS takes a younger hit first; an idle controller; --export" {
	# Row 0, row 1, row 0, all at 0: the second row-0 read is a hit and
	# goes first (column at 14: 27), then the conflict activates at 28 +
	# 12 = 40 (column 52, data to 65).  FCFS would have served it at 105.
	mkq r load:0x0 load:0x100000 load:0x0
	gc-dram $Q --arrival 1e9 "$T/r.gcs" >"$T/r.txt"
	expect_eq "$(sed -n 8p "$T/r.txt")" "read latency (cycles): mean 39.0000, p50 27, p95 65, p99 65, max 65"
	# 10000 SM cycles apart (1132 MHz; 850 MHz DRAM: 7508.8 cycles, floor):
	# every request meets an idle channel.  Empty bank: tRCD + tCL +
	# tBURST = 25; hit: tCL + tBURST = 13; conflict: tRP + 25 = 37; a
	# write hit: tWL + tBURST = 3; a read hit after it 13.
	mkq i load:0x0:0 load:0x0:10000 load:0x100000:20000 store:0x100000:30000 load:0x100000:40000
	gc-dram $Q --arrival time --export dramsim3:"$T/i.trc" "$T/i.gcs" >"$T/i.txt"
	expect_eq "$(sed -n 7p "$T/i.txt" | cut -d, -f3)" " arrival time"
	expect_eq "$(sed -n 8p "$T/i.txt")" "read latency (cycles): mean 22.0000, p50 13, p95 37, p99 37, max 37"
	expect_eq "$(sed -n 9p "$T/i.txt")" "write latency (cycles): mean 3.0000, p50 3, p95 3, p99 3, max 3"
	# DRAMSim3: hex address, READ|WRITE, the arrival cycle in decimal
	expect_eq "$(tr '\n' ';' <"$T/i.trc")" "0x0 READ 0;0x0 READ 7508;0x100000 READ 15017;0x100000 WRITE 22526;0x100000 READ 30035;"
	expect_empty "$(grep -Evc '^0x[0-9a-f]+ (READ|WRITE) [0-9]+$' "$T/i.trc" | grep -v '^0$')"
	# Ramulator 2 LoadStoreTrace: LD|ST and the address, one space
	gc-dram --gpu volta-v100 --export ramulator:"$T/i.ram" -o /dev/null "$T/i.gcs"
	expect_eq "$(tr '\n' ';' <"$T/i.ram")" "LD 0x0;LD 0x0;LD 0x100000;ST 0x100000;LD 0x100000;"
	sh_status 2 "gc-dram --export spice:x '$T/i.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-dram: --export: 'spice:x' is not ramulator:FILE or dramsim3:FILE"
	sh_status 2 "gc-dram --mapping ChRaBaRoCo --gpu fermi-gtx470-16k '$T/i.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-dram: --mapping: ChRaBaRoCo: 5 channels: the channel bits need a power of two"
}

@test "gc-dram: the mapping schemes on hand-decoded addresses" {
	# RoBaRaCoCh, 32 channels, 16 banks, 2 KB rows, 32-byte bursts: offset
	# 0-4, channel 5-9 (dramid@5), column 10-15, bank 16-19, row 20 up.
	run_status 0 addrmap-test scheme RoBaRaCoCh 32 16 2048 32
	expect_eq "$output" "dramid@5;00000RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRBBBBCCCCCCSSSSS"
	run_status 0 addrmap-test decode "$output" 32 1 consecutive 0x20 0x7fff 0x80000 0x300000
	# 0x7fff: channel bits 5-9 all set (31); column 10-14 and offset 0-4
	# (col counts the offset too: 0x3ff); bit 19 is bank bit 3; 0x300000
	# is row 3
	expect_eq "${lines[0]}" "0x20 chip 1 sub 1 bank 0 row 0x0 col 0x0 burst 0x0 paddr 0x0"
	expect_eq "${lines[1]}" "0x7fff chip 31 sub 31 bank 0 row 0x0 col 0x3ff burst 0x1f paddr 0x3ff"
	expect_eq "${lines[2]}" "0x80000 chip 0 sub 0 bank 8 row 0x0 col 0x0 burst 0x0 paddr 0x4000"
	expect_eq "${lines[3]}" "0x300000 chip 0 sub 0 bank 0 row 0x3 col 0x0 burst 0x0 paddr 0x18000"
	# 12 channels: the channel is (addr >> 5) % 12, the rest (addr >> 5) /
	# 12 above the offset: 0x180 >> 5 = 12: channel 0, column 1 (0x20);
	# 0x180000 >> 5 = 49152 = 12 * 4096: bit 12 of the rest, bit 17 of
	# the decoded address, row bit 2
	run_status 0 addrmap-test scheme RoBaRaCoCh 12 16 2048 32
	run_status 0 addrmap-test decode "$output" 12 1 consecutive 0x180 0x180000
	expect_eq "${lines[0]}" "0x180 chip 0 sub 0 bank 0 row 0x0 col 0x20 burst 0x0 paddr 0x20"
	expect_eq "${lines[1]}" "0x180000 chip 0 sub 0 bank 0 row 0x4 col 0x0 burst 0x0 paddr 0x20000"
	# ChRaBaRoCo: offset 0-4, column 5-10, 16 row bits 11-26, bank
	# 27-30, channel 31-35; bit 36 is past the mapping
	run_status 0 addrmap-test scheme chrabaroco 32 16 2048 32
	expect_eq "$output" "0000000000000000000000000000DDDDDBBBBRRRRRRRRRRRRRRRRCCCCCCSSSSS"
	run_status 0 addrmap-test decode "$output" 32 1 consecutive 0x800 0x8000000 0x80000000 0x1000000000
	expect_eq "${lines[0]}" "0x800 chip 0 sub 0 bank 0 row 0x1 col 0x0 burst 0x0 paddr 0x800"
	expect_eq "${lines[1]}" "0x8000000 chip 0 sub 0 bank 1 row 0x0 col 0x0 burst 0x0 paddr 0x8000000"
	expect_eq "${lines[2]}" "0x80000000 chip 1 sub 1 bank 0 row 0x0 col 0x0 burst 0x0 paddr 0x0"
	expect_eq "${lines[3]}" "0x1000000000 chip 0 sub 0 bank 0 row 0x0 col 0x0 burst 0x0 paddr 0x80000000"
	run_status 0 addrmap-test scheme RoCoBaCh 32 16 2048 32
	expect_eq "$output" "not a scheme"
}

@test "gc-dram --queueing on the BFS trace after gc-l1 --timing: arrival by time, every transaction served and exported" {
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" | gc-sched | gc-coalesce |
		gc-l1 --timing | gc-l2 >"$T/d.gcs"
	gc-dram --queueing --export dramsim3:"$T/d.trc" --stats "$T/j" -o /dev/null "$T/d.gcs"
	tr -d ' \n' <"$T/j" >"$T/j1"
	n=$(grep -o '"transactions":[0-9]*' "$T/j1" | cut -d: -f2)
	[ "$n" -gt 1000 ]
	expect_match "$(cat "$T/j1")" '"queueing":\{"arrival":"time","arrival_gbs":0,'
	# the served rows add up to the transactions; one export line each,
	# the arrival cycles never going back
	q=$(grep -o '"queueing":{[^[]*' "$T/j1")
	h=$(echo "$q" | grep -o '"row_hits":[0-9]*' | cut -d: -f2)
	e=$(echo "$q" | grep -o '"row_empty":[0-9]*' | cut -d: -f2)
	c=$(echo "$q" | grep -o '"row_conflicts":[0-9]*' | cut -d: -f2)
	expect_eq "$((h + e + c))" "$n"
	expect_eq "$(wc -l <"$T/d.trc" | tr -d ' ')" "$n"
	expect_empty "$(awk '$3 < p { print NR } { p = $3 }' "$T/d.trc")"
	# without --export a record's sectors go to the controller at once
	# (gc_dramq_add_n), with it one by one: the same results
	gc-dram --queueing --stats "$T/k" -o /dev/null "$T/d.gcs"
	expect_same "$T/j" "$T/k" "--stats with and without --export"
}
