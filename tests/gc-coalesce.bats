#!/usr/bin/env bats
# gc-coalesce: warp instructions to line requests with sector masks.
#
# Streams come from gc-gen and the Accel-Sim vectoradd fixture, or from
# hand-written dumps restored by gc-import (acsv, helpers.bash); requests
# are read back through gc-stats --dump.  Every request asserted here is worked out
# by hand in the comments.

load helpers

# lanes N EXPR: N rows of one instruction (block 0, warp 0, pc 0x10, seq
# 0, load global), lane i at the address awk's EXPR gives, SIZE bytes.
lanes() {
	awk -v n="$1" -v size="$3" "BEGIN { for (i = 0; i < n; i++)
		printf \"0 0 %d 0x10 0 load global %d %d\\n\", i, $2, size }"
}

# reqs FILE: the requests as "time block warp pc seq op space addr bytes mask flags".
reqs() {
	gc-stats --dump "$1" | awk -F, '$8 == "load" || $8 == "store" || $8 == "atomic" {
		print $13, $3, $4, $6, $7, $8, $9, $10, $11, $12, $15 }'
}

# js FILE PATH: a value of a --stats JSON file, by its flattened path.
js() {
	gc-stats --merge --arrays "$1" |
		awk -F, -v p="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == p) c = i }
				   NR == 2 && c { print $c }'
}

# an awk function: hex("0x1f") = 31 (mawk has no strtonum)
HEX='function hex(s,    i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v }'

same() {
	expect_same <(gc-stats --dump "$1" | grep -v '^# header provenance=') \
		<(gc-stats --dump "$2" | grep -v '^# header provenance=')
}

@test "gc-coalesce: mandatory command-line cases" {
	common_cli_cases gc-coalesce
	help_matches_man gc-coalesce
	sh_status 2 "gc-coalesce --arch kepler"
	expect_eq "$(head -1 "$T/err")" "gc-coalesce: --arch: 'kepler' is not sector or fermi"
	[ ! -s "$T/out" ]
	sh_status 2 "gc-coalesce --arch"
	expect_eq "$(head -1 "$T/err")" "gc-coalesce: option '--arch' needs a value"
}

@test "gc-coalesce: seed 000 Table 2 through gc-sched: the table's order and lines" {
	# The seed's lines hold 4 elements: 8-byte elements in 32-byte lines
	# (a GPU file with 32-byte L1 lines).  Threads 0-3 load x[2t], then
	# x[2t+1]: lines 0 0 1 1 0 0 1 1.
	printf 'name = line32\nl1.line = 32\nl1.sector = 32\nl1.sets = 128\nl1.index = linear\n' >"$T/line32.gpu"
	gc-gen table2 -e 8 | gc-sched --gpu "$T/line32.gpu" | gc-coalesce >"$T/r.gcs"
	run reqs "$T/r.gcs"
	# time:warp:line, line 1 at 0x10000020
	expect_eq "$(echo "$output" | awk '{ printf "%d:%d:%s ", $1, $3, $8 == "0x10000000" ? 0 : $8 == "0x10000020" ? 1 : $8 }')" \
		"0:0:0 1:1:0 2:2:1 3:3:1 4:0:0 5:1:0 6:2:1 7:3:1 "
	expect_eq "$(echo "$output" | awk '{ print $9, $10 }' | sort -u)" "8 0x1"
	expect_eq "$(hkey "$T/r.gcs" line_size)" 32
}

@test "gc-coalesce: vectoradd: four sectors per full warp instruction, one for the partial warp" {
	# 100 threads: warps 0-2 full, warp 3 has lanes 0-3 (threads 96-99).
	# Each array is aligned: warp w's 4-byte loads cover line w, 128 bytes;
	# warp 3's four lanes are bytes 0-15 of line 3, sector 0.
	gc-import "$FIX/traces/accelsim-v4-pascal-vectoradd/kernel-1.traceg" |
		gc-sched --gpu volta-v100 | gc-coalesce >"$T/r.gcs"
	run reqs "$T/r.gcs"
	expect_eq "$output" "0 0 0 0x98 0 load global 0x7f2b2d500000 128 0xf 0
1 0 1 0x98 0 load global 0x7f2b2d500080 128 0xf 0
2 0 2 0x98 0 load global 0x7f2b2d500100 128 0xf 0
3 0 3 0x98 0 load global 0x7f2b2d500180 16 0x1 0
4 0 0 0xb0 1 load global 0x7f2b2d500200 128 0xf 0
5 0 1 0xb0 1 load global 0x7f2b2d500280 128 0xf 0
6 0 2 0xb0 1 load global 0x7f2b2d500300 128 0xf 0
7 0 3 0xb0 1 load global 0x7f2b2d500380 16 0x1 0
8 0 0 0xd8 2 store global 0x7f2b2d500400 128 0xf 0
9 0 1 0xd8 2 store global 0x7f2b2d500480 128 0xf 0
10 0 2 0xd8 2 store global 0x7f2b2d500500 128 0xf 0
11 0 3 0xd8 2 store global 0x7f2b2d500580 16 0x1 0"
	expect_eq "$(hkey "$T/r.gcs" coalesce.arch)" sector
	expect_eq "$(hkey "$T/r.gcs" sector_size)" 32
}

@test "gc-coalesce: the Fermi rule: 8-byte accesses by half warp, 16-byte by quarter warp" {
	# 8-byte: lane i reads 0x1000 + (i % 16) * 8, all in line 0x1000:
	# Fermi, two requests (lanes 0-15, 16-31); sectors, one.
	lanes 32 "4096 + (i % 16) * 8" 8 | acsv >"$T/h.gcs"
	gc-coalesce --arch fermi "$T/h.gcs" >"$T/hf.gcs"
	expect_eq "$(reqs "$T/hf.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 128 0x1;0x1000 128 0x1;"
	gc-coalesce --arch sector "$T/h.gcs" >"$T/hs.gcs"
	expect_eq "$(reqs "$T/hs.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 128 0xf;"
	# 16-byte: lane i reads 0x1000 + (i % 8) * 16: four quarter warps
	lanes 32 "4096 + (i % 8) * 16" 16 | acsv >"$T/q.gcs"
	gc-coalesce --arch fermi "$T/q.gcs" >"$T/qf.gcs"
	expect_eq "$(reqs "$T/qf.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 128 0x1;0x1000 128 0x1;0x1000 128 0x1;0x1000 128 0x1;"
	gc-coalesce --arch sector "$T/q.gcs" >"$T/qs.gcs"
	expect_eq "$(reqs "$T/qs.gcs" | wc -l | tr -d ' ')" 1
	# 4-byte: lane i reads 0x1000 + (i % 16) * 4: the whole warp, 64 bytes
	lanes 32 "4096 + (i % 16) * 4" 4 | acsv >"$T/w.gcs"
	gc-coalesce --arch fermi "$T/w.gcs" >"$T/wf.gcs"
	expect_eq "$(reqs "$T/wf.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 64 0x1;"
	gc-coalesce --arch sector "$T/w.gcs" >"$T/ws.gcs"
	expect_eq "$(reqs "$T/ws.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 64 0x3;"
	# consecutive 8-byte words: one line per half warp under both rules
	lanes 32 "4096 + i * 8" 8 | acsv >"$T/c.gcs"
	gc-coalesce --arch fermi "$T/c.gcs" >"$T/cf.gcs"
	expect_eq "$(reqs "$T/cf.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 128 0x1;0x1080 128 0x1;"
	gc-coalesce --arch sector "$T/c.gcs" >"$T/cs.gcs"
	expect_eq "$(reqs "$T/cs.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 128 0xf;0x1080 128 0xf;"
	# the rule follows the GPU by default: Fermi's preset, then Volta's
	gc-coalesce "$T/h.gcs" >"$T/hd.gcs"
	expect_same <(reqs "$T/hd.gcs") <(reqs "$T/hf.gcs") "Fermi's default"
	expect_eq "$(hkey "$T/hd.gcs" sector_size)" 128
	gc-coalesce --gpu volta-v100 "$T/h.gcs" >"$T/hv.gcs"
	expect_same <(reqs "$T/hv.gcs") <(reqs "$T/hs.gcs") "Volta's default"
}

@test "gc-coalesce: --arch sets the GPU's coalesce.arch in the header" {
	lanes 1 "4096" 4 | acsv >"$T/a.gcs"
	gc-coalesce --arch sector "$T/a.gcs" >"$T/s.gcs"
	expect_eq "$(hkey "$T/s.gcs" gpu.coalesce.arch)" maxwell
	expect_eq "$(hkey "$T/s.gcs" coalesce.arch)" sector
	expect_eq "$(hkey "$T/s.gcs" line_size)" 128
	expect_eq "$(hkey "$T/s.gcs" sector_size)" 32
	gc-coalesce --gpu volta-v100 --arch sector "$T/a.gcs" >"$T/v.gcs"
	expect_eq "$(hkey "$T/v.gcs" gpu.coalesce.arch)" volta
	gc-coalesce --gpu volta-v100 --arch fermi "$T/a.gcs" >"$T/f.gcs"
	expect_eq "$(hkey "$T/f.gcs" gpu.coalesce.arch)" fermi
	expect_eq "$(hkey "$T/f.gcs" coalesce.arch)" fermi
	expect_eq "$(hkey "$T/f.gcs" gpu)" volta-v100
	expect_eq "$(gc-stats --dump "$T/f.gcs" | sed -n 's/^# kind //p')" requests
	expect_eq "$(hkey "$T/f.gcs" provenance)" "gc-coalesce --gpu volta-v100 --arch fermi $T/a.gcs"
}

@test "gc-coalesce: an access straddling a line is split" {
	# lane 0: 8 bytes at 0x107c (4 in line 0x1000, sector 3; 4 in 0x1080,
	# sector 0); lane 1: 4 bytes at 0x1084 (line 0x1080, sector 0).
	acsv >"$T/s.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x107c 8
	0 0 1 0x10 0 load global 0x1084 4
	EOF
	gc-coalesce --arch sector --stats "$T/s.json" "$T/s.gcs" >"$T/r.gcs"
	expect_eq "$(reqs "$T/r.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 4 0x8;0x1080 8 0x1;"
	expect_eq "$(js "$T/s.json" straddling)" 1
	expect_eq "$(js "$T/s.json" bytes)" 12
	gc-coalesce --arch fermi "$T/s.gcs" >"$T/f.gcs"
	expect_eq "$(reqs "$T/f.gcs" | awk '{ print $8, $9, $10 }' | tr '\n' ';')" "0x1000 4 0x1;0x1080 8 0x1;"
}

@test "gc-coalesce: shared memory is counted with its bank conflicts, not written" {
	# s0: lane i reads word 32i: all in bank 0, 32 passes; s1: every lane
	# reads 0x40: broadcast, 1 pass; s2: lane i reads word 2i: banks 0, 2,
	# ... twice each, 2 passes; s3: lane i reads 8 bytes at 8i: 64 words,
	# two in each bank, 2 passes.  37 passes, 33 beyond one each.
	{
		lanes 32 "i * 128" 4 | awk '{ $5 = 0; $7 = "shared"; print }'
		lanes 32 "64" 4 | awk '{ $5 = 1; $7 = "shared"; print }'
		lanes 32 "i * 8" 4 | awk '{ $5 = 2; $7 = "shared"; print }'
		lanes 32 "i * 8" 8 | awk '{ $5 = 3; $7 = "shared"; print }'
		lanes 32 "4096 + i * 4" 4 | awk '{ $5 = 4; print }'
	} | acsv >"$T/sh.gcs"
	gc-coalesce -v --stats "$T/s.json" "$T/sh.gcs" >"$T/r.gcs" 2>"$T/v"
	expect_eq "$(reqs "$T/r.gcs" | awk '{ print $5, $7, $8, $9 }')" "4 global 0x1000 128"
	expect_eq "$(js "$T/s.json" shared.accesses)" 128
	expect_eq "$(js "$T/s.json" shared.instructions)" 4
	expect_eq "$(js "$T/s.json" shared.wavefronts)" 37
	expect_eq "$(js "$T/s.json" shared.conflicts)" 33
	expect_eq "$(js "$T/s.json" shared.conflicted_instructions)" 3
	expect_eq "$(js "$T/s.json" shared.max_degree)" 32
	expect_eq "$(js "$T/s.json" instructions)" 5
	expect_eq "$(js "$T/s.json" requests)" 1
	expect_eq "$(js "$T/s.json" by_space.shared.requests)" 0
	expect_eq "$(sed -n 3p "$T/v")" "gc-coalesce: shared memory: 128 accesses in 4 instructions, 37 wavefronts (33 bank conflicts, 3 instructions conflicted, at most 32-way)"
}

@test "gc-coalesce: atomics are flagged to bypass L1; spaces kept apart" {
	# lanes 0-1 of an atomic; an instruction with global and local lanes
	acsv >"$T/a.gcs" <<-EOF
	0 0 0 0x10 0 atomic global 0x2000 4
	0 0 1 0x10 0 atomic global 0x2004 4
	0 0 0 0x20 1 load global 0x3000 4
	0 0 1 0x20 1 load local 0x3004 4
	EOF
	gc-coalesce --stats "$T/s.json" "$T/a.gcs" >"$T/r.gcs"
	expect_eq "$(reqs "$T/r.gcs" | awk '{ print $6, $7, $8, $9, $11 }' | tr '\n' ';')" "atomic global 0x2000 8 1;load global 0x3000 4 0;load local 0x3000 4 0;"
	expect_eq "$(js "$T/s.json" atomic_requests)" 1
}

@test "gc-coalesce: every access byte is in exactly one request of its instruction" {
	# The independent count: the distinct (instruction, byte), (instruction,
	# line) and (instruction, 32-byte sector) of the accesses.
	for k in "gather -n 4096" "matmul -n 16" "stencil2d -n 24" "spmv -n 256 --width 512"; do
		# shellcheck disable=SC2086
		gc-gen $k | gc-sched --gpu volta-v100 >"$T/in.gcs"
		gc-coalesce --stats "$T/s.json" "$T/in.gcs" >"$T/r.gcs"
		gc-stats --dump "$T/in.gcs" | awk -F, "$HEX"'
		$8 == "load" || $8 == "store" {
			a = hex($10); key = $3 ":" $4 ":" $7
			for (b = a; b < a + $11; b++) {
				if (!((key, b) in B)) { B[key, b]; nb++ }
				l = int(b / 128); s = int(b / 32)
				if (!((key, l) in L)) { L[key, l]; nl++ }
				if (!((key, s) in S)) { S[key, s]; ns++ }
			}
		} END { print nb, nl, ns }' >"$T/want"
		expect_eq "$(js "$T/s.json" bytes) $(js "$T/s.json" requests) $(js "$T/s.json" sectors)" \
			"$(cat "$T/want")" "$k"
		# the requests' own bytes and masks add up to the same
		expect_eq "$(reqs "$T/r.gcs" | awk "$HEX"'{ n += $9; m = hex($10); while (m) { s += m % 2; m = int(m / 2) } } END { print n, NR, s }')" \
			"$(cat "$T/want")" "$k"
	done
}

@test "gc-coalesce: requests keep their instruction's time and the stream's order" {
	gc-gen matmul -n 16 | gc-sched --gpu volta-v100 >"$T/in.gcs"
	gc-coalesce "$T/in.gcs" >"$T/r.gcs"
	# the time of each instruction in the input, and of its requests
	gc-stats --dump "$T/in.gcs" | awk -F, '$8 == "load" || $8 == "store" { print $3 ":" $4 ":" $7, $13 }' |
		uniq >"$T/a"
	reqs "$T/r.gcs" | awk '{ print $2 ":" $3 ":" $5, $1 }' | uniq >"$T/b"
	expect_same "$T/a" "$T/b" "instruction and request times"
	reqs "$T/r.gcs" | awk '$1 < t { print "backwards at " NR } { t = $1 }' >"$T/back"
	[ ! -s "$T/back" ]
	# determinism
	gc-coalesce "$T/in.gcs" | cmp - "$T/r.gcs"
}

@test "gc-coalesce: lanes are matched by instruction, not by count" {
	# two 16-lane instructions of one warp, then a 3-lane one of another
	{
		lanes 16 "4096 + i * 4" 4
		lanes 16 "8192 + i * 4" 4 | awk '{ $5 = 1; $4 = "0x20"; print }'
		lanes 3 "4096 + i * 4" 4 | awk '{ $2 = 1; print }'
	} | acsv >"$T/m.gcs"
	gc-coalesce "$T/m.gcs" >"$T/r.gcs"
	expect_eq "$(reqs "$T/r.gcs" | awk '{ print $3, $5, $8, $9 }' | tr '\n' ';')" "0 0 0x1000 64;0 1 0x2000 64;1 0 0x1000 12;"
}

@test "gc-coalesce: bad input" {
	acsv >"$T/op.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x2000 4
	0 0 1 0x10 0 store global 0x2004 4
	EOF
	sh_status 1 "gc-coalesce '$T/op.gcs' >'$T/o.gcs'"
	expect_match "$(cat "$T/err")" "^gc-coalesce: $T/op.gcs: record 4 \(offset [0-9]+\): block 0 warp 0 seq 0: store at pc 0x10, but the instruction is a load at pc 0x10$"
	sh_status 1 "gc-stats '$T/o.gcs'"
	# the same through a pipe: exit 1, the message, and what came out
	# before it is no complete stream either
	{
		st=0
		gc-coalesce "$T/op.gcs" 2>"$T/err2" || st=$?
		echo "$st" >"$T/st"
	} | cat >"$T/p.gcs"
	expect_eq "$(cat "$T/st")" 1 "exit status into a pipe"
	expect_match "$(cat "$T/err2")" "^gc-coalesce: $T/op.gcs: record 4 \(offset [0-9]+\): block 0 warp 0 seq 0: store at pc 0x10, but the instruction is a load at pc 0x10$"
	sh_status 1 "gc-stats '$T/p.gcs'"
	lanes 1 "4096" 4 | acsv | gc-coalesce >"$T/req.gcs"
	sh_status 1 "gc-coalesce '$T/req.gcs'"
	expect_eq "$(cat "$T/err")" "gc-coalesce: $T/req.gcs: gc-coalesce reads accesses; this stream holds requests"
}

@test "gc-coalesce: an access reaching 2^48 is refused naming its input record, not the output" {
	# gc-import refuses such an address, so the stream is patched: the
	# second access (record 4: kbegin, name, data, data) gets the high
	# bytes 0x3fee, as an inactive lane's junk would hold.
	acsv >"$T/hi.gcs" <<-EOF
	0 0 0 0x10 0 load global 0x7f0000000000 4
	0 0 1 0x10 0 load global 0x7f0000000004 4
	EOF
	local hs
	hs=$(stream_hsize "$T/hi.gcs")
	expect_eq "$(od -An -v -tu1 -w32 -j "$hs" "$T/hi.gcs" | awk '{ printf "%s ", $1 }')" '128 130 1 1 131 143 '
	printf '\356\077' | dd of="$T/hi.gcs" bs=1 seek=$((hs + 3 * 32 + 30)) conv=notrunc 2>/dev/null
	expect_eq "$(decode_stream "$T/hi.gcs" | sed -n 3p)" '0,0,1,0x10,0,load,global,4,0x3fee7f0000000004'
	sh_status 1 "gc-coalesce '$T/hi.gcs' >'$T/o.gcs'"
	expect_eq "$(cat "$T/err")" "gc-coalesce: $T/hi.gcs: record 4 (offset $((hs + 96))): block 0 warp 0 seq 0 lane 1: address 0x3fee7f0000000004 (4 bytes) reaches 2^48 or beyond: no request line can hold it"
	# the last byte counts: 0xfffffffffffe + 4 bytes ends beyond 2^48
	printf '\376\377\377\377\377\377\000\000' | dd of="$T/hi.gcs" bs=1 seek=$((hs + 3 * 32 + 24)) conv=notrunc 2>/dev/null
	expect_eq "$(decode_stream "$T/hi.gcs" | sed -n 3p)" '0,0,1,0x10,0,load,global,4,0xfffffffffffe'
	sh_status 1 "gc-coalesce '$T/hi.gcs' >'$T/o.gcs'"
	expect_match "$(cat "$T/err")" "^gc-coalesce: $T/hi.gcs: record 4 \(offset $((hs + 96))\): block 0 warp 0 seq 0 lane 1: address 0xfffffffffffe \(4 bytes\) reaches 2\^48"
	# one byte less and it fits: the last line is 0xffffffffff80
	printf '\374' | dd of="$T/hi.gcs" bs=1 seek=$((hs + 3 * 32 + 24)) conv=notrunc 2>/dev/null
	gc-coalesce "$T/hi.gcs" >"$T/o.gcs"
	expect_eq "$(reqs "$T/o.gcs" | cut -d' ' -f8,9 | tr '\n' ' ')" '0x7f0000000000 4 0xffffffffff80 4 '
}

@test "gc-coalesce: stdin, a file and - give the same stream; gzip input; full disk; truncation" {
	gc-gen matmul -n 16 | gc-sched >"$T/in.gcs"
	gc-coalesce "$T/in.gcs" >"$T/a"
	gc-coalesce <"$T/in.gcs" >"$T/b"
	gc-coalesce - <"$T/in.gcs" >"$T/c"
	same "$T/a" "$T/b"
	same "$T/a" "$T/c"
	gzip -c "$T/in.gcs" >"$T/in.gcs.gz"
	gc-coalesce <"$T/in.gcs.gz" | cmp - "$T/b"
	sh_status 1 "gc-coalesce '$T/in.gcs' >/dev/full"
	expect_eq "$(cat "$T/err")" "gc-coalesce: stdout: write error: No space left on device"
	head -c 50003 "$T/in.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-coalesce '$T/cut.gcs' >'$T/o.gcs'"
	expect_match "$(cat "$T/err")" "^gc-coalesce: $T/cut.gcs: record [0-9]+ \(offset [0-9]+\): truncated record"
	sh_status 1 "gc-stats '$T/o.gcs'"
}

@test "gc-coalesce: the output rule: --emit none, --report FILE (gc(7))" {
	gc-gen matmul -n 32 | gc-sched --gpu volta-v100 >"$T/acc.gcs"
	output_rule "gc-coalesce '$T/acc.gcs'"
	# 32 x 32 threads, each 2 x 32 loads and a store: 66560 accesses; the
	# requests are the stream's data records
	expect_match "$(sed -n 1p "$T/rule.r")" "^gc-coalesce: 66560 accesses, "
	n=$(reqs "$T/rule.plain" | wc -l | tr -d ' ')
	expect_match "$(sed -n 1p "$T/rule.r")" " -> $n requests, "
	sh_status 2 "gc-coalesce --emit all '$T/acc.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-coalesce: --emit: 'all' is not requests or none"
}
