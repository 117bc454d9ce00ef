#!/usr/bin/env bats
# GPGPU-Sim configurations (gc-config(5), GPGPU-SIM CONFIGURATIONS):
# gc-config --from, --gpu FILE|DIR with a gpgpusim.config, the shipped
# presets against the five tested configs of tests/fixtures/gpgpusim-configs,
# --list-gpus, unknown preset names, and the GPU chosen from the trace.

load helpers

CFGS="$GC_ROOT/tests/fixtures/gpgpusim-configs"
BFS="$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g"
GPU_TOOLS="gc-clone gc-coalesce gc-dram gc-gen gc-import gc-l1 gc-l2 gc-perf gc-rd gc-sched"

# The keys a converted file sets, its cache strings spelled out as the
# l1.* and l2.* keys they set (name and description are not compared).
converted_keys() {
	awk -F' = ' '/^[a-z]/ {
		k = $1
		if (k == "l1.cache" || k == "l2.cache") {
			l = substr(k, 1, 2)
			n = split((l == "l1" ? "size" : "slice_size") " line sector sets ways index " \
				  "replacement write alloc write_alloc mshr_kind mshr_entries " \
				  "mshr_merge miss_queue port", f, " ")
			for (i = 1; i <= n; i++)
				print l "." f[i]
		} else if (k != "name" && k != "description")
			print k
	}' "$1"
}

# check_preset CONFIG PRESET: every key the converted CONFIG sets has the
# preset's value, or the preset's line for it (or for the cache string of
# its level) says "differs from CONFIG".  Prints the differences.
check_preset() {
	local cfg=$1 preset=$2 file="$GC_ROOT/share/gpus/$2.gpu"
	run_status 0 gc-config --from "$CFGS/$cfg" -o "$T/$cfg.gpu"
	expect_empty "$output" "gc-config --from $cfg"
	gpu-test dump "$T/$cfg.gpu" >"$T/c.dump"
	gpu-test dump "$preset" >"$T/p.dump"
	# one pass: keys, the two dumps, the preset file
	converted_keys "$T/$cfg.gpu" >"$T/keys"
	awk -v cfg="$cfg" -v preset="$preset" '
	function val(l) { return substr(l, index(l, " = ") + 3) }
	function key(l) { return index(l, " = ") ? substr(l, 1, index(l, " = ") - 1) : "" }
	FILENAME == ARGV[1] { keys[++nk] = $0; next }
	FILENAME == ARGV[2] { if (key($0) != "") c[key($0)] = $0; next }
	FILENAME == ARGV[3] { if (key($0) != "") p[key($0)] = $0; next }
	{ if (key($0) != "") f[key($0)] = $0 }
	END {
		for (j = 1; j <= nk; j++) {
			k = keys[j]
			if (!(k in c)) { print cfg ": " k " not in the dump" > "/dev/stderr"; bad = 1 }
			a = k in c ? c[k] : ""; b = k in p ? p[k] : ""
			if (a == b)
				continue
			print k ": " cfg " " val(a) ", " preset " " val(b)
			line = k in f ? f[k] : ""
			if (k ~ /^l[12]\./)
				line = line " " ((substr(k, 1, 2) ".cache") in f ? f[substr(k, 1, 2) ".cache"] : "")
			if (index(line, "differs from " cfg) == 0) {
				print preset ": " k " differs from " cfg " without a comment saying so" > "/dev/stderr"
				bad = 1
			}
		}
		exit bad
	}' "$T/keys" "$T/c.dump" "$T/p.dump" "$file"
}

@test "gc-config --from: the five tested configs convert, every option known" {
	gc-config --options | cut -f1 >"$T/known"
	for c in SM2_GTX480 SM6_TITANX SM7_QV100 SM7_TITANV SM75_RTX2060; do
		sh_status 0 "gc-config --from '$CFGS/$c' -o '$T/$c.gpu'"
		expect_empty "$(cat "$T/err")" "$c: warnings"
		# The file reads back as a preset file, named after the folder.
		expect_eq "$(gpu-test get "$T/$c.gpu" name)" "$c"
		# Every option of the config is in gc-config --options' table.
		grep -ho '^ *-[A-Za-z0-9_:]*' "$CFGS/$c"/*.config | tr -d ' ' | sort -u >"$T/used"
		expect_empty "$(grep -vxF -f "$T/known" "$T/used")" "$c: options not in --options"
		# ... and in gc-config(5)'s table.
		sed -n 's/^\.B \(\\-[A-Za-z0-9_:\\]*\)$/\1/p' "$GC_ROOT/share/man/man5/gc-config.5" |
			sed 's/\\-/-/g' >"$T/man-options"
		expect_empty "$(grep -vxF -f "$T/man-options" "$T/used")" "$c: options not in gc-config(5)"
	done
	# Values worked by hand from SM7_QV100/gpgpusim.config.
	expect_eq "$(gpu-test get "$T/SM7_QV100.gpu" sm.count sm.clock l1.sets l1.ways l1.size \
		sm.unified_size sm.shmem_options l2.size l2.partition_index dram.bandwidth \
		coalesce.arch | tr '\n' ' ')" \
		"80 1132 1 256 32K 128K 0,8K,16K,32K,64K,96K 6M ipoly 870.4 pascal "
	# SM2_GTX480: 15 SMs, GTX 480's 177.4 GB/s (6 * 2 * 4 B * 4 * 924 MHz),
	# no trace.config so no opcode keys, no carve-out.
	expect_eq "$(gpu-test get "$T/SM2_GTX480.gpu" sm.count dram.bandwidth sm.carveout l1.index \
		| tr '\n' ' ')" "15 177.408 none fermi "
	if grep -q '^op\.' "$T/SM2_GTX480.gpu"; then echo "GTX480 has op keys" >&2; return 1; fi
	# trace.config's latencies: the BRA unit for op.branch (RTX2060: unit 1).
	expect_eq "$(gpu-test get "$T/SM75_RTX2060.gpu" op.dp.latency op.dp.initiation \
		op.branch.latency | tr '\n' ' ')" "64 64 4 "
}

@test "shipped presets agree with the tested configs key for key, or say why not" {
	check_preset SM7_QV100 volta-v100
	check_preset SM7_TITANV volta-titanv
	check_preset SM75_RTX2060 turing-rtx2060
}

@test "the BFS chain with --gpu SM7_QV100's gpgpusim.config counts as volta-v100" {
	gc-import "$BFS" >"$T/bfs.gcs"
	# The fixture's older dl1 string writes back local stores and does not
	# allocate on a write (volta-v100.gpu's l1.cache comment): the preset
	# runs with those two, where a store hitting a sector a partial store
	# left (write-allocate only) would set them apart.
	local w
	for g in volta-v100 "$CFGS/SM7_QV100/gpgpusim.config"; do
		w=
		[ "$g" != volta-v100 ] || w="--write local-write-back --write-alloc no-write-allocate"
		sh_status 0 "gc-sched --gpu '$g' '$T/bfs.gcs' | gc-coalesce --gpu '$g' |
			gc-l1 --gpu '$g' $w -v | gc-l2 --gpu '$g' -v >/dev/null"
		# The sector counts: gc-l1's hits and misses line, gc-l2's report
		# (the geometry lines and the miss classes follow each L1's shape).
		grep -e '^gc-l1: [^,]*, hits [0-9]' -e '^gc-l2: [^ ]*, [0-9]* slices' "$T/err" |
			sed 's/^\(gc-l[12]: \)[^,]*/\1GPU/' >"$T/$(basename "$g").txt"
	done
	expect_eq "$(wc -l <"$T/volta-v100.txt")" 2
	expect_same "$T/volta-v100.txt" "$T/gpgpusim.config.txt" "gc-l1 and gc-l2 sector counts"
	expect_match "$(cat "$T/gpgpusim.config.txt")" "hits 59655, misses 30974; sector hit rate 0.6582"
	# Accel-Sim's own L2 sector accesses on this trace and config
	# (accelsim-bfs-qv100.md, L2_acc), and its DRAM reads within one.
	expect_match "$(cat "$T/gpgpusim.config.txt")" "32773 sectors, 27259 sector hits"
	expect_match "$(cat "$T/gpgpusim.config.txt")" "DRAM 4992 sector reads"
}

@test "--gpu DIR reads gpgpusim.config and trace.config; FILE alone has no trace.config" {
	gc-import -q "$BFS" >"$T/bfs.gcs"
	gc-sched -q --gpu "$CFGS/SM75_RTX2060" "$T/bfs.gcs" | gc-stats -v >"$T/dir.txt" 2>&1
	expect_match "$(cat "$T/dir.txt")" "gpu.op.dp.latency=64"
	expect_match "$(cat "$T/dir.txt")" "gpu.name=SM75_RTX2060"
	gc-sched -q --gpu "$CFGS/SM75_RTX2060/gpgpusim.config" "$T/bfs.gcs" | gc-stats -v \
		>"$T/file.txt" 2>&1
	expect_match "$(cat "$T/file.txt")" "gpu.op.dp.latency=8"
	sh_status 2 "gc-sched --gpu '$T' '$T/bfs.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-sched: --gpu: $T: a folder without gpgpusim.config"
}

@test "gpgpusim.config syntax: comments, quotes over lines, the last repeat wins, unknowns" {
	cat >"$T/a.config" <<-'EOF'
	# a comment
	-gpgpu_n_clusters 10   # trailing comment
	-gpgpu_n_cores_per_cluster 2
	-gpgpu_shader_registers 65536
	-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8
	-gpgpu_n_clusters 12
	-gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:
	                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"
	-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS
	-gpgpu_made_up_option 3
	-gpgpu_another_one x
	EOF
	sh_status 0 "gc-config --from '$T/a.config' -o '$T/a.gpu'"
	expect_eq "$(cat "$T/err")" "gc-config: $T/a.config: 2 options gc does not know, ignored (the first: -gpgpu_made_up_option ($T/a.config line 10))"
	# sm.count 12 * 2 (the last -gpgpu_n_clusters); mem.dram_latency:
	# -dram_latency's default 30 + (RCD 12 + CL 12) * 500 / 2000 (the
	# default core and DRAM clocks) = 36.
	expect_eq "$(gpu-test get "$T/a.gpu" sm.count dram.bank_groups mem.dram_latency | tr '\n' ' ')" \
		"24 4 36 "
	sh_status 0 "gc-config -q --from '$T/a.config'"
	expect_empty "$(cat "$T/err")" "-q"
	# The same warning once from a stage's --gpu, and its line numbers.
	gc-import -q "$BFS" >"$T/bfs.gcs"
	sh_status 0 "gc-sched --gpu '$T/a.config' '$T/bfs.gcs' >/dev/null"
	expect_eq "$(grep -c 'does not know' "$T/err")" 1
	printf -- '-gpgpu_n_clusters 4\n-gpgpu_n_mem\n' >"$T/b.config"
	sh_status 1 "gc-config --from '$T/b.config'"
	expect_eq "$(cat "$T/err")" "gc-config: $T/b.config: line 2: -gpgpu_n_mem: no value"
	[ ! -s "$T/out" ]
	printf 'sm.count = 4\n' >"$T/c.config"
	sh_status 1 "gc-config --from '$T/c.config'"
	expect_match "$(cat "$T/err")" "not a GPGPU-Sim configuration"
	printf -- '-gpgpu_cache:dl1 S:4:100:4,L:T:m:L:L,A:512:8,16:0,32\n' >"$T/d.config"
	sh_status 1 "gc-config --from '$T/d.config'"
	expect_eq "$(cat "$T/err")" "gc-config: $T/d.config: line 1: -gpgpu_cache:dl1: line '100' is not a power of two from 4 to 4096"
}

@test "gc-config --stats: what was converted from what; only with --from; a full disk" {
	printf -- '-gpgpu_n_clusters 10\n-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8\n-gpgpu_made_up 3\n' \
		>"$T/a.config"
	gc-config -q --from "$T/a.config" --stats "$T/a.json" -o "$T/a.gpu"
	# the keys are the file's key lines; the name is the file's
	expect_eq "$(tr -d " \n" <"$T/a.json")" \
		"{\"tool\":\"gc-config\",\"input\":\"$T/a.config\",\"gpu\":\"a\",\"trace_config\":null,\"keys\":$(grep -c '^[a-z].* = ' "$T/a.gpu"),\"unknown_options\":1}"
	# a folder: its gpgpusim.config and trace.config
	gc-config --from "$CFGS/SM7_QV100" --stats "$T/q.json" -o "$T/q.gpu"
	expect_eq "$(tr -d " \n" <"$T/q.json")" \
		"{\"tool\":\"gc-config\",\"input\":\"$CFGS/SM7_QV100/gpgpusim.config\",\"gpu\":\"SM7_QV100\",\"trace_config\":\"$CFGS/SM7_QV100/trace.config\",\"keys\":$(grep -c '^[a-z].* = ' "$T/q.gpu"),\"unknown_options\":0}"
	sh_status 1 "gc-config --from '$T/a.config' -q --stats /dev/full -o '$T/b.gpu'"
	expect_eq "$(cat "$T/err")" "gc-config: /dev/full: write error: No space left on device"
	sh_status 2 "gc-config --list --stats '$T/c.json'"
	expect_eq "$(head -1 "$T/err")" "gc-config: --stats needs --from"
	[ ! -e "$T/c.json" ]
}

@test "--list-gpus in every tool that takes --gpu; an unknown name lists the presets" {
	gc-config --list >"$T/list"
	expect_eq "$(wc -l <"$T/list")" "$(ls "$GC_ROOT"/share/gpus/*.gpu | wc -l)"
	expect_match "$(grep '^volta-v100 ' "$T/list")" "NVIDIA Volta GV100 \(V100\), 80 SMs"
	for t in $GPU_TOOLS; do
		run_status 0 "$t" --list-gpus
		expect_eq "$output" "$(cat "$T/list")" "$t --list-gpus"
		"$t" --help | grep -q -- '--list-gpus' || { echo "$t --help" >&2; return 1; }
	done
	gc-import -q "$BFS" >"$T/bfs.gcs"
	for t in gc-sched gc-import; do
		sh_status 2 "$t --gpu v100 '$T/bfs.gcs'"
		expect_eq "$(head -1 "$T/err")" "$t: --gpu: no preset or file named 'v100' (presets: $(cut -d' ' -f1 "$T/list" | paste -sd, | sed 's/,/, /g'); or give a file, a folder with gpgpusim.config, or set GC_GPU_PATH)"
		[ ! -s "$T/out" ]
	done
}

@test "without --gpu the trace's binary version chooses the preset, with one note" {
	gc-import -q "$BFS" >"$T/bfs.gcs"
	expect_match "$(gc-stats -v "$T/bfs.gcs" 2>&1)" "binary_version=70"
	sh_status 0 "gc-sched '$T/bfs.gcs' | gc-coalesce | gc-l1 | gc-l2 -v >/dev/null"
	expect_eq "$(head -1 "$T/err")" "gc-sched: note: no --gpu: volta-v100, from the trace's binary version 70 (sm_70)"
	expect_eq "$(grep -c 'note' "$T/err")" 1
	expect_match "$(grep '^gc-l2: [^ ]*, [0-9]* slices' "$T/err")" "^gc-l2: volta-v100, 64 slices"
	sh_status 0 "gc-sched -q '$T/bfs.gcs' >/dev/null"
	expect_empty "$(cat "$T/err")" "-q"
	# The same numbers as --gpu volta-v100.
	sh_status 0 "gc-sched -q '$T/bfs.gcs' | gc-coalesce | gc-l1 | gc-l2 --stats '$T/a.json' >/dev/null"
	sh_status 0 "gc-sched --gpu volta-v100 '$T/bfs.gcs' | gc-coalesce | gc-l1 | gc-l2 --stats '$T/b.json' >/dev/null"
	expect_same <(grep -v '"input"' "$T/a.json") <(grep -v '"input"' "$T/b.json") "stats"
	# The map of gc-config(5): 75 is turing-rtx2060 (the Turing trace).
	gc-import -q "$FIX/traces/accelsim-v5-turing-vecadd-raw"/kernelslist* >"$T/tu.gcs"
	sh_status 0 "gc-sched '$T/tu.gcs' >/dev/null"
	expect_eq "$(cat "$T/err")" "gc-sched: note: no --gpu: turing-rtx2060, from the trace's binary version 75 (sm_75)"
}

@test "a trace that names no GPU: fermi-gtx470-16k, with one warning; --gpu that differs warns" {
	gc-import -q "$FIX/nvbit/old.txt" >"$T/csv.gcs"
	sh_status 0 "gc-sched '$T/csv.gcs' | gc-coalesce | gc-l1 >/dev/null"
	expect_eq "$(cat "$T/err")" "gc-sched: no --gpu, and the input names no GPU: fermi-gtx470-16k assumed (--list-gpus)"
	sh_status 0 "gc-sched -q '$T/csv.gcs' >/dev/null"
	expect_empty "$(cat "$T/err")" "-q"
	gc-import -q "$BFS" >"$T/bfs.gcs"
	sh_status 0 "gc-sched --gpu volta-v100 '$T/bfs.gcs' | gc-coalesce | gc-l1 --gpu turing-rtx2060 >/dev/null"
	expect_eq "$(cat "$T/err")" "gc-l1: --gpu turing-rtx2060 differs from the GPU the input was made with (volta-v100)"
	sh_status 0 "gc-sched --gpu volta-v100 '$T/bfs.gcs' | gc-coalesce | gc-l1 -q --gpu turing-rtx2060 >/dev/null"
	expect_empty "$(cat "$T/err")" "-q"
}
