#!/usr/bin/env bats
# gc-import, Accel-Sim formats: post-processed .traceg, raw .trace and
# kernelslist[.g].  Records are decoded with od and awk from the byte
# layout of gc-stream(5), and the counts of the real traces are worked out
# with awk over their text, independently of the parser.
#
# Fixtures: tests/fixtures/accelsim/ (hand-written; *.expect are their
# reviewed decodings, bad/MESSAGES lists each broken file with the message
# it must produce) and tests/fixtures/traces/ (real traces, see README.md).

load helpers

A="$FIX/accelsim"
TR="$FIX/traces"
VA="$TR/accelsim-v4-pascal-vectoradd"
MM="$TR/accelsim-v4-pascal-matrixmul"
BFS="$TR/accelsim-v3-volta-bfs-rodinia"
TU="$TR/accelsim-v5-turing-vecadd-raw"

# dump FILE: every record of an access stream as one text line.  kdump
# FILE: the kernel records only (begin, attributes, name, end; the end
# of stream); data FILE (below) the data records only.  od writes each 32-byte record as eight little-endian
# 32-bit words, which awk takes apart into bytes and 16-bit halves (four
# times less text than a number a byte).
dump() {
	records "$1" | decode
}
kdump() {
	records "$1" | decode 1
}
records() {
	od -An -v -tu4 -w32 -j"$(stream_hsize "$1")" "$1"
}
decode() {
	awk -v konly="${1:-0}" '
	function b(i) { return int($(int(i / 4) + 1) / p8[i % 4]) % 256 }
	function hex(i) {
		return $(i / 4 + 2) ? sprintf("0x%x%08x", $(i / 4 + 2), $(i / 4 + 1)) : sprintf("0x%x", $(i / 4 + 1))
	}
	function str(i, n,   s, k) {
		s = ""
		for (k = 0; k < n; k++) s = s sprintf("%c", b(i + k))
		return s
	}
	BEGIN {
		split("global local shared const texture generic", sp, " ")
		p8[0] = 1; p8[1] = 256; p8[2] = 65536; p8[3] = 16777216
	}
	{
		t = $1 % 256
		if (t == 128)
			kid = $2
		if (konly == 1 && !(t >= 128 && t <= 131 || t == 143) || konly == 2 && !(t >= 1 && t <= 3))
			next
		if (t >= 1 && t <= 3) {
			f = int($1 / 256) % 256
			printf "%s %s k%d b%d w%d l%d pc=%x seq=%d size=%d addr=%s sm=%d flags=%d time=%d\n",
			    (t == 1 ? "load" : t == 2 ? "store" : "atomic"), sp[f % 16 + 1], kid,
			    $3, int($2 / 65536), int($1 / 65536) % 256, $4, $5, int($1 / 16777216), hex(24), $2 % 65536,
			    int(f / 16), $6
		} else if (t == 128) {
			printf "kbegin k%d grid=%d,%d,%d block=%d,%d,%d regs=%d shmem=%d attrs=%d\n",
			    kid, $3, $4 % 65536, int($4 / 65536), $5 % 65536, int($5 / 65536), $6 % 65536, int($6 / 65536), $7, $8 % 65536
		} else if (t == 129)
			printf "attr %d=%s\n", int($1 / 65536), hex(8)
		else if (t == 130)
			printf "name %s\n", str(2, int($1 / 256) % 256)
		else if (t == 133) {
			n = int($1 / 256) % 256
			printf "opcode pc=%x len=%d %s\n", $2, n, str(8, n < 24 ? n : 24)
		} else if (t == 134)
			printf "opmore %s\n", str(2, int($1 / 256) % 256)
		else if (t == 131)
			printf "kend k%d records=%d\n", $2, $3
		else if (t == 143)
			printf "end records=%d data=%d\n", $3, $5
		else
			printf "type 0x%02x\n", t
	}'
}

# data FILE: the data records only.
data() {
	records "$1" | decode 2
}

# body FILE: the records as bytes (the header, which names the input in
# its provenance, left out), for comparing streams.
body() {
	tail -c +"$(($(stream_hsize "$1") + 1))" "$1" | md5sum
}

# attrsum TEXT KEY: the sum of one kernel attribute over all kernels of
# a stream decoded (dump or kdump) into the file TEXT.
attrsum() {
	awk -v k="attr $2=" 'index($0, k) == 1 {
		h = substr($0, length(k) + 3); v = 0
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		s += v
	} END { print s + 0 }' "$1"
}

# Shared by several tests (each checks what it uses): the BFS trace
# through its kernelslist.g (bfs.gcs, its kernel records decoded in
# bfs.k, gc-import's exit status in bfs.st), its kernel files' text
# (bfs/kernel-N.traceg) and all of it in list order (bfs.txt); the raw
# Turing trace imported (tu.gcs, tu.st).
setup_file() {
	local d=$BATS_FILE_TMPDIR f st=0
	gc-import "$BFS/kernelslist.g" >"$d/bfs.gcs" || st=$?
	echo "$st" >"$d/bfs.st"
	kdump "$d/bfs.gcs" >"$d/bfs.k"
	mkdir "$d/bfs"
	for f in $(grep '^kernel' "$BFS/kernelslist.g"); do
		xz -dc "$BFS/$f.xz" >"$d/bfs/$f"
		cat "$d/bfs/$f" >>"$d/bfs.txt"
	done
	st=0
	gc-import "$TU/kernel-1-ctx_0x1868c30.trace" >"$d/tu.gcs" || st=$?
	echo "$st" >"$d/tu.st"
}

# shared NAME: the stream NAME.gcs of setup_file was written with exit 0.
shared() {
	local st
	slurp st "$BATS_FILE_TMPDIR/$1.st"
	expect_eq "$st" 0 "gc-import's exit status for the shared $1.gcs"
}

# jspace SPACE: one entry of the by_space breakdown of gc-stats --json in
# $T/j (jnum, in helpers.bash, reads its numbers).
jspace() {
	tr -d ' ' <"$T/j" | sed -n '/^"by_space":/,/^}/p' | grep -m1 "^\"$1\":" |
		sed 's/.*://; s/,$//'
}

# oracle [SKIP]: from Accel-Sim instruction lines on stdin (SKIP leading
# fields: a cta/warp prefix, a line number), print "memory-instructions
# non-memory-instructions" and, per opcode family, active lanes and bytes
# (width from the opcode as the tracer computes it).  Written from the
# format description, not from the parser.
oracle() {
	awk -v skip="${1:-0}" '
	BEGIN {
		for (i = 0; i < 16; i++) {
			c = substr("0123456789abcdef", i + 1, 1)
			pc[c] = (i % 2) + int(i / 2) % 2 + int(i / 4) % 2 + int(i / 8)
		}
	}
	function width(op,   n, t, i) {
		n = split(op, t, ".")
		for (i = 2; i <= n; i++) if (t[i] ~ /^[0-9]+$/) return int(t[i] / 8)
		for (i = 2; i <= n; i++) if (t[i] ~ /^U[0-9]+$/) return int(substr(t[i], 2) / 8)
		return 4
	}
	{
		m = $(skip + 2)
		if (m !~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/) next
		d = $(skip + 3); op = $(skip + 4 + d); ns = $(skip + 5 + d); mw = $(skip + 6 + d + ns)
		if (mw == 0) { alu++; next }
		mem++
		lanes = 0
		for (i = 1; i <= 8; i++) lanes += pc[substr(m, i, 1)]
		fam = substr(op, 1, 3)
		n[fam] += lanes; b[fam] += lanes * width(op)
	}
	END {
		print "insts", mem + 0, alu + 0
		for (f in n) print f, n[f], b[f]
	}' | sort
}

# tinsts: the thread instructions of the .traceg text on stdin, as
# Accel-Sim counts them: the active lanes (the mask's bits) of every
# instruction line, whatever its opcode.  Written from the format, not
# from the parser.
tinsts() {
	awk '
	BEGIN {
		for (i = 0; i < 16; i++) {
			c = substr("0123456789abcdef", i + 1, 1)
			pc[c] = (i % 2) + int(i / 2) % 2 + int(i / 4) % 2 + int(i / 8)
		}
	}
	$2 ~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/ {
		for (i = 1; i <= 8; i++) n += pc[substr($2, i, 1)]
	}
	END { print n + 0 }'
}

# ---- formats and detection -------------------------------------------

@test "accelsim: listed by --list-formats" {
	run_status 0 gc-import --list-formats
	expect_match "$output" "^accelsim +Accel-Sim"
}

@test "accelsim: .traceg, raw .trace and kernelslist are detected from content" {
	local h
	cp "$A/version-4.traceg" "$T/noname"
	cp "$A/raw.trace" "$T/noname2"
	gc-import "$T/noname" >"$T/a.gcs"
	h=$(stream_htext "$T/a.gcs")
	expect_match "$h" "source_format=accelsim"
	expect_match "$h" "accelsim_input=traceg"
	expect_match "$h" "accelsim_tracer_version=4"
	expect_match "$h" "accelsim_nvbit_version=1.5.5"
	gc-import "$T/noname2" >"$T/b.gcs"
	expect_match "$(stream_htext "$T/b.gcs")" "accelsim_input=trace"
	gc-import "$VA/kernelslist.g" >"$T/c.gcs"
	h=$(stream_htext "$T/c.gcs")
	expect_match "$h" "accelsim_input=kernelslist"
	expect_match "$h" "accelsim_memcpy_htod=3"
	expect_match "$h" "accelsim_memcpy_htod_bytes=1200"
	expect_match "$h" "accelsim_list_ignored=0"
	gc-import --format accelsim "$A/version-none.traceg" >"$T/d.gcs"
	expect_match "$(stream_htext "$T/d.gcs")" "accelsim_tracer_version=none"
}

# ---- the real traces ---------------------------------------------------

@test "accelsim: vectoradd (v4): 200 global loads, 100 global stores, 1,200 bytes" {
	sh_status 0 "gc-import '$VA/kernel-1.traceg' > '$T/va.gcs'"
	run_status 0 gc-stats --json "$T/va.gcs"
	printf '%s\n' "$output" >"$T/j"
	expect_eq "$(jnum kernel_count)" 1 kernels
	expect_eq "$(jnum records)" 300 records
	expect_eq "$(jnum loads)" 200 loads
	expect_eq "$(jnum stores)" 100 stores
	expect_eq "$(jnum atomics)" 0 atomics
	expect_eq "$(jnum bytes)" 1200 bytes
	expect_eq "$(jspace global)" 300 global
	# The same from the text: 12 memory instructions, 332 others.
	expect_eq "$(grep -v '^-' "$VA/kernel-1.traceg" | oracle | tr '\n' ' ')" \
		"LDG 200 800 STG 100 400 insts 12 332 " oracle
	dump "$T/va.gcs" >"$T/va.txt"
	expect_eq "$(attrsum "$T/va.txt" 1)" 332 insts
	expect_eq "$(attrsum "$T/va.txt" 2)" 12 mem_insts
	mapfile -t lines <"$T/va.txt"
	expect_eq "${lines[0]}" "kbegin k1 grid=1,1,1 block=1024,1,1 regs=8 shmem=0 attrs=7"
	expect_eq "${lines[3]}" "attr 3=0x0" stream
	expect_eq "${lines[4]}" "attr 4=0x3d" binary
	expect_eq "${lines[5]}" "attr 5=0x7f2b5a000000" shmem_base
	expect_eq "${lines[6]}" "attr 6=0x7f2b58000000" local_base
	expect_eq "${lines[7]}" "attr 7=0x2914" "thread_insts (10516)"
	expect_eq "${lines[8]}" "name _Z6vecAddIfEvPT_S1_S1_i"
	# Warp 3 is partly active (mask 0000000f): 4 lanes per instruction.
	expect_eq "$(grep -Ec '^(load|store|atomic) .* w3 ' "$T/va.txt")" 12 "warp 3 lanes"
}

@test "accelsim: matrixmul (v4): 2,048 global loads, 1,024 global stores, 43,008 shared" {
	sh_status 0 "gc-import '$MM/kernelslist.g' > '$T/mm.gcs'"
	run_status 0 gc-stats --json "$T/mm.gcs"
	printf '%s\n' "$output" >"$T/j"
	expect_eq "$(jnum kernel_count)" 1 kernels
	expect_eq "$(jspace global)" 3072 global
	expect_eq "$(jspace shared)" 43008 shared
	dump "$T/mm.gcs" >"$T/mm.txt"
	expect_eq "$(grep -c '^load global' "$T/mm.txt")" 2048 "global loads"
	expect_eq "$(grep -c '^store global' "$T/mm.txt")" 1024 "global stores"
	expect_eq "$(grep -v '^-' "$MM/kernel-1.traceg" | oracle | tr '\n' ' ')" \
		"LDG 2048 8192 LDS 40960 262144 STG 1024 4096 STS 2048 8192 insts 1440 2976 " oracle
	expect_eq "$(grep -c '^load shared' "$T/mm.txt")" 40960 "shared loads"
	expect_eq "$(attrsum "$T/mm.txt" 2)" 1440 mem_insts
	# LDS.U.128 with stride 0: 16 bytes, all 32 lanes on one address.
	grep -E '^(load|store|atomic) .* size=16 ' "$T/mm.txt" > "$T/lds128"
	expect_eq "$(wc -l < "$T/lds128")" 8192
	expect_eq "$(awk '{print $5, $8, $10}' "$T/lds128" | sort -u | wc -l)" \
		"$(grep -c 'LDS.U.128' "$MM/kernel-1.traceg")" "one address per LDS.U.128 warp instruction"
}

@test "accelsim: raw Turing trace (v5, lineinfo): 300,000 lanes in arrival order" {
	shared tu
	local tu=$BATS_FILE_TMPDIR/tu.gcs
	run_status 0 gc-stats --json "$tu"
	printf '%s\n' "$output" >"$T/j"
	expect_eq "$(jnum records)" 300000 records
	expect_eq "$(jnum loads)" 200000 loads
	expect_eq "$(jnum stores)" 100000 stores
	expect_eq "$(jnum bytes)" 2400000 bytes
	expect_eq "$(grep -v '^-' "$TU/kernel-1-ctx_0x1868c30.trace" | oracle 5 | tr '\n' ' ')" \
		"LDG 200000 1600000 STG 100000 800000 insts 9375 37566 " oracle
	local h
	h=$(stream_htext "$tu")
	expect_match "$h" "accelsim_input=trace"
	expect_match "$h" "accelsim_tracer_version=5"
	# One decoding of the records: the kernel's attributes and, in
	# order, the first access; every access's block, warp and size.
	local first
	first=$(grep -m1 LDG "$TU/kernel-1-ctx_0x1868c30.trace")
	set -- $first
	dump "$tu" | awk '
	/^attr [12]=/ { print }
	/^(load|store|atomic) / {
		if (!n++) print "first", $4, $5, $7
		b = substr($4, 2) + 0; w = substr($5, 2) + 0
		if (b >= 98 || w >= 32 || $9 != "size=8") bad++
	}
	END { print "bad", bad + 0 }' >"$T/tu.txt"
	expect_eq "$(attrsum "$T/tu.txt" 1)" 37566 insts
	expect_eq "$(attrsum "$T/tu.txt" 2)" 9375 mem_insts
	# Arrival order: the first memory line of the file comes first.
	mapfile -t lines < <(grep -E '^(first|bad) ' "$T/tu.txt")
	expect_eq "${lines[0]}" "first b$1 w$4 pc=$(printf %x "0x$6")" "first access"
	# Block ids stay inside the grid, warps inside the block; 8-byte doubles.
	expect_eq "${lines[1]}" "bad 0"
	# Its kernelslist names a .trace.xz that is not there: the .trace is used.
	sh_status 0 "gc-import '$TU/kernelslist_ctx_0x1868c30' > '$T/tul.gcs'"
	expect_eq "$(body "$T/tul.gcs")" "$(body "$tu")"
	expect_match "$(stream_htext "$T/tul.gcs")" "accelsim_memcpy_htod=3"
}

@test "accelsim: BFS kernelslist.g (v3, xz): 16 kernels, 38,584 memory warp instructions" {
	shared bfs
	local d=$BATS_FILE_TMPDIR
	local k=$d/bfs.k
	expect_eq "$(grep -c '^kbegin' "$k")" 16 kernels
	expect_eq "$(grep '^kbegin' "$k" | awk '{print $2}' | tr '\n' ' ')" \
		"k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13 k14 k15 k16 " "kernel order"
	expect_eq "$(attrsum "$k" 2)" 38584 mem_insts
	expect_eq "$(attrsum "$k" 1)" 116255 insts
	# The text, per kernel file in list order (bfs.txt), gives the same.
	expect_eq "$(grep -v '^-' "$d/bfs.txt" | oracle | tr '\n' ' ')" \
		"LDG 145956 313488 STG 35860 58936 insts 38584 116255 " oracle
	run_status 0 gc-stats --json "$d/bfs.gcs"
	printf '%s\n' "$output" >"$T/j"
	expect_eq "$(jnum kernel_count)" 16 kernels
	expect_eq "$(jnum records)" 181816 records
	expect_eq "$(jnum bytes)" 372424 bytes
	local h
	h=$(stream_htext "$d/bfs.gcs")
	expect_match "$h" "accelsim_memcpy_htod=14"
	expect_match "$h" "accelsim_tracer_version=3"
	# Kernel ids and names from the headers; odd ids are Kernel, even Kernel2.
	mapfile -t lines <"$k"
	local i n2= n15=
	for i in "${!lines[@]}"; do
		case ${lines[i]} in
		"kbegin k2 "*) n2=${lines[i + 8]} ;;
		"kbegin k15 "*) n15=${lines[i + 8]} ;;
		esac
	done
	expect_eq "$n2" "name _Z7Kernel2PbS_S_S_i"
	expect_eq "$n15" "name _Z6KernelP4NodePiPbS2_S2_S1_i"
}

@test "accelsim: BFS thread instructions per kernel are Accel-Sim's instruction counts" {
	# Accel-Sim's instructions (gpu_sim_insn) per kernel uid on this trace
	# with SM7_QV100, from ../shared/reference/accelsim-bfs-qv100.md ("Per
	# kernel": outputs of Accel-Sim's trace-driven simulator, dev branches
	# of October 2024, run on traces/accelsim-v3-volta-bfs-rodinia): 1,207,402
	# in all.  Accel-Sim counts the active lanes of every warp instruction.
	local want="1:41210 2:45196 3:42640 4:45896 5:50924 6:49816 7:95224 8:65440"
	want="$want 9:236622 10:72804 11:226502 12:48486 13:55480 14:45084 15:41022 16:45056"
	shared bfs
	local got d=$BATS_FILE_TMPDIR
	got=$(awk '
	/^kbegin / { k = substr($2, 2) }
	/^attr 7=/ {
		h = substr($0, 10); v = 0
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		printf "%s%s:%d", sep, k, v; sep = " "; s += v
	}
	END { printf " total:%d", s }' "$d/bfs.k")
	expect_eq "$got" "$want total:1207402"
	# The text agrees, kernel by kernel (two of them here).
	expect_eq "$(tinsts <"$d/bfs/kernel-9.traceg")" 236622
	expect_eq "$(tinsts <"$d/bfs/kernel-11.traceg")" 226502
}

# ---- hand-written files ------------------------------------------------

@test "accelsim: every tracer version gives the same records" {
	local f
	for f in version-none version-1.2 version-3 version-4 version-4-lineinfo \
		version-5 version-5-lineinfo version-4-reordered-crlf; do
		sh_status 0 "gc-import '$A/$f.traceg' > '$T/$f.gcs'"
		data "$T/$f.gcs" > "$T/$f.txt"
		diff -u "$A/version.expect" "$T/$f.txt" >&2
	done
	# Kernel attributes: 2 non-memory and 3 memory instructions each.
	kdump "$T/version-5.gcs" >"$T/v5.k"
	expect_eq "$(attrsum "$T/v5.k" 1) $(attrsum "$T/v5.k" 2)" "2 3"
	# Without base addresses (version none) only five attributes: the
	# counts, thread instructions, stream and binary version.
	expect_eq "$(dump "$T/version-none.gcs" | head -1)" \
		"kbegin k1 grid=1,1,1 block=32,1,1 regs=8 shmem=0 attrs=5"
	expect_match "$(stream_htext "$T/version-1.2.gcs")" "accelsim_tracer_version=1.2"
	expect_match "$(stream_htext "$T/version-5.gcs")" "accelsim_tracer_version=5"
}

@test "accelsim: the size comes from the opcode, whatever mem_width says" {
	sed -e 's/LDG.E.64 1 R4 8 1/LDG.E.64 1 R4 4 1/' -e 's/STG.E 2 R2 R4 4 0/STG.E 2 R2 R4 16 0/' \
		"$A/version-4.traceg" > "$T/w.traceg"
	expect_differ "$A/version-4.traceg" "$T/w.traceg" "the edited trace"
	sh_status 0 "gc-import '$T/w.traceg' > '$T/w.gcs'"
	data "$T/w.gcs" > "$T/w.txt"
	diff -u "$A/version.expect" "$T/w.txt" >&2
}

@test "accelsim: header lines in any order, unknown header lines, CRLF" {
	sh_status 0 "gc-import '$A/version-4-reordered-crlf.traceg' > '$T/r.gcs'"
	sh_status 0 "gc-import '$A/version-4.traceg' > '$T/p.gcs'"
	expect_same <(dump "$T/r.gcs") <(dump "$T/p.gcs")
}

@test "accelsim: address modes, 3-D grid block ids, seq numbering" {
	sh_status 0 "gc-import '$A/addr-modes.traceg' > '$T/m.gcs'"
	dump "$T/m.gcs" > "$T/m.txt"
	diff -u "$A/addr-modes.expect" "$T/m.txt" >&2
}

@test "accelsim: generic LD/ST resolved with the window base addresses" {
	sh_status 0 "gc-import '$A/generic.traceg' > '$T/g.gcs'"
	dump "$T/g.gcs" > "$T/g.txt"
	diff -u "$A/generic.expect" "$T/g.txt" >&2
	# No generic space is left in the stream.
	[ "$(data "$T/g.gcs" | grep -c ' generic ')" -eq 0 ]
}

@test "accelsim: LDGSTS pairs keep the global line" {
	sh_status 0 "gc-import '$A/ldgsts.traceg' > '$T/l.gcs'"
	dump "$T/l.gcs" > "$T/l.txt"
	diff -u "$A/ldgsts.expect" "$T/l.txt" >&2
}

@test "accelsim: raw .trace: per-warp seq, LDGSTS halves, TOOL_TRACE_CORE columns" {
	sh_status 0 "gc-import '$A/raw.trace' > '$T/r.gcs'"
	dump "$T/r.gcs" > "$T/r.txt"
	diff -u "$A/raw.expect" "$T/r.txt" >&2
	sh_status 0 "gc-import '$A/raw-core.trace' > '$T/c.gcs'"
	dump "$T/c.gcs" > "$T/c.txt"
	diff -u "$A/raw-core.expect" "$T/c.txt" >&2
}

@test "accelsim: kernelslist: kernels in order, .xz variants, memcpy and unknown lines" {
	sh_status 0 "gc-import '$A/list/kernelslist.g' > '$T/k.gcs'"
	dump "$T/k.gcs" > "$T/k.txt"
	diff -u "$A/list.expect" "$T/k.txt" >&2
	local h
	h=$(stream_htext "$T/k.gcs")
	expect_match "$h" "accelsim_memcpy_htod=2"
	expect_match "$h" "accelsim_memcpy_htod_bytes=33768"
	expect_match "$h" "accelsim_list_ignored=3"
	# A list read from standard input names files relative to the current
	# directory.
	sh_status 0 "cd '$A/list' && gc-import < kernelslist.g > '$T/k2.gcs'"
	expect_same <(dump "$T/k2.gcs") <(dump "$T/k.gcs")
}

@test "accelsim: kernels without a kernel id are numbered in stream order" {
	sed '/^-kernel id/d' "$A/generic.traceg" > "$T/noid.traceg"
	sh_status 0 "gc-import '$T/noid.traceg' > '$T/n.gcs'"
	expect_eq "$(dump "$T/n.gcs" | grep '^kbegin' | awk '{print $2}' | tr '\n' ' ')" "k1 k2 k3 "
}

# ---- errors ------------------------------------------------------------

@test "accelsim: every broken file gives its message, exit 1 and no output" {
	local f l m n=0 bad=0
	cd "$A/bad"
	while IFS='	' read -r f l m; do
		n=$((n + 1))
		local st=0 err
		gc-import "$f" > "$T/out" 2> "$T/err" || st=$?
		slurp err "$T/err"
		if [ "$st" -ne 1 ] || [ "$err" != "gc-import: $f:$l: $m" ] || [ -s "$T/out" ]; then
			echo "$f: exit $st, stdout $(wc -c < "$T/out") bytes" >&2
			echo "  expected: gc-import: $f:$l: $m" >&2
			echo "  got:      $err" >&2
			bad=$((bad + 1))
		fi
	done < MESSAGES
	[ "$n" -ge 60 ]
	[ "$bad" -eq 0 ]
}

@test "accelsim: kernelslist errors name the list line or the kernel file" {
	cd "$A/bad"
	sh_status 1 "gc-import list-missing/kernelslist.g > '$T/out'"
	expect_eq "$(cat "$T/err")" \
		"gc-import: list-missing/kernelslist.g:3: list-missing/kernel-9.traceg: No such file or directory"
	[ ! -s "$T/out" ]
	sh_status 1 "gc-import list-not-trace/kernelslist.g > '$T/out'"
	expect_eq "$(cat "$T/err")" \
		"gc-import: list-not-trace/kernel-2.traceg:1: not an Accel-Sim kernel trace (no '-kernel name = ...' header)"
	sh_status 1 "gc-import --format accelsim not-accelsim.txt > '$T/out'"
	expect_eq "$(cat "$T/err")" \
		"gc-import: not-accelsim.txt:1: neither an Accel-Sim kernel trace ('-kernel name = ...' header) nor a kernelslist"
	[ ! -s "$T/out" ]
}

@test "accelsim: a fatal error leaves a stream without its end record" {
	# The second file is broken: the first one's records may be out, but
	# the stream must not end cleanly.
	sh_status 1 "gc-import '$A/version-4.traceg' '$A/bad/insts-mismatch.traceg' > '$T/out'"
	run gc-stats --json "$T/out"
	[ "$status" -ne 0 ]
}

@test "accelsim: --lenient skips bad lines and counts them" {
	{
		sed -n '1,/^insts/p' "$A/version-4.traceg" | sed 's/^insts = 5/insts = 8/'
		echo "0000 ffffffff 1 R1 MOV 0 0 "
		echo "0008 ffffffff 1 R1 MOV 0 0 0 "
		echo "0010 0000000f 1 R4 LDG.E.64 1 R4 8 1 0x7f3000000100 8 "
		echo "0018 0000000f 1 R4 LDG.E.64 1 R4 8 2 0x7f3000000100 8 "
		echo "0020 00000003 0 STG.E 2 R2 R4 4 0 0x00007f3000000200 0x00007f3000000300 "
		echo "0030 00000005 1 R3 LDG.E.U8 1 R4 1 2 0x7f3000000400 -2 "
		echo "0038 00000005 1 R3 LDG.E.U8 1 R4 1 9 0x7f3000000400 -2 "
		echo "0040 ffffffff 0 EXIT 0 0 "
		echo
		echo "#END_TB"
	} > "$T/len.traceg"
	sh_status 1 "gc-import '$T/len.traceg' > '$T/out'"
	expect_eq "$(cat "$T/err")" "gc-import: $T/len.traceg:26: unexpected '0' after mem_width 0 (lines of tracer versions before 5 end here; is '-accelsim tracer version' right?)"
	sh_status 0 "gc-import --lenient '$T/len.traceg' > '$T/len.gcs'"
	expect_eq "$(cat "$T/err")" "gc-import: skipped 3 malformed lines (--lenient)"
	data "$T/len.gcs" > "$T/len.txt"
	diff -u "$A/version.expect" "$T/len.txt" >&2
	# A kernel whose header is unusable is skipped whole.
	{ sed '/^-grid dim/d' "$A/version-4.traceg"; cat "$A/version-3.traceg"; } > "$T/skip.traceg"
	sh_status 0 "gc-import --lenient '$T/skip.traceg' > '$T/skip.gcs'"
	expect_eq "$(cat "$T/err")" "gc-import: skipped 1 malformed lines (--lenient)"
	expect_eq "$(dump "$T/skip.gcs" | grep -c '^kbegin')" 1
	data "$T/skip.gcs" > "$T/skip.txt"
	diff -u "$A/version.expect" "$T/skip.txt" >&2
}

# ---- input forms -------------------------------------------------------

@test "accelsim: gzip and xz input give the same stream as plain text" {
	# (The fastest levels: the formats are the same, the compression not
	# the point.)
	local f=$TU/kernel-1-ctx_0x1868c30.trace
	shared tu
	cp "$BATS_FILE_TMPDIR/tu.gcs" "$T/p.gcs"
	gzip -1 -c "$f" > "$T/t.gz"
	xz -0 -T1 -c "$f" > "$T/t.xz"
	sh_status 0 "gc-import '$T/t.gz' > '$T/z.gcs'"
	sh_status 0 "gc-import '$T/t.xz' > '$T/x.gcs'"
	expect_eq "$(body "$T/z.gcs")" "$(body "$T/p.gcs")" gzip
	expect_eq "$(body "$T/x.gcs")" "$(body "$T/p.gcs")" xz
	# Through a pipe (read twice through a temporary copy).
	sh_status 0 "xz -dc '$T/t.xz' | gc-import > '$T/s.gcs'"
	expect_eq "$(body "$T/s.gcs")" "$(body "$T/p.gcs")" pipe
	sh_status 0 "cat '$T/t.gz' | gc-import > '$T/s2.gcs'"
	expect_eq "$(body "$T/s2.gcs")" "$(body "$T/p.gcs")" "gzip pipe"
	# Concatenated xz streams and gzip members: two kernels.
	{ xz -0 -c "$A/version-4.traceg"; xz -0 -c "$A/version-3.traceg"; } > "$T/two.xz"
	{ gzip -c "$A/version-4.traceg"; gzip -c "$A/version-3.traceg"; } > "$T/two.gz"
	sh_status 0 "gc-import '$T/two.xz' > '$T/two1.gcs'"
	sh_status 0 "gc-import '$T/two.gz' > '$T/two2.gcs'"
	expect_eq "$(data "$T/two1.gcs" | wc -l)" 16
	expect_eq "$(body "$T/two1.gcs")" "$(body "$T/two2.gcs")"
	# A cut xz file is an error.
	head -c 5000 "$T/t.xz" > "$T/cut.xz"
	sh_status 1 "gc-import '$T/cut.xz' > '$T/out'"
	expect_eq "$(cat "$T/err")" "gc-import: $T/cut.xz: truncated xz data"
}

@test "accelsim: standard input, redirected or piped" {
	sh_status 0 "gc-import '$A/raw.trace' > '$T/f.gcs'"
	sh_status 0 "gc-import < '$A/raw.trace' > '$T/r.gcs'"
	sh_status 0 "cat '$A/raw.trace' | gc-import - > '$T/p.gcs'"
	expect_eq "$(body "$T/r.gcs")" "$(body "$T/f.gcs")" redirect
	expect_eq "$(body "$T/p.gcs")" "$(body "$T/f.gcs")" pipe
	# A pipe's temporary copy goes to TMPDIR.
	sh_status 1 "cat '$A/raw.trace' | TMPDIR=$T/nonexistent gc-import > '$T/out'"
	expect_match "$(cat "$T/err")" "^gc-import: stdin: cannot create a temporary file in $T/nonexistent \(a pipe is read twice\): "
	[ ! -s "$T/out" ]
}

@test "accelsim: the output is deterministic" {
	shared bfs
	sh_status 0 "gc-import '$BFS/kernelslist.g' > '$T/b.gcs'"
	cmp "$BATS_FILE_TMPDIR/bfs.gcs" "$T/b.gcs"
}

@test "accelsim: gen-traceg output imports with the counts of its text" {
	local o
	gen-traceg -s 300K > "$T/g.traceg"
	sh_status 0 "gc-import '$T/g.traceg' > '$T/g.gcs'"
	grep -v '^-' "$T/g.traceg" | oracle >"$T/g.oracle"
	o=$(awk '$1 != "insts" {n += $2} END {print n}' "$T/g.oracle")
	data "$T/g.gcs" >"$T/g.txt"
	expect_eq "$(wc -l <"$T/g.txt")" "$o" records
	kdump "$T/g.gcs" >"$T/g.k"
	expect_eq "$(attrsum "$T/g.k" 2)" "$(awk '$1 == "insts" {print $2}' "$T/g.oracle")" mem_insts
	gen-traceg -s 200K -V 5 -l -r > "$T/r.trace"
	sh_status 0 "gc-import '$T/r.trace' > '$T/r.gcs'"
	o=$(grep -v '^-' "$T/r.trace" | oracle 5 | awk '$1 != "insts" {n += $2} END {print n}')
	expect_eq "$(data "$T/r.gcs" | wc -l)" "$o" "raw records"
}

# ---- the summary (--stats, -v) -------------------------------------------

# stats_of FILE: the --stats JSON flattened to one line.
stats_of() {
	tr -d ' \n' <"$1"
}

@test "accelsim: --stats and -v count lines, instructions, memory instructions, accesses" {
	# gpu: the preset of the header's binary version (61: Pascal, 70:
	# Volta), as a stage reading the stream without --gpu takes it.
	# vectoradd: 12 memory and 332 other warp instructions, 300 lanes
	# (the oracle of the vectoradd test), 10516 thread instructions
	# (tinsts); lines and bytes as wc counts them.
	local lines bytes
	lines=$(wc -l <"$VA/kernel-1.traceg")
	bytes=$(wc -c <"$VA/kernel-1.traceg")
	sh_status 0 "gc-import -v --stats '$T/s.json' '$VA/kernel-1.traceg' >/dev/null"
	expect_eq "$(stats_of "$T/s.json")" \
		"{\"tool\":\"gc-import\",\"input\":\"$VA/kernel-1.traceg\",\"gpu\":\"pascal-gtx1080\",\"lines\":$lines,\"text_bytes\":$bytes,\"kernel_count\":1,\"instructions\":344,\"mem_instructions\":12,\"accesses\":300,\"bad_lines\":0,\"thread_instructions\":10516}"
	expect_eq "$(tinsts <"$VA/kernel-1.traceg")" 10516
	# --gpu names the GPU whatever the binary version
	gc-import --gpu volta-v100 --emit none --stats "$T/g.json" "$VA/kernel-1.traceg"
	expect_eq "$(sed -n 4p "$T/g.json")" '  "gpu": "volta-v100",'
	expect_eq "$(cat "$T/err")" \
		"gc-import: $lines lines ($bytes bytes) read, 0 skipped; 1 kernels, 344 warp instructions, 12 memory warp instructions, 300 accesses"
	# BFS through its kernelslist.g: the list's lines and every kernel
	# file's (decompressed), 38,584 + 116,255 instructions, 181,816 lanes.
	# (bfs.txt: the kernel files' text, one after another.)
	local d=$BATS_FILE_TMPDIR
	lines=$(cat "$BFS/kernelslist.g" "$d/bfs.txt" | wc -l)
	bytes=$(cat "$BFS/kernelslist.g" "$d/bfs.txt" | wc -c)
	sh_status 0 "gc-import --stats '$T/s.json' '$BFS/kernelslist.g' >/dev/null"
	expect_eq "$(stats_of "$T/s.json")" \
		"{\"tool\":\"gc-import\",\"input\":\"$BFS/kernelslist.g\",\"gpu\":\"volta-v100\",\"lines\":$lines,\"text_bytes\":$bytes,\"kernel_count\":16,\"instructions\":154839,\"mem_instructions\":38584,\"accesses\":181816,\"bad_lines\":0,\"thread_instructions\":1207402}"
	[ ! -s "$T/err" ]
}

@test "gc-import: the output rule: --emit none, --report FILE (gc(7))" {
	local lines bytes
	lines=$(wc -l <"$VA/kernel-1.traceg")
	bytes=$(wc -c <"$VA/kernel-1.traceg")
	output_rule "gc-import '$VA/kernel-1.traceg'"
	expect_eq "$(cat "$T/rule.r")" \
		"gc-import: $lines lines ($bytes bytes) read, 0 skipped; 1 kernels, 344 warp instructions, 12 memory warp instructions, 300 accesses"
	# no stream, the same counts: --stats as with the stream
	gc-import --stats "$T/a.json" "$VA/kernel-1.traceg" >/dev/null
	gc-import --emit none --stats "$T/b.json" "$VA/kernel-1.traceg" >/dev/null
	expect_same "$T/a.json" "$T/b.json" "--stats with --emit none"
	sh_status 2 "gc-import --emit requests '$VA/kernel-1.traceg'"
	expect_eq "$(head -1 "$T/err")" "gc-import: --emit: 'requests' is not accesses or none"
}

@test "accelsim: kernel ids: the header's -kernel id, else one more than the largest so far" {
	# A kernel without "-kernel id" gets the next id after the largest one
	# written, so that ids never repeat.
	sed 's/^-kernel id = 1$/-kernel id = 5/' "$A/version-4.traceg" >"$T/id5.traceg"
	sed '/^-kernel id/d' "$A/version-4.traceg" >"$T/noid.traceg"
	sh_status 0 "gc-import '$T/id5.traceg' '$T/noid.traceg' '$T/noid.traceg' >'$T/s'"
	expect_eq "$(dump "$T/s" | grep '^kbegin' | awk '{print $2}' | tr '\n' ' ')" "k5 k6 k7 "
	sh_status 0 "gc-import '$T/noid.traceg' '$T/id5.traceg' '$T/noid.traceg' >'$T/s'"
	expect_eq "$(dump "$T/s" | grep '^kbegin' | awk '{print $2}' | tr '\n' ' ')" "k1 k5 k6 "
}

@test "accelsim: one pass (the spool) writes what two passes write, and a spool past its budget goes back to them" {
	# GC_ACCELSIM_SPOOL=0 reads every trace twice, as before the spool;
	# 4K (4096 bytes) and 8K hold a small trace's events but not most BFS
	# kernels', so that list takes both ways in one run.  Streams, --stats, messages and
	# exit status equal, --lenient skipping the same lines (a bad trace of
	# two kernels, one of them skipped); with --intervals too (the first
	# pass tracks registers and spools the compute fields), where a trace
	# whose first kernel has no binary version goes back to two passes
	# and fails as they do (exit 2).
	local f e o s
	cat "$A/bad/lacks-grid.traceg" "$A/version-5.traceg" >"$T/bad2.traceg"
	grep -v "binary version" "$A/version-5.traceg" >"$T/nobin.traceg"
	# 1000 loads and an opcode no class knows (counted in --stats): past
	# 8K the spool goes, after the first pass has counted some of them
	{
		sed -n '1,/^warp = 0/p' "$A/version-5.traceg"
		echo "insts = 2000"
		awk 'BEGIN { for (i = 0; i < 1000; i++) {
			printf "%04x ffffffff 1 R1 ZZOP 0 0 0\n", 32 * i
			printf "%04x ffffffff 1 R4 LDG.E.64 1 R4 8 1 0x%x 8 0\n", 32 * i + 16, 4096 * i
		} }'
		echo "#END_TB"
	} >"$T/unknown.traceg"
	for o in "" --intervals; do
		for f in "$BFS/kernelslist.g" "$MM/kernelslist.g" "$TU/kernelslist_ctx_0x1868c30" \
			"$A/ldgsts.traceg" "$A/generic.traceg" "$A/raw-core.trace" "$A/addr-modes.traceg" \
			"$T/bad2.traceg" "$T/nobin.traceg" "$T/unknown.traceg"; do
			for e in 0 4K 8K ''; do
				rm -f "$T/s.json"
				s=0
				GC_ACCELSIM_SPOOL=$e gc-import $o --lenient --stats "$T/s.json" "$f" >"$T/o$e" 2>"$T/e$e" || s=$?
				echo "exit $s" >>"$T/e$e"
				touch "$T/s.json"
				mv "$T/s.json" "$T/s$e-.json"
			done
			for e in 4K 8K ''; do
				if [ -s "$T/o0" ]; then
					expect_same "$T/o0" "$T/o$e" "$f $o: stream, GC_ACCELSIM_SPOOL=$e against two passes"
					expect_same "$T/s0-.json" "$T/s$e-.json" "$f $o: --stats, GC_ACCELSIM_SPOOL=$e"
				elif [ -s "$T/o$e" ]; then
					echo "$f $o: a stream with GC_ACCELSIM_SPOOL=$e, none with two passes" >&2
					return 1
				fi
				if ! cmp -s "$T/e0" "$T/e$e"; then
					echo "$f $o: messages or exit status differ, GC_ACCELSIM_SPOOL=$e" >&2
					diff "$T/e0" "$T/e$e" >&2
					return 1
				fi
			done
			case "$o$f" in
			--intervals*nobin*) expect_eq "$(tail -1 "$T/e0")" "exit 2" ;;
			*) expect_eq "$(tail -1 "$T/e0")" "exit 0" ;;
			esac
		done
	done
	[ -s "$T/e0" ] # the last trace's skipped kernel was reported
	# a budget that is not a number: a usage error, nothing read or written
	GC_ACCELSIM_SPOOL=4Q sh_status 2 "gc-import '$MM/kernel-1.traceg' >'$T/out'"
	expect_eq "$(head -1 "$T/err")" "gc-import: GC_ACCELSIM_SPOOL: '4Q' is not a number"
	[ ! -s "$T/out" ]
}
