#!/usr/bin/env bats
# gc-dram: channels, banks, the row buffer, bus time, the stream passed on.
#
# tests/fixtures/l2/dram.csv, on the V100 mapping with consecutive
# partition indexing (chip = address bits 8-12, bank bits 13, 17-19, row
# bits 20-32), is worked by hand:
#   1 read  0x0      s0   32 B  channel 0 bank 0 row 0  empty
#   2 read  0x0      s1   32 B  row 0                   hit
#   3 write 0x100000 s0   20 B  row 1                   conflict
#   4 read  0x0      s0-3 128 B row 0: conflict, then 3 hits
#   5 read  0x100    s0   32 B  channel 1 bank 0 row 0  empty
# 8 transactions: 7 reads (224 B), 1 write (20 B); hits 4, conflicts 2,
# empty 2; channel 0 has 7 of 8.

load helpers

CONS="--gpu volta-v100 --partition-index consecutive"

mk() {
	gc-import "$FIX/l2/$1.csv" >"$T/$1.gcs"
}

@test "gc-dram: the mandatory command-line cases" {
	common_cli_cases gc-dram --channels
}

@test "gc-dram: --help and the manual list the same options" {
	help_matches_man gc-dram
}

@test "gc-dram: channels, banks and the row buffer, by hand" {
	mk dram
	gc-dram $CONS -o /dev/null --stats "$T/j" "$T/dram.gcs"
	expect_eq "$(jv records "$T/j")" 5
	expect_eq "$(jv transactions "$T/j")" 8
	expect_eq "$(jv reads "$T/j")" 7
	expect_eq "$(jv writes "$T/j")" 1
	expect_eq "$(jv read_bytes "$T/j")" 224
	expect_eq "$(jv write_bytes "$T/j")" 20
	expect_eq "$(jv row_hits "$T/j")" 4
	expect_eq "$(jv row_conflicts "$T/j")" 2
	expect_eq "$(jv row_empty "$T/j")" 2
	expect_eq "$(jv row_hit_rate "$T/j")" 0.5
	expect_eq "$(jv busiest_channel "$T/j")" 0
	expect_eq "$(jv busiest_share "$T/j")" 0.875
	# 8 * 32 B at 870.4 GB/s; 7 * 32 B at 870.4 / 32 GB/s
	expect_eq "$(jv time_s "$T/j")" 2.94118e-10
	expect_eq "$(jv busiest_time_s "$T/j")" 8.23529e-09
	# channel 0: 6 reads (192 B) and the write; bank 0 holds all of them
	sed -n '/"channel": 0,/,/"per_bank"/p' "$T/j" | tr -d ' \n' >"$T/c0"
	expect_eq "$(cat "$T/c0")" '"channel":0,"reads":6,"writes":1,"read_bytes":192,"write_bytes":20,"row_hits":4,"row_hit_rate":0.571429,"per_bank":['
	sed -n '/"channel": 1,/,/"per_bank"/p' "$T/j" | tr -d ' \n' >"$T/c1"
	expect_eq "$(cat "$T/c1")" '"channel":1,"reads":1,"writes":0,"read_bytes":32,"write_bytes":0,"row_hits":0,"row_hit_rate":0,"per_bank":['
}

@test "gc-dram: the text report" {
	mk dram
	gc-dram $CONS --emit none -o "$T/r" "$T/dram.gcs"
	expect_eq "$(sed -n 1p "$T/r")" "gc-dram: $T/dram.gcs"
	expect_eq "$(sed -n 2p "$T/r")" "gpu volta-v100: 32 channels x 16 banks, 32-byte transactions, 870.4 GB/s"
	expect_eq "$(sed -n 4p "$T/r")" "transactions 8: reads 7 (224 bytes), writes 1 (20 bytes)"
	expect_eq "$(sed -n 5p "$T/r")" "row buffer: hits 4, conflicts 2, empty 2, hit rate 0.5000"
	expect_eq "$(wc -l <"$T/r" | tr -d ' ')" 39
	# --bandwidth halves the rate: twice the time
	gc-dram $CONS --bandwidth 435.2 -o /dev/null --stats "$T/j" "$T/dram.gcs"
	expect_eq "$(jv time_s "$T/j")" 5.88235e-10
}

@test "gc-dram: the partition indexing decides the channel" {
	mk dram
	# IPOLY: 0x0 and 0x100 keep their sub-partitions (hi 0); 0x100000
	# has hi = 0x100000 >> 14 = 64: a6 is in s0 and s2 of IPOLY(64): sub
	# 5, channel 2.  So the write opens a row of another channel, and the
	# four sectors of record 4 all hit row 0 of channel 0.
	gc-dram --gpu volta-v100 -o /dev/null --stats "$T/j" "$T/dram.gcs"
	sed -n '/"channel": 2,/,/"per_bank"/p' "$T/j" | grep -q '"writes": 1,'
	expect_eq "$(jv row_hits "$T/j")" 5
	expect_eq "$(jv row_empty "$T/j")" 3
	expect_eq "$(jv row_conflicts "$T/j")" 0
}

@test "gc-dram: the stream goes on unchanged on stdout; the report by -v, --report, --emit none" {
	mk dram
	gc-dram "$T/dram.gcs" >"$T/o" 2>"$T/e"
	cmp "$T/dram.gcs" "$T/o"
	[ ! -s "$T/e" ]
	gc-dram -v "$T/dram.gcs" >"$T/o" 2>"$T/e"
	cmp "$T/dram.gcs" "$T/o"
	expect_match "$(sed -n 4p "$T/e")" "^transactions 8:"
	# -o takes the stream; --report FILE the report
	gc-dram -o "$T/s" --report "$T/r" "$T/dram.gcs" >"$T/o" 2>"$T/e"
	expect_empty "$(cat "$T/o" "$T/e")"
	cmp "$T/dram.gcs" "$T/s"
	expect_match "$(sed -n 1p "$T/r")" "^gc-dram: "
	expect_eq "$(sed -n 4p "$T/r")" "transactions 8: reads 7 (224 bytes), writes 1 (20 bytes)"
	# --emit none: no stream, the report on stdout
	gc-dram --emit none "$T/dram.gcs" >"$T/o" 2>"$T/e"
	expect_empty "$(cat "$T/e")"
	cmp "$T/r" "$T/o"
	# a terminal is refused unless --force (script gives one, where it exists)
	if command -v script >/dev/null; then
		script -qec "gc-dram '$T/dram.gcs'" /dev/null >"$T/o" 2>&1 || true
		expect_match "$(cat "$T/o")" "terminal"
	fi
	sh_status 2 "gc-dram --emit dram,none '$T/dram.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-dram: --emit: 'dram,none' is not dram or none"
	gc-dram -z "$T/dram.gcs" | gzip -dc | cmp - "$T/dram.gcs"
}

@test "gc-dram: stdin, a file and - agree; gzip input gives the same output" {
	mk dram
	gc-dram $CONS --emit none --stats "$T/j1" "$T/dram.gcs" | tail -n +2 >"$T/a"
	gc-dram $CONS --emit none --stats "$T/j2" <"$T/dram.gcs" | tail -n +2 >"$T/b"
	gc-dram $CONS --emit none --stats "$T/j3" - <"$T/dram.gcs" | tail -n +2 >"$T/c"
	expect_same "$T/a" "$T/b" stdin
	expect_same "$T/a" "$T/c" -
	expect_same <(grep -v '"input"' "$T/j1") <(grep -v '"input"' "$T/j2") "--stats"
	gzip -c "$T/dram.gcs" >"$T/dram.gcs.gz"
	gc-dram $CONS --emit none <"$T/dram.gcs.gz" | tail -n +2 | cmp - "$T/a"
	gc-dram <"$T/dram.gcs.gz" | cmp - "$T/dram.gcs"
}

@test "gc-dram: a full disk is an error (stream and report)" {
	mk dram
	sh_status 1 "gc-dram '$T/dram.gcs' >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-dram: .*No space left on device"
	sh_status 1 "gc-dram --emit none '$T/dram.gcs' >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-dram: .*No space left on device"
	output_rule "gc-dram $CONS '$T/dram.gcs'"
}

@test "gc-dram: bad input: truncated, wrong kind, bad mask" {
	mk dram
	head -c 300 "$T/dram.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-dram --emit none <'$T/cut.gcs'"
	expect_match "$(cat "$T/err")" "^gc-dram: stdin: record [0-9]+ \(offset [0-9]+\): "
	[ ! -s "$T/out" ]
	gc-import "$FIX/l2/seq.csv" >"$T/req.gcs"
	sh_status 1 "gc-dram '$T/req.gcs'"
	expect_eq "$(cat "$T/err")" "gc-dram: $T/req.gcs: gc-dram reads DRAM transactions; this stream holds requests"
	[ ! -s "$T/out" ]
	sed 's/,0x100,32,0x1,5,/,0x100,32,0x0,5,/' "$FIX/l2/dram.csv" | gc-import >"$T/m.gcs"
	sh_status 1 "gc-dram --emit none '$T/m.gcs'"
	expect_eq "$(cat "$T/err")" "gc-dram: $T/m.gcs: record 7 (offset 360): field mask: 0x0 is not a set of the 4 sectors of a 128-byte line"
	[ ! -s "$T/out" ]
	# the fourth data record's clock 4 -> 9 (offset 168 + 64 + 3 * 32 +
	# 20): the fifth's 5 is out of order.  The V100's mapping decodes by
	# table: the reader's checks are fused into gc-dram's count there.
	cp "$T/dram.gcs" "$T/t.gcs"
	printf '\011' | dd of="$T/t.gcs" bs=1 seek=348 conv=notrunc status=none
	local gpu
	for gpu in "" "--gpu volta-v100"; do
		sh_status 1 "gc-dram $gpu '$T/t.gcs'"
		expect_eq "$(cat "$T/err")" "gc-dram: $T/t.gcs: record 7 (offset 360): timestamp 5 is earlier than the previous record's 9"
		[ ! -s "$T/out" ]
		sh_status 1 "gc-dram $gpu --emit none '$T/m.gcs'"
		expect_eq "$(cat "$T/err")" "gc-dram: $T/m.gcs: record 7 (offset 360): field mask: 0x0 is not a set of the 4 sectors of a 128-byte line"
	done
}

@test "gc-dram: usage errors" {
	mk dram
	sh_status 2 "gc-dram --bandwidth fast '$T/dram.gcs'"
	expect_match "$(cat "$T/err")" "^gc-dram: --bandwidth: "
	sh_status 2 "gc-dram --partition-index no-such '$T/dram.gcs'"
	expect_match "$(cat "$T/err")" "^gc-dram: --partition-index: "
	sh_status 2 "gc-dram a b"
	[ ! -s "$T/out" ]
}

@test "gc-dram: a mapping that puts the sectors of a line in different banks" {
	# bank bits 5, 12-14 (17-19 after the chip bits go in at bit 8): sector
	# 1 of a line (bit 5) is in bank 1, sector 0 in bank 0
	map='dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.CCBSSSSS'
	cat >"$T/d.csv" <<-'EOF2'
	# gc-stats dump 1
	# kind dram
	# version 1.0
	# record_size 32
	# required 0x0
	# optional 0x0
	kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info
	1,,,,,,,kbegin,,,,,,,,"k",grid=1x1x1 block=32x1x1 regs=0 shmem=0
	1,0,0,0,,0x10,0,load,global,0x0,64,0x3,1,,0,,
	1,0,0,0,,0x10,1,load,global,0x0,32,0x2,2,,0,,
	1,0,0,0,,0x10,2,load,global,0x0,96,0x7,3,,0,,
	1,,,,,,,kend,,,,,,,,,records=3
	,,,,,,,end,,,,,,,,,records=6 data=3
	EOF2
	gc-import "$T/d.csv" >"$T/d.gcs"
	gc-dram $CONS --mapping "$map" -o /dev/null --stats "$T/j" "$T/d.gcs"
	# 1: bank 0 empty, bank 1 empty; 2: bank 1 hit; 3: s0 bank 0 hit,
	# s1 bank 1 hit, s2 (bit 6) bank 0 hit
	expect_eq "$(jv transactions "$T/j")" 6
	expect_eq "$(jv row_empty "$T/j")" 2
	expect_eq "$(jv row_hits "$T/j")" 4
	expect_eq "$(jv row_conflicts "$T/j")" 0
	sed -n '/"channel": 0,/,/"channel": 1,/p' "$T/j" | tr -d ' \n' >"$T/c0"
	expect_match "$(cat "$T/c0")" '"per_bank":\[\{"bank":0,"reads":3,"writes":0,"row_hits":2,"row_conflicts":0,"row_empty":1\},\{"bank":1,"reads":3,"writes":0,"row_hits":2,"row_conflicts":0,"row_empty":1\},'
}
