#!/usr/bin/env bats
# gc-gen: synthetic kernels.  The stream is decoded with od and awk (byte
# layout in gc-stream(5)), so these tests need no other gc tool.

load helpers

# hsize FILE: the header size (bytes 12-15).
hsize() {
	od -An -tu4 -j12 -N4 "$1" | tr -d ' '
}

# htext FILE: the header's key=value text.
htext() {
	local hs
	hs=$(hsize "$1")
	head -c "$hs" "$1" | tail -c +65 | tr -d '\000'
}

# records FILE: one line per record after the header (its first 32 bytes).
#   data:    ld|st LANE WARP BLOCK PC SEQ ADDR SIZE   (PC and ADDR in hex)
#   begin:   begin ID GX GY GZ BX BY BZ REGS SHMEM NATTR
#   attr:    attr KEY VALUE
#   name:    name TEXT
#   end:     end ID COUNT
#   eos:     eos RECORDS DATA
records() {
	# bytes 12-19 as 16-bit numbers: the header size (12-15) and the
	# record size (18-19), in one od
	local h
	h=($(od -An -tu2 -j12 -N8 "$1"))
	od -An -tu4 -v -w"${h[3]}" -j "$((h[0] + 65536 * h[1]))" "$1" | awk '
	# od gives a record as little-endian 32-bit words: bytes and 16-bit
	# halves by division (four times less text than a number a byte).
	function b(i) { return int($(int(i / 4) + 1) / p8[i % 4]) % 256 }
	function hx(w) { return $(w + 1) ? sprintf("0x%x%08x", $(w + 1), $w) : sprintf("0x%x", $w) }
	BEGIN { p8[0] = 1; p8[1] = 256; p8[2] = 65536; p8[3] = 16777216; w32 = 4294967296 }
	{ t = $1 % 256 }
	t == 1 || t == 2 {
		print (t == 1 ? "ld" : "st"), int($1 / 65536) % 256, int($2 / 65536), $3, sprintf("0x%x", $4),
		      $5, hx(7), int($1 / 16777216)
		next
	}
	t == 128 { print "begin", $2, $3, $4 % 65536, int($4 / 65536), $5 % 65536,
		     int($5 / 65536), $6 % 65536, int($6 / 65536), $7, $8 % 65536; next }
	t == 129 { print "attr", int($1 / 65536), $3 + $4 * w32; next }
	t == 130 {
		s = ""
		for (i = 2; i < 2 + int($1 / 256) % 256; i++) s = s sprintf("%c", b(i))
		print "name", s
		next
	}
	t == 131 { print "end", $2, $3 + $4 * w32; next }
	t == 143 { print "eos", $3 + $4 * w32, $5 + $6 * w32; next }
	{ print "other", sprintf("%02x", t) }'
}

# data FILE: the data records only.
data() {
	records "$1" | grep -E '^(ld|st) '
}

# count FILE PATTERN: data records matching an ERE.  FILE is a stream or
# its data already decoded (a file whose name ends in .d).
count() {
	case $1 in
	*.d) grep -cE "$2" "$1" || [ $? -eq 1 ] ;;
	*) data "$1" | grep -cE "$2" || [ $? -eq 1 ] ;;
	esac
}

gen() {
	gc-gen "$@" >"$T/s" || return 1
}

@test "gc-gen: mandatory command-line cases" {
	common_cli_cases gc-gen -n
	help_matches_man gc-gen
}

@test "gc-gen: --list names every kernel with a description" {
	run_status 0 gc-gen --list
	expect_eq "${#lines[@]}" 12 "kernels listed"
	for k in vecadd copy rowcopy colcopy matmul transpose stencil2d spmv gather strided table2 mdm; do
		expect_match "$output" "^$k +[A-Za-z0-9]"
	done
}

@test "gc-gen: table2 is seed 000 Table 2 in per-warp program order" {
	gen table2
	data "$T/s" >"$T/d"
	cat >"$T/want" <<-'EOF'
	ld 0 0 0 0x10 0 0x10000000 4
	ld 0 0 0 0x20 1 0x10000004 4
	ld 0 1 0 0x10 0 0x10000008 4
	ld 0 1 0 0x20 1 0x1000000c 4
	ld 0 2 0 0x10 0 0x10000010 4
	ld 0 2 0 0x20 1 0x10000014 4
	ld 0 3 0 0x10 0 0x10000018 4
	ld 0 3 0 0x20 1 0x1000001c 4
	EOF
	diff -u "$T/want" "$T/d"
	# the first instruction of the four warps loads x[0], x[2], x[4], x[6]
	# and the second x[1], x[3], x[5], x[7], as in the table
	expect_eq "$(awk '$5 == "0x10" { printf "%s ", $7 }' "$T/d")" \
		"0x10000000 0x10000008 0x10000010 0x10000018 "
	expect_eq "$(awk '$5 == "0x20" { printf "%s ", $7 }' "$T/d")" \
		"0x10000004 0x1000000c 0x10000014 0x1000001c "
}

@test "gc-gen: kernel begin, attributes, end and end of stream" {
	gen table2
	records "$T/s" >"$T/r"
	expect_eq "$(sed -n 1p "$T/r")" "begin 1 1 1 1 4 1 1 32 0 1"
	expect_eq "$(sed -n 2p "$T/r")" "attr 2 8"
	expect_eq "$(sed -n 3p "$T/r")" "name table2"
	expect_eq "$(tail -n 2 "$T/r" | head -n 1)" "end 1 8"
	expect_eq "$(tail -n 1 "$T/r")" "eos 12 8"
}

@test "gc-gen: header keys and provenance" {
	gen table2 --seed 7
	htext "$T/s" >"$T/h"
	grep -qx 'source_format=gc-gen' "$T/h"
	grep -qx 'kernel=table2' "$T/h"
	grep -qx 'warp_size=1' "$T/h"
	grep -qx 'elem_size=4' "$T/h"
	grep -qx 'seed=7' "$T/h"
	grep -qx 'provenance=gc-gen table2 --seed 7' "$T/h"
	# kind 1 (accesses), record size 32, no flags (unscheduled)
	expect_eq "$(od -An -tu2 -j16 -N4 "$T/s" | tr -s ' ')" " 1 32"
	expect_eq "$(od -An -tu4 -j20 -N8 "$T/s" | tr -s ' ')" " 0 0"
}

@test "gc-gen: every record is unscheduled (sm 0, time 0) and global" {
	gen vecadd -n 1000
	od -An -tx1 -v -w32 -j "$(hsize "$T/s")" "$T/s" |
		awk '($1 == "01" || $1 == "02") && ($2 != "00" || $5 $6 != "0000" ||
		     $21 $22 $23 $24 != "00000000") { bad++ } END { exit bad > 0 }'
}

@test "gc-gen: vecadd -n 100 has a partial last warp" {
	gen vecadd -n 100
	data "$T/s" >"$T/d"
	expect_eq "$(grep -c '^ld ' "$T/d")" 200 loads
	expect_eq "$(grep -c '^st ' "$T/d")" 100 stores
	# A at the base, B and C each on the next 256-byte boundary
	expect_eq "$(sed -n 1p "$T/d")" "ld 0 0 0 0x10 0 0x10000000 4"
	expect_eq "$(sed -n 33p "$T/d")" "ld 0 0 0 0x20 1 0x10000200 4"
	expect_eq "$(sed -n 65p "$T/d")" "st 0 0 0 0x30 2 0x10000400 4"
	# warp 3 runs threads 96..99: lanes 0..3
	expect_eq "$(awk '$3 == 3 { printf "%s ", $2 }' "$T/d")" "0 1 2 3 0 1 2 3 0 1 2 3 "
	expect_eq "$(tail -n 1 "$T/d")" "st 3 3 0 0x30 2 0x1000058c 4"
	expect_eq "$(awk '$3 > 3' "$T/d" | wc -l)" 0
	records "$T/s" >"$T/r"
	expect_eq "$(sed -n 1p "$T/r")" "begin 1 1 1 1 256 1 1 32 0 1"
	expect_eq "$(sed -n 2p "$T/r")" "attr 2 12"
}

@test "gc-gen: copy blocks, warps and lanes follow the linear thread id" {
	gen copy -n 200 --block 64
	data "$T/s" >"$T/d"
	expect_eq "$(wc -l <"$T/d")" 400
	# thread 130 is block 2, warp 0, lane 2
	grep -qx 'ld 2 0 2 0x10 0 0x10000208 4' "$T/d"
	grep -qx 'st 2 0 2 0x20 1 0x10000608 4' "$T/d"
	# block 3 holds threads 192..199 only
	expect_eq "$(awk '$4 == 3 && $1 == "ld"' "$T/d" | wc -l)" 8
	# order: block by block, warp by warp, lanes ascending, loads before stores
	awk '{ k = sprintf("%010d %05d %d %03d", $4, $3, $6, $2); if (k <= prev) exit 1; prev = k }' "$T/d"
	records "$T/s" | grep -q '^begin 1 4 1 1 64 1 1 '
}

@test "gc-gen: rowcopy is seed 000 Fig. 3 (thread t copies row t)" {
	gen rowcopy --height 3 --width 4
	data "$T/s" >"$T/d"
	cat >"$T/want" <<-'EOF'
	ld 0 0 0 0x10 0 0x10000000 4
	ld 1 0 0 0x10 0 0x10000010 4
	ld 2 0 0 0x10 0 0x10000020 4
	st 0 0 0 0x20 1 0x10000100 4
	st 1 0 0 0x20 1 0x10000110 4
	st 2 0 0 0x20 1 0x10000120 4
	ld 0 0 0 0x10 2 0x10000004 4
	ld 1 0 0 0x10 2 0x10000014 4
	ld 2 0 0 0x10 2 0x10000024 4
	EOF
	head -n 9 "$T/d" | diff -u "$T/want" -
	expect_eq "$(wc -l <"$T/d")" 24
	# the figure: one block of H threads, W = 1024, 4-byte floats
	# (its 512 K records counted by gc-stats, the reader; the decoder
	# above, in awk, takes seconds over them)
	gen rowcopy --height 256 --width 1024
	head -c "$(($(hsize "$T/s") + 4 * $(stream_rsize "$T/s")))" "$T/s" >"$T/h"
	records "$T/h" >"$T/r"
	grep -q '^begin 1 1 1 1 256 1 1 ' "$T/r"
	grep -qx "attr 2 $((8 * 1024 * 2))" "$T/r"
	gc-stats --json "$T/s" >"$T/j"
	expect_eq "$(jnum loads) $(jnum stores) $(jnum mem_insts)" \
		"$((256 * 1024)) $((256 * 1024)) $((8 * 1024 * 2))"
}

@test "gc-gen: colcopy walks down the columns, coalesced" {
	gen colcopy --height 2 --width 40
	data "$T/s" >"$T/d"
	expect_eq "$(wc -l <"$T/d")" 160
	# warp 1 is threads 32..39; its second load reads row 1
	grep -qx 'ld 7 1 0 0x10 2 0x1000013c 4' "$T/d"
	# row 0 of B starts at 0x10000100 (A is 320 bytes)
	grep -qx 'st 0 0 0 0x20 1 0x10000200 4' "$T/d"
	records "$T/s" | grep -q '^begin 1 1 1 1 40 1 1 '
}

@test "gc-gen: matmul counts follow N*N*2N loads and N*N stores" {
	gen matmul -n 8
	data "$T/s" >"$T/s.d"
	expect_eq "$(count "$T/s.d" '^ld ')" $((8 * 8 * 16))
	expect_eq "$(count "$T/s.d" '^st ')" 64
	records "$T/s" >"$T/r"
	# 16x16 blocks over 8x8: one block, threads x >= 8 or y >= 8 idle
	expect_eq "$(sed -n 1p "$T/r")" "begin 1 1 1 1 16 16 1 32 0 1"
	# 8 warps (two rows of 16 each, 8 active lanes per row) x (2*8 + 1)
	expect_eq "$(sed -n 2p "$T/r")" "attr 2 $((4 * 17))"
	# thread (x 3, y 1) is lane 19 of warp 0: A[1][k], B[k][3], C[1][3]
	grep -qx 'ld 19 0 0 0x10 0 0x10000020 4' "$T/s.d"
	grep -qx 'ld 19 0 0 0x20 1 0x1000010c 4' "$T/s.d"
	grep -qx 'ld 19 0 0 0x10 2 0x10000024 4' "$T/s.d"
	grep -qx 'st 19 0 0 0x30 16 0x1000022c 4' "$T/s.d"
	# M x N = 3 x 5 with K = 7
	gen matmul --height 3 --width 5 --inner 7 --block 4x2
	data "$T/s" >"$T/s.d"
	expect_eq "$(count "$T/s.d" '^ld ')" $((3 * 5 * 2 * 7))
	expect_eq "$(count "$T/s.d" '^st ')" 15
	records "$T/s" | grep -q '^begin 1 2 2 1 4 2 1 '
}

@test "gc-gen: transpose reads rows and writes columns" {
	gen transpose --width 3 --height 2 --block 4x4
	data "$T/s" >"$T/d"
	cat >"$T/want" <<-'EOF'
	ld 0 0 0 0x10 0 0x10000000 4
	ld 1 0 0 0x10 0 0x10000004 4
	ld 2 0 0 0x10 0 0x10000008 4
	ld 4 0 0 0x10 0 0x1000000c 4
	ld 5 0 0 0x10 0 0x10000010 4
	ld 6 0 0 0x10 0 0x10000014 4
	st 0 0 0 0x20 1 0x10000100 4
	st 1 0 0 0x20 1 0x10000108 4
	st 2 0 0 0x20 1 0x10000110 4
	st 4 0 0 0x20 1 0x10000104 4
	st 5 0 0 0x20 1 0x1000010c 4
	st 6 0 0 0x20 1 0x10000114 4
	EOF
	diff -u "$T/want" "$T/d"
}

@test "gc-gen: stencil2d reads five neighbours of every interior point" {
	gen stencil2d --width 10 --height 7
	data "$T/s" >"$T/s.d"
	expect_eq "$(count "$T/s.d" '^ld ')" $((5 * 8 * 5))
	expect_eq "$(count "$T/s.d" '^st ')" $((8 * 5))
	# point (1, 1) is lane 17 of warp 0: north, west, centre, east, south
	expect_eq "$(awk '$2 == 17 && $3 == 0 { printf "%s %s ", $5, $7 }' "$T/s.d")" \
		"0x10 0x10000004 0x20 0x10000028 0x30 0x1000002c 0x40 0x10000030 0x50 0x10000054 0x60 0x1000022c "
	# no boundary thread: lanes 0 and 16 (x = 0) and x = 9 never appear
	expect_eq "$(awk '$2 == 0 || $2 == 16 || $2 == 9 || $2 == 25' "$T/s.d" | wc -l)" 0
	expect_eq "$(awk '$4 != 0' "$T/s.d" | wc -l)" 0
}

@test "gc-gen: spmv counts, sorted distinct columns, CSR addresses" {
	gen spmv -n 100 --width 1000 --nnz 5 --seed 3
	data "$T/s" >"$T/s.d"
	expect_eq "$(count "$T/s.d" ' 0x(10|20) ')" 200
	expect_eq "$(count "$T/s.d" ' 0x(30|40|50) ')" $((100 * 5 * 3))
	expect_eq "$(count "$T/s.d" '^st ')" 100
	# rowptr is 101 ints; col and val 500 each; x 1000 elements; y 100
	grep -qx 'ld 5 0 0 0x10 0 0x10000014 4' "$T/s.d"
	grep -qx 'ld 5 0 0 0x20 1 0x10000018 4' "$T/s.d"
	grep -qx 'ld 5 0 0 0x30 2 0x10000264 4' "$T/s.d"
	grep -qx 'ld 5 0 0 0x40 3 0x10000a64 4' "$T/s.d"
	grep -qx 'st 5 0 0 0x60 17 0x10002214 4' "$T/s.d"
	# per row: x addresses ascending, distinct, inside x[0..999]
	awk '$5 == "0x50" { print $3 * 32 + $2, $7 }' "$T/s.d" | sort -s -k1,1n >"$T/x"
	awk '{ if ($1 == row && $2 <= prev) exit 1; row = $1; prev = $2 }' "$T/x"
	expect_eq "$(awk '$2 < "0x10001200" || $2 > "0x1000219c"' "$T/x" | wc -l)" 0
	expect_eq "$(wc -l <"$T/x")" 500
}

@test "gc-gen: spmv with a density gives rows of different lengths" {
	gen spmv -n 64 --nnz 0.25
	data "$T/s" >"$T/s.d"
	awk '$5 == "0x50" { n[$3 * 32 + $2]++ } END { for (r in n) print n[r] }' "$T/s.d" |
		sort -u >"$T/len"
	[ "$(wc -l <"$T/len")" -gt 3 ]
	# the warp runs as long as its longest row; lanes of shorter rows idle
	expect_eq "$(count "$T/s.d" '^st ')" 64
	gen spmv -n 4 --nnz 1.0
	data "$T/s" >"$T/s.d"
	expect_eq "$(count "$T/s.d" ' 0x50 ')" 16
}

@test "gc-gen: gather loads idx[i], then A[idx[i]] inside A" {
	gen gather -n 1000
	data "$T/s" >"$T/s.d"
	expect_eq "$(count "$T/s.d" '^ld ')" 2000
	expect_eq "$(count "$T/s.d" '^st ')" 1000
	# idx at the base (1000 ints), A at 0x10001000, B at 0x10002000
	grep -qx 'ld 0 0 0 0x10 0 0x10000000 4' "$T/s.d"
	grep -qx 'st 0 0 0 0x30 2 0x10002000 4' "$T/s.d"
	expect_eq "$(awk '$5 == "0x20" && ($7 < "0x10001000" || $7 > "0x10001f9c")' "$T/s.d" | wc -l)" 0
	# random, not a permutation of a pattern: many distinct elements
	[ "$(awk '$5 == "0x20" { print $7 }' "$T/s.d" | sort -u | wc -l)" -gt 500 ]
}

@test "gc-gen: strided is seed 000 Fig. 7 (two identical loops of one warp)" {
	gen strided --loads 6 --stride 8192
	data "$T/s" >"$T/d"
	expect_eq "$(wc -l <"$T/d")" $((2 * 6 * 32))
	records "$T/s" | grep -q '^begin 1 1 1 1 32 1 1 '
	records "$T/s" | grep -qx 'attr 2 12'
	awk '{ print $5, $6, $2, $7 }' "$T/d" >"$T/got"
	for pc in 0x10 0x20; do
		for i in 0 1 2 3 4 5; do
			for l in $(seq 0 31); do
				seq=$i
				[ $pc = 0x20 ] && seq=$((i + 6))
				printf '%s %d %d 0x%x\n' $pc $seq $l $((0x10000000 + i * 8192 + l * 4))
			done
		done
	done >"$T/want"
	diff -u "$T/want" "$T/got"
	# the two loops touch the same addresses
	expect_same <(awk '$1 == "0x10" { print $4 }' "$T/got") <(awk '$1 == "0x20" { print $4 }' "$T/got")
}

@test "gc-gen: --elem, --base and --warp-size change addresses and warps" {
	gen copy -n 40 -e 8 --base 0x20000000 --warp-size 16
	data "$T/s" >"$T/d"
	grep -qx 'ld 7 2 0 0x10 0 0x20000138 8' "$T/d"
	grep -qx 'st 0 0 0 0x20 1 0x20000200 8' "$T/d"
	htext "$T/s" | grep -qx 'warp_size=16'
	htext "$T/s" | grep -qx 'elem_size=8'
	# an unaligned base holds the first array; the next is aligned
	gen copy -n 4 --base 0x1001
	data "$T/s" >"$T/d"
	grep -qx 'ld 0 0 0 0x10 0 0x1001 4' "$T/d"
	grep -qx 'st 0 0 0 0x20 1 0x1100 4' "$T/d"
}

@test "gc-gen: --kernels K writes K identical kernels, ids 1..K" {
	gen copy -n 50 --kernels 3
	records "$T/s" >"$T/r"
	expect_eq "$(grep '^begin' "$T/r" | awk '{ printf "%s ", $2 }')" "1 2 3 "
	expect_eq "$(grep '^end' "$T/r" | awk '{ printf "%s:%s ", $2, $3 }')" "1:100 2:100 3:100 "
	expect_eq "$(grep -c '^attr 2 4$' "$T/r")" 3
	expect_eq "$(tail -n 1 "$T/r")" "eos $((3 * (100 + 4))) 300"
}

@test "gc-gen: mem_insts matches the warp instructions of every kernel" {
	for k in vecadd copy rowcopy colcopy matmul transpose stencil2d spmv gather strided table2 mdm; do
		gen "$k" -n 20 --block 16 2>/dev/null || gen "$k" -n 20
		# the first attribute 2 and the distinct (warp, block, seq) of
		# the data records, in one awk
		records "$T/s" | awk '/^attr 2 / && want == "" { want = $3 }
			/^(ld|st) / && !seen[$3 " " $4 " " $6]++ { got++ }
			END { print got + 0, want }' >"$T/n"
		read -r got want <"$T/n"
		expect_eq "$got" "$want" "$k mem_insts"
	done
}

@test "gc-gen: the same seed gives the same bytes; another seed another stream" {
	for k in spmv gather; do
		gc-gen "$k" -n 500 --seed 11 >"$T/a"
		gc-gen "$k" -n 500 --seed 11 >"$T/b"
		cmp "$T/a" "$T/b"
		gc-gen "$k" -n 500 --seed 12 >"$T/c"
		expect_differ <(data "$T/a") <(data "$T/c") "$k, seeds 11 and 12"
	done
	gc-gen matmul -n 20 >"$T/a"
	gc-gen matmul -n 20 >"$T/b"
	cmp "$T/a" "$T/b"
}

@test "gc-gen: -o FILE and -z give the same stream as stdout" {
	gc-gen stencil2d -n 40 >"$T/a"
	gc-gen stencil2d -n 40 -o "$T/b"
	gc-gen stencil2d -n 40 >"$T/c"
	cmp "$T/a" "$T/c"
	# provenance differs by the -o option only
	expect_same <(data "$T/a") <(data "$T/b")
	htext "$T/b" | grep -qx "provenance=gc-gen stencil2d -n 40 -o $T/b"
	gc-gen stencil2d -n 40 -z >"$T/z"
	expect_eq "$(head -c 2 "$T/z" | od -An -tx1 | tr -d ' ')" 1f8b
	gunzip -c <"$T/z" >"$T/u"
	cmp <(tail -c +"$(($(hsize "$T/a") + 1))" "$T/a") <(tail -c +"$(($(hsize "$T/u") + 1))" "$T/u")
	htext "$T/u" | grep -qx "provenance=gc-gen stencil2d -n 40 -z"
}

@test "gc-gen: a write error exits 1 with a message" {
	sh_status 1 "gc-gen copy -n 1M >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-gen: .*(write error|No space)"
	sh_status 1 "gc-gen table2 >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-gen: "
}

@test "gc-gen: --stats writes a JSON summary; -v the array layout" {
	gc-gen vecadd -n 100 --stats "$T/j" -v >"$T/s" 2>"$T/e"
	grep -q '"accesses": *300' "$T/j"
	grep -q '"loads": *200' "$T/j"
	grep -q '"mem_instructions": *12' "$T/j"
	grep -q '"name": *"C"' "$T/j"
	grep -q 'array B at 0x10000200, 400 bytes' "$T/e"
	# gpu: the stream names none without --gpu (a stage reading it takes
	# its own --gpu or the default), the preset with it
	expect_eq "$(sed -n 4p "$T/j")" '  "gpu": null,'
	gc-gen vecadd -n 100 --gpu volta-v100 --emit none --stats "$T/j" >/dev/null
	expect_eq "$(sed -n 4p "$T/j")" '  "gpu": "volta-v100",'
}

@test "gc-gen: the output rule: --emit none, --report FILE (gc(7))" {
	output_rule "gc-gen -n 1000 vecadd"
	# 1000 threads: 2 loads and a store each; 32 warps (the last of 8
	# lanes) of 3 instructions
	expect_eq "$(sed -n 4p "$T/rule.r")" "gc-gen: vecadd: 1 kernel(s) of 4 x 1 blocks of 256 x 1 threads, warp size 32: 3000 accesses (2000 loads, 1000 stores) in 96 warp instructions"
	# --emit none counts in the counting pass only: the writing pass's
	# --stats, two kernels
	gc-gen -n 1000 --kernels 2 --stats "$T/a.json" spmv >/dev/null
	gc-gen -n 1000 --kernels 2 --emit none --stats "$T/b.json" spmv >/dev/null
	expect_same "$T/a.json" "$T/b.json" "--stats with --emit none"
	sh_status 2 "gc-gen --emit requests vecadd"
	expect_eq "$(head -1 "$T/err")" "gc-gen: --emit: 'requests' is not accesses or none"
}

@test "gc-gen: usage errors exit 2 with one message and no output" {
	for args in "" "nosuch" "copy table2" "copy -e 3" "copy -e 32" "copy --block 2048" \
		"matmul --block 64x32" "copy --block 16x2" "copy -n 0" "copy --width 5" \
		"strided --nnz 3" "spmv --nnz 2 --width 1" "spmv --nnz 0.0" \
		"spmv --nnz 2M --width 4M" "spmv --nnz 0.5 --width 2M -n 4" "copy --warp-size 65" \
		"matmul --height 2000000 --block 1" "copy --kernels 0" "copy -n 1G -e 16 --base 0xffff00000000" \
		"vecadd --gs 2" "copy --iters 3" "mdm --iters 0" "mdm --iters 2G --block 1024" \
		"vecadd --intervals --gpu no-such-gpu" "vecadd --op-latency int=3" \
		"vecadd --intervals --op-latency fp=3" "vecadd --intervals --op-latency int=0" \
		"vecadd --intervals --op-latency sp=2,0" "vecadd --intervals --op-latency sp"; do
		# (gc-gen run here, its lines counted with read: no sh, no grep)
		local st=0 n=0 l
		gc-gen $args >"$T/out" 2>"$T/err" || st=$?
		expect_eq "$st" 2 "exit status for '$args'"
		[ ! -s "$T/out" ] || { echo "stdout for '$args' is not empty" >&2; return 1; }
		while IFS= read -r l || [ -n "$l" ]; do [[ $l == Try\ * ]] || n=$((n + 1)); done <"$T/err"
		expect_eq "$n" 1 "message lines for '$args'"
	done
	sh_status 2 "gc-gen nosuch"
	expect_match "$(cat "$T/err")" "unknown kernel 'nosuch'"
	sh_status 2 "gc-gen"
	expect_match "$(cat "$T/err")" "missing KERNEL"
	sh_status 2 "gc-gen copy --block 2048"
	expect_match "$(cat "$T/err")" "--block"
	sh_status 2 "gc-gen copy -e 3"
	expect_match "$(cat "$T/err")" "1, 2, 4, 8 or 16"
	sh_status 2 "gc-gen vecadd --op-latency int=3"
	expect_eq "$(head -1 "$T/err")" "gc-gen: --op-latency: only with --intervals"
	sh_status 2 "gc-gen vecadd --intervals --op-latency fp=3"
	expect_eq "$(head -1 "$T/err")" \
		"gc-gen: --op-latency: unknown class 'fp' (expected int, sp, dp, sfu, tensor or branch)"
	sh_status 2 "gc-gen vecadd --intervals --op-latency sp=2,0"
	expect_eq "$(head -1 "$T/err")" \
		"gc-gen: --op-latency: bad value '0' for key 'op.sp.initiation' (expected an integer from 1 to 100000)"
}

# ---- seed 004's kernel and --intervals ------------------------------------

@test "gc-gen: mdm is seed 004 Listing 1: a global load, then a shared store, I times" {
	gen mdm -n 64 --gs 2 --iters 2
	records "$T/s" >"$T/r"
	# 64 threads in one block of 256 (the default block, partly idle):
	# shared output 256 threads * 2 iterations * 4 bytes = 2048
	expect_eq "$(sed -n 1p "$T/r")" "begin 1 1 1 1 256 1 1 32 2048 1"
	# input: 2 * 63 + 2 = 128 elements; 2 warps * 2 iterations * 2 instructions
	expect_eq "$(grep -c '^attr 2 8$' "$T/r")" 1
	# lane 5 of warp 0: input[2*5 + i] at 0x10000000 + 4 * (10 + i), then
	# shared byte (5*2 + i) * 4; lane 3 of warp 1 (thread 35): input[70 + i],
	# shared (35*2 + i) * 4
	expect_eq "$(data "$T/s" | awk '$2 == 5 && $3 == 0 { printf "%s %s %s %s|", $1, $5, $6, $7 }')" \
		"ld 0x10 0 0x10000028|st 0x20 1 0x28|ld 0x10 2 0x1000002c|st 0x20 3 0x2c|"
	expect_eq "$(data "$T/s" | awk '$2 == 3 && $3 == 1 { printf "%s %s|", $1, $7 }')" \
		"ld 0x10000118|st 0x118|ld 0x1000011c|st 0x11c|"
	# the loads are global (space byte 0), the stores shared (2)
	od -An -tx1 -v -w32 -j "$(hsize "$T/s")" "$T/s" >"$T/x"
	expect_eq "$(awk '$1 == "01" { print $2 }' "$T/x" | sort -u)" 00
	expect_eq "$(awk '$1 == "02" { print $2 }' "$T/x" | sort -u)" 02
}

@test "gc-gen: mdm --gs 1 coalesces a warp's load into one request, --gs 32 into 32" {
	# 8 warps of 32 lanes, one iteration: GS 1 loads 32 consecutive floats,
	# one aligned 128-byte line per warp; GS 32 puts each lane 128 bytes
	# from the next, a line each.  Shared stores make no requests.
	for gpu in fermi-gtx470-16k volta-v100; do
		gc-gen mdm -n 256 --gs 1 --iters 1 --gpu $gpu | gc-coalesce --stats "$T/j" >/dev/null
		expect_eq "$(jnum requests)" 8 "GS 1 on $gpu"
		gc-gen mdm -n 256 --gs 32 --iters 1 --gpu $gpu | gc-coalesce --stats "$T/j" >/dev/null
		expect_eq "$(jnum requests)" 256 "GS 32 on $gpu"
	done
	# a second iteration: GS 1 loads elements 1 to 32 of each warp's run,
	# two lines (8 * (1 + 2) = 24); GS 32 stays in each lane's line (256 * 2)
	gc-gen mdm -n 256 --gs 1 --iters 2 | gc-coalesce --stats "$T/j" >/dev/null
	expect_eq "$(jnum requests)" 24
	gc-gen mdm -n 256 --gs 32 --iters 2 | gc-coalesce --stats "$T/j" >/dev/null
	expect_eq "$(jnum requests)" 512
	# 256 threads * 2 iterations * (a load and a store)
	expect_eq "$(jnum accesses)" 1024
}

@test "gc-gen: --intervals: header keys, flag, 48-byte records, instruction attributes" {
	gen vecadd -n 64 --gpu volta-v100 --intervals
	htext "$T/s" >"$T/h"
	grep -qx 'intervals=gc-gen' "$T/h"
	grep -qx 'intervals.gpu=volta-v100' "$T/h"
	# SM7_QV100's trace.config, as the preset has it
	expect_eq "$(grep '^intervals\.op\.' "$T/h" | tr '\n' ' ')" \
		"intervals.op.int=2,2 intervals.op.sp=2,2 intervals.op.dp=8,4 intervals.op.sfu=20,8 intervals.op.tensor=2,2 intervals.op.branch=4,4 "
	# kind 1, 48-byte records, optional flag 0x8 (compute)
	expect_eq "$(od -An -tu2 -j16 -N4 "$T/s" | tr -s ' ')" " 1 48"
	expect_eq "$(od -An -tu4 -j20 -N8 "$T/s" | tr -s ' ')" " 0 8"
	records "$T/s" >"$T/r"
	# two warps, each 11 non-memory instructions (gc-gen(1), COMPUTE MIX)
	# and 3 memory ones, on 32 lanes: insts 22, thread_insts 14 * 32 * 2
	expect_eq "$(grep '^attr' "$T/r" | sort | tr '\n' ' ')" "attr 1 22 attr 2 6 attr 7 896 "
	# the records are those without --intervals
	gen vecadd -n 64 --gpu volta-v100
	expect_same <(data "$T/s") <(grep -E '^(ld|st) ' "$T/r")
	# without it: no intervals keys, no attributes 1 and 7
	htext "$T/s" >"$T/h2"
	run grep -c '^intervals' "$T/h2"
	expect_eq "$output" 0
	expect_eq "$(records "$T/s" | grep '^attr' | tr '\n' ' ')" "attr 2 6 "
	# no --gpu: the defaults' latencies (fermi-gtx470-16k)
	gen vecadd -n 64 --intervals
	htext "$T/s" | grep -qx 'intervals.gpu=fermi-gtx470-16k'
	htext "$T/s" | grep -qx 'intervals.op.int=4,1'
}

@test "gc-gen: --intervals: non-memory warp instructions per kernel as gc-gen(1) lists them" {
	# insts / warps is the table's "per warp" column; thread_insts counts
	# every warp instruction on its active lanes
	chk() {
		local want=$1 wantt=$2
		shift 2
		gen "$@" --intervals
		records "$T/s" >"$T/r"
		expect_eq "$(awk '$1 == "attr" && $2 == 1 { print $3 }' "$T/r")" "$want" "insts: $*"
		expect_eq "$(awk '$1 == "attr" && $2 == 7 { print $3 }' "$T/r")" "$wantt" "thread_insts: $*"
	}
	# one warp of 32 lanes unless said: (non-memory + memory) * lanes
	chk 9 $(((9 + 2) * 32)) copy -n 32
	chk $((11 + 5 * 4)) $(((31 + 8) * 32)) rowcopy --height 32 --width 4
	chk $((10 + 5 * 3)) $(((25 + 6) * 32)) colcopy --width 32 --height 3
	# matmul 4 x 4 in a 16 x 16 block: warps 0 and 1 hold rows 0-1 and 2-3,
	# 8 active lanes each; K = 4: 18 + 24 = 42 and 9 memory instructions
	chk $((2 * 42)) $((2 * (42 + 9) * 8)) matmul -n 4
	chk 15 $(((15 + 2) * 32)) transpose --width 32 --height 1 --block 32
	# stencil2d on 34 x 3: one interior row of 32 threads (x 1 to 32) in
	# blocks of 16 x 16: block 0 holds x 1-15 of row 1 (warp 0, 15 lanes),
	# block 1 x 16-31 (warp 0, 16 lanes), block 2 x 32 (1 lane)
	chk $((3 * 23)) $(((23 + 6) * (15 + 16 + 1))) stencil2d --width 34 --height 3
	# spmv, 32 rows of 3 non-zeros: 12 + 7 * 3 = 33; memory 2 + 3 * 3 + 1 = 12
	chk 33 $(((33 + 12) * 32)) spmv -n 32 --width 3 --nnz 3
	chk 10 $(((10 + 3) * 32)) gather -n 32
	chk $((13 + 10 * 3)) $(((43 + 6) * 32)) strided --loads 3
	# table2: 4 one-lane warps
	chk $((4 * 9)) $((4 * (9 + 2))) table2
	chk $((11 + 6 * 5)) $(((41 + 10) * 32)) mdm -n 32 --iters 5
}

@test "gc-gen: --intervals: the compute field of each record, worked by hand" {
	# vecadd on volta-v100 (int, sp 2,2; branch 4,4): MOV 0, S2R 2 and 4
	# (the int unit takes one every 2 cycles), IMAD 6 (tid.x ready at 6),
	# ISETP 8, EXIT 10, IMAD.WIDE 11 and 13 (&B ready at 15); LDG A at 14
	# after 8 instructions; LDG B at 15; IMAD.WIDE 16, FADD 17 (the first
	# reader of both loads: one wait, its result ready at 19); STG at 19
	gen vecadd -n 64 --gpu volta-v100 --intervals
	# version 1.2, the compute minor version
	expect_eq "$(od -An -tu2 -j8 -N4 "$T/s" | tr -s ' ')" " 1 2"
	decode_compute "$T/s" >"$T/c"
	expect_eq "$(wc -l <"$T/c")" 192 "records"
	# one line per instruction (BLOCK,WARP,SEQ INSTS CYCLES WAITS RESERVED
	# VALID): the three of warp 0, then the same three of warp 1
	expect_eq "$(uniq "$T/c" | tr '\n' '|')" \
		"0,0,0 8 14 0 0 1|0,0,1 8 15 0 0 1|0,0,2 10 19 1 0 1|0,1,0 8 14 0 0 1|0,1,1 8 15 0 0 1|0,1,2 10 19 1 0 1|"
	# the defaults, fermi-gtx470-16k (int, sp 4,1; branch 4,4): MOV 0,
	# S2R 1 and 2, IMAD 6 (tid.x ready at 6), ISETP 10, EXIT 14, IMAD.WIDE 15
	# and 16 (ready 19 and 20): LDG A 19, LDG B 20; IMAD.WIDE 21 (ready 25),
	# FADD 22 (ready 26), STG 26
	gen vecadd -n 64 --intervals
	expect_eq "$(decode_compute "$T/s" | uniq | sed -n 1,3p | tr '\n' '|')" \
		"0,0,0 8 19 0 0 1|0,0,1 8 20 0 0 1|0,0,2 10 26 1 0 1|"
	# mdm, two iterations on volta-v100: after P1 (EXIT at 10), IMAD 11,
	# IMAD.WIDE 13, IMAD 15, MOV 17; LDG 18 (10 instructions); FMUL 19 (a
	# wait), STS 21 (the square ready); IADD3 22, 24, 26, ISETP 28, BRA 30;
	# LDG 31 (16 instructions, 1 wait); FMUL 32, STS 34
	gen mdm -n 32 --iters 2 --gpu volta-v100 --intervals
	expect_eq "$(decode_compute "$T/s" | uniq | tr '\n' '|')" \
		"0,0,0 10 18 0 0 1|0,0,1 11 21 1 0 1|0,0,2 16 31 1 0 1|0,0,3 17 34 2 0 1|"
}

@test "gc-gen: --intervals --op-latency: the class's latency over --gpu's, worked by hand" {
	# vecadd on volta-v100 with int 5,2 (sp 2,2; branch 4,4): MOV 0 (R1
	# 5), S2R R0 2 (7), S2R R3 4 (9), IMAD R0 9 (R3; 14), ISETP 14 (R0;
	# P0 19), EXIT 19 (P0), IMAD.WIDE R2 20 (25) and R4 22 (int unit;
	# 27); LDG A at 25 (R2), LDG B at 27 (R4); IMAD.WIDE R6 28 (33), FADD
	# 29 (one wait; 31), STG at 33 (R6)
	for args in "--gpu volta-v100 --op-latency int=5" "--op-latency int=5 --gpu volta-v100"; do
		gen vecadd -n 64 --intervals $args
		expect_eq "$(decode_compute "$T/s" | uniq | tr '\n' '|')" \
			"0,0,0 8 25 0 0 1|0,0,1 8 27 0 0 1|0,0,2 10 33 1 0 1|0,1,0 8 25 0 0 1|0,1,1 8 27 0 0 1|0,1,2 10 33 1 0 1|" "$args"
		htext "$T/s" >"$T/h"
		expect_eq "$(grep '^intervals\.op\.' "$T/h" | tr '\n' ' ')" \
			"intervals.op.int=5,2 intervals.op.sp=2,2 intervals.op.dp=8,4 intervals.op.sfu=20,8 intervals.op.tensor=2,2 intervals.op.branch=4,4 " "$args"
		# the gpu.* keys stay the preset's
		grep -qx 'gpu.op.int.latency=2' "$T/h"
	done
	# int 2,3: the initiation interval too: MOV 0, S2R 3 and 6 (R3 8),
	# IMAD 9 (int unit; R0 11), ISETP 12 (P0 14), EXIT 14, IMAD.WIDE 15
	# (17) and 18 (20); LDG A 19, LDG B 20 (R4); IMAD.WIDE 21, FADD 22
	# (24), STG 24 (R9)
	gen vecadd -n 64 --gpu volta-v100 --intervals --op-latency int=2,3
	expect_eq "$(decode_compute "$T/s" | uniq | sed -n 1,3p | tr '\n' '|')" \
		"0,0,0 8 19 0 0 1|0,0,1 8 20 0 0 1|0,0,2 10 24 1 0 1|"
	htext "$T/s" | grep -qx 'intervals.op.int=2,3'
	# without --gpu: over the defaults' (fermi-gtx470-16k, int 4,1)
	gen vecadd -n 64 --intervals --op-latency int=6
	htext "$T/s" | grep -qx 'intervals.op.int=6,1'
}
