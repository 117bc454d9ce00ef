#!/usr/bin/env bats
# gc-config(5): GPU presets, configuration files, cache strings, occupancy
# and the carve-out, through tests/src/gpu-test.c.  Expected values are
# worked by hand in the comments.

load helpers

PRESETS="fermi-gtx470-16k fermi-gtx470-48k pascal-gtx1080 volta-titanv volta-v100
	turing-rtx2060 ampere-rtx3070 ampere-a100 hopper-h100"

# get PRESET KEY...: the values, space-separated (the lines joined in
# bash, not by tr and sed)
get() {
	local v
	v=$(gpu-test get "$@")
	echo "${v//$'\n'/ }"
}

# gpu_status STATUS WHAT ARGS...: gpu-test ARGS exits with STATUS, its
# stdout in $T/out and stderr in $err (sh_status without the sh).
gpu_status() {
	local want=$1 what=$2 st=0
	shift 2
	gpu-test "$@" >"$T/out" 2>"$T/err" || st=$?
	slurp err "$T/err"
	if [ "$st" -ne "$want" ]; then
		echo "$what: gpu-test $*: exit status $st, expected $want; stderr: $err" >&2
		return 1
	fi
}

# bad_gpu FILE MESSAGE: FILE in tests/fixtures/gpus-bad is rejected with
# exit 2, nothing on stdout and exactly "gpu-test: PATH:MESSAGE" on stderr,
# through --gpu (gc_gpu_config_load) and through the library's own reader.
bad_gpu() {
	local f="$FIX/gpus-bad/$1" err
	[ -f "$f" ] || { echo "no file $f" >&2; return 1; }
	gpu_status 2 "load $1" load "$f" || return 1
	[ ! -s "$T/out" ] || { echo "load $1: stdout is not empty" >&2; return 1; }
	expect_eq "$err" "gpu-test: $f$2" "load $1" || return 1
	gpu_status 2 "parse $1" parse "$f" || return 1
	expect_eq "$err" "gpu-test: $f$2" "parse $1"
}

# ---- the presets ---------------------------------------------------------

@test "every preset loads, passes its cross-checks and is named after its file" {
	local n=0
	for p in $PRESETS; do
		run_status 0 gpu-test load "$p"
		expect_eq "$output" "$p: ok"
		n=$((n + 1))
	done
	local files=("$GC_ROOT"/share/gpus/*.gpu) f b
	expect_eq "${#files[@]}" "$n" "number of preset files"
	for f in "${files[@]}"; do
		run_status 0 gpu-test parse "$f"
		b=${f##*/}
		expect_eq "$output" "${b%.gpu}: ok"
	done
}

@test "every value in every preset names its source" {
	local f n=0 p np=0
	# One awk over every file: each has a value line to check (a file it
	# cannot read has none), and every line that is neither a comment
	# nor blank names its source.
	for f in "$GC_ROOT"/share/gpus/*.gpu; do n=$((n + 1)); done
	awk 'FNR == 1 { files[++nf] = FILENAME }
		/^[[:space:]]*[a-z]/ { values[FILENAME]++ }
		!/^[[:space:]]*#/ && !/^[[:space:]]*$/ && !/# source: / {
			print "line without \047# source:\047 in " FILENAME ": " $0; bad++ }
		END {
			for (i = 1; i <= nf; i++)
				if (!values[files[i]]) { print "no value line in " files[i]; bad++ }
			exit bad > 0
		}' "$GC_ROOT"/share/gpus/*.gpu >&2
	for p in $PRESETS; do np=$((np + 1)); done
	expect_eq "$n" "$np" "number of presets"
}

@test "the built-in defaults are the fermi-gtx470-16k preset" {
	run_status 0 gpu-test defaults
	local defaults=$output
	run_status 0 gpu-test dump fermi-gtx470-16k
	expect_eq "$output" "$defaults"
}

@test "fermi-gtx470: seed 000's L1s, MSHRs and SM limits" {
	# 32 sets * 4 ways * 128 B = 16384 = 16K; 64 * 6 * 128 = 49152 = 48K
	expect_eq "$(get fermi-gtx470-16k l1.sets l1.ways l1.line l1.size)" "32 4 128 16K"
	expect_eq "$(get fermi-gtx470-48k l1.sets l1.ways l1.line l1.size)" "64 6 128 48K"
	expect_eq "$(get fermi-gtx470-16k l1.index l1.sector sm.shmem)" "fermi 128 48K"
	expect_eq "$(get fermi-gtx470-48k l1.index sm.shmem)" "fermi 16K"
	for p in fermi-gtx470-16k fermi-gtx470-48k; do
		expect_eq "$(get $p sm.count sm.max_threads sm.max_blocks sm.warp_size)" "14 1536 8 32"
		expect_eq "$(get $p l1.mshr_entries l1.mshr_per_warp)" "64 6"
		expect_eq "$(get $p miss.lambda_min miss.sigma coalesce.arch)" "100 5 fermi"
		# 16K + 48K and 48K + 16K are the 64 KB of on-chip memory
		expect_eq "$(get $p sm.unified_size sm.carveout)" "64K fixed"
	done
	# 5 channels * 2 sub-partitions * (64 sets * 8 ways * 128 B = 64K) = 640K
	expect_eq "$(get fermi-gtx470-16k l2.channels l2.sub_partitions l2.slice_size l2.size)" \
		"5 2 64K 640K"
}

@test "L2 totals: channels * sub-partitions * slice" {
	# volta-v100: 32 * 2 * (32 sets * 24 ways * 128 B = 96K) = 6144K = 6M
	expect_eq "$(get volta-v100 l2.sets l2.ways l2.slice_size l2.size)" "32 24 96K 6M"
	# volta-titanv: 24 * 2 * (24 sets * 32 ways * 128 B = 96K) = 4608K (4.5 MB)
	expect_eq "$(get volta-titanv l2.sets l2.ways l2.slice_size l2.size)" "24 32 96K 4608K"
	# pascal-gtx1080: 8 * 2 * (64 * 16 * 128 = 128K) = 2M
	expect_eq "$(get pascal-gtx1080 l2.slice_size l2.size)" "128K 2M"
	# turing-rtx2060: 12 * 2 * 128K = 3M; ampere-rtx3070: 16 * 2 * 128K = 4M
	expect_eq "$(get turing-rtx2060 l2.size)" "3M"
	expect_eq "$(get ampere-rtx3070 l2.size)" "4M"
	# ampere-a100: 40 * 4 * (128 * 16 * 128 = 256K) = 40M
	expect_eq "$(get ampere-a100 l2.slice_size l2.size)" "256K 40M"
	# hopper-h100: 40 * 2 * (256 * 20 * 128 = 640K) = 51200K = 50M
	expect_eq "$(get hopper-h100 l2.slice_size l2.size)" "640K 50M"
}

@test "L1 base geometries and carve-out parameters" {
	# volta-v100: 4 sets * 64 ways * 128 B = 32K in 128K unified
	expect_eq "$(get volta-v100 l1.sets l1.ways l1.size l1.sector sm.unified_size)" \
		"4 64 32K 32 128K"
	expect_eq "$(get volta-v100 sm.shmem_options sm.carveout)" "0,8K,16K,32K,64K,96K adaptive"
	# volta-titanv (seed 003 Table 3): 4 ways, 32 KB at the 96 KB option: 64 sets
	expect_eq "$(get volta-titanv l1.ways l1.sets l1.size l1.carveout_scales)" "4 64 32K sets"
	# ampere-rtx3070: 4 * 256 * 128 = 128K; pascal-gtx1080: 4 * 96 * 128 = 48K
	expect_eq "$(get ampere-rtx3070 l1.size)" "128K"
	expect_eq "$(get pascal-gtx1080 l1.size l1.skip_global sm.carveout)" "48K yes none"
}

# ---- cache strings -------------------------------------------------------

@test "cache string: QV100 L1 in the 4.x grammar" {
	run_status 0 gpu-test cache 'S:4:128:64,L:T:m:L:L,A:512:8,16:0,32'
	expect_eq "$output" "grammar=4.x
sets=4
line=128
ways=64
sector=32
index=linear
replacement=lru
write=write-through
alloc=on-miss
write_alloc=lazy-fetch-on-read
mshr_kind=assoc
mshr_entries=512
mshr_merge=8
miss_queue=16
port=32
size=32K
4.x=S:4:128:64,L:T:m:L:L,A:512:8,16:0,32"
}

@test "cache string: QV100 L1 in the 3.x grammar (no sectors)" {
	run_status 0 gpu-test cache '4:128:64,L:T:m:L:L,A:512:8,16:0,32'
	expect_eq "${lines[0]}" "grammar=3.x"
	expect_eq "${lines[4]}" "sector=128"
	expect_eq "${lines[15]}" "size=32K"
	expect_eq "${lines[16]}" "4.x=N:4:128:64,L:T:m:L:L,A:512:8,16:0,32"
}

@test "cache string: QV100 L2 slice" {
	# 32 sets * 24 ways * 128 B = 96K, write-back, IPOLY
	run_status 0 gpu-test cache 'S:32:128:24,L:B:m:L:P,A:192:4,32:0,32'
	expect_eq "$(echo "$output" | grep -E '^(sets|ways|size|write|index|mshr_entries|mshr_merge|miss_queue)=' | tr '\n' ' ')" \
		"sets=32 ways=24 index=ipoly write=write-back mshr_entries=192 mshr_merge=4 miss_queue=32 size=96K "
}

@test "cache string: Fermi GTX480 L1 in the 3.x grammar" {
	run_status 0 gpu-test cache '32:128:4,L:L:m:N:H,A:32:8,8'
	expect_eq "$output" "grammar=3.x
sets=32
line=128
ways=4
sector=128
index=fermi
replacement=lru
write=local-write-back
alloc=on-miss
write_alloc=no-write-allocate
mshr_kind=assoc
mshr_entries=32
mshr_merge=8
miss_queue=8
port=0
size=16K
4.x=N:32:128:4,L:L:m:N:H,A:32:8,8:0,0"
}

@test "cache string: Fermi GTX480 L1 in the 4.x grammar" {
	run_status 0 gpu-test cache 'N:32:128:4,L:L:m:N:H,S:64:8,8'
	expect_eq "$(echo "$output" | tr '\n' ' ')" "grammar=4.x sets=32 line=128 ways=4 sector=128 index=fermi replacement=lru write=local-write-back alloc=on-miss write_alloc=no-write-allocate mshr_kind=sector-assoc mshr_entries=64 mshr_merge=8 miss_queue=8 port=0 size=16K 4.x=N:32:128:4,L:L:m:N:H,S:64:8,8:0,0 "
}

@test "cache string: the 3.x grammar before the set-index field" {
	# GPGPU-Sim's compiled-in -gpgpu_cache:dl2 default: 64 * 8 * 128 = 64K, linear
	run_status 0 gpu-test cache '64:128:8,L:B:m:N,A:16:4,4'
	expect_eq "$(echo "$output" | grep -E '^(grammar|index|write|size|mshr_entries)=' | tr '\n' ' ')" \
		"grammar=3.x-nosif index=linear write=write-back mshr_entries=16 size=64K "
}

@test "cache string: errors name what is wrong" {
	sh_status 2 "gpu-test cache 'S:4:128:64,L:Q:m:L:L,A:512:8,16:0,32'"
	expect_eq "$(cat "$T/err")" "gpu-test: S:4:128:64,L:Q:m:L:L,A:512:8,16:0,32: write policy 'Q' is not R, B, T, E or L"
	sh_status 2 "gpu-test cache 'X:4:128:64,L:T:m:L:L,A:512:8,16:0,32'"
	expect_eq "$(cat "$T/err")" "gpu-test: X:4:128:64,L:T:m:L:L,A:512:8,16:0,32: cache type 'X' is not N (normal) or S (sector)"
	sh_status 2 "gpu-test cache none"
	expect_eq "$(cat "$T/err")" "gpu-test: none: 'none' (no cache) has no geometry"
}

# ---- occupancy (seed 003 formulas 3-6) -----------------------------------

@test "occupancy: Fermi, 256 threads, 20 registers, no shared memory" {
	# threads 1536/256 = 6; warps 48/8 = 6; blocks 8;
	# registers: 20*32 = 640 per warp (a multiple of 64), 32768/2 = 16384
	# per partition / 640 = 25 warps, * 2 = 50 warps, / 8 = 6; no shared
	# memory: no limit.  min = 6, first reached by threads.
	run_status 0 gpu-test occupancy fermi-gtx470-16k 256 20 0
	expect_eq "$output" "active=6 limiter=threads threads=6 warps=6 blocks=8 registers=6 shmem=unlimited regs_per_warp=640 shmem_per_block=0"
}

@test "occupancy: Fermi, register-limited" {
	# 32 registers: 1024 per warp; 16384/1024 = 16 warps per partition, 32
	# warps, / 8 = 4 blocks < 6
	run_status 0 gpu-test occupancy fermi-gtx470-16k 256 32 0
	expect_eq "$output" "active=4 limiter=registers threads=6 warps=6 blocks=8 registers=4 shmem=unlimited regs_per_warp=1024 shmem_per_block=0"
}

@test "occupancy: Fermi, shared-memory-limited in both splits" {
	# 12 KB per block: 48K/12K = 4 (16k preset), 16K/12K = 1 (48k preset);
	# threads 1536/128 = 12, warps 48/4 = 12, registers 16*32 = 512:
	# 16384/512 = 32 * 2 = 64 warps / 4 = 16
	run_status 0 gpu-test occupancy fermi-gtx470-16k 128 16 12K
	expect_eq "$output" "active=4 limiter=shared memory threads=12 warps=12 blocks=8 registers=16 shmem=4 regs_per_warp=512 shmem_per_block=12K"
	run_status 0 gpu-test occupancy fermi-gtx470-48k 128 16 12K
	expect_eq "${output%% *}" "active=1"
	# 1000 bytes are allocated as 1024 (units of 128): 48K/1024 = 48
	run_status 0 gpu-test occupancy fermi-gtx470-16k 128 16 1000
	expect_match "$output" "shmem=48 regs_per_warp=512 shmem_per_block=1K$"
}

@test "occupancy: Volta, 48 KB of shared memory per block" {
	# threads 2048/256 = 8; warps 64/8 = 8; blocks 32; registers 32*32 =
	# 1024: 65536/4 = 16384 / 1024 = 16 warps * 4 = 64 / 8 = 8; shared
	# memory 96K/48K = 2
	run_status 0 gpu-test occupancy volta-v100 256 32 48K
	expect_eq "$output" "active=2 limiter=shared memory threads=8 warps=8 blocks=32 registers=8 shmem=2 regs_per_warp=1024 shmem_per_block=48K"
}

@test "occupancy: Volta, register-limited by allocation unit and partitions" {
	# 64 threads = 2 warps, 37 registers: 37*32 = 1184, rounded to 1280;
	# 16384/1280 = 12 warps per partition * 4 = 48 warps / 2 = 24 blocks.
	# (Formula 5 without units: 65536/(37*64) = 27; with the unit but one
	# register file: 65536/1280 = 51 warps = 25 blocks.)
	run_status 0 gpu-test occupancy volta-v100 64 37 0
	expect_eq "$output" "active=24 limiter=registers threads=32 warps=32 blocks=32 registers=24 shmem=unlimited regs_per_warp=1280 shmem_per_block=0"
}

@test "occupancy: Turing's 1024 threads and 16 blocks per SM" {
	# 512 threads: 1024/512 = 2; warps 32/16 = 2; 64 threads: 1024/64 = 16,
	# blocks 16
	run_status 0 gpu-test occupancy turing-rtx2060 512 0 0
	expect_eq "${output%% *}" "active=2"
	run_status 0 gpu-test occupancy turing-rtx2060 64 0 0
	expect_match "$output" "^active=16 limiter=threads threads=16 warps=16 blocks=16 "
}

@test "occupancy: blocks that cannot run" {
	# 1024 threads * 128 registers: 4096 per warp * 32 warps = 131072 > 65536
	run_status 0 gpu-test occupancy volta-v100 1024 128 0
	expect_match "$output" "^active=0 limiter=more registers per block than sm.max_regs_per_block "
	# Fermi allows 63 registers per thread
	run_status 0 gpu-test occupancy fermi-gtx470-16k 32 64 0
	expect_match "$output" "^active=0 limiter=more registers per thread than sm.max_regs_per_thread "
	run_status 0 gpu-test occupancy fermi-gtx470-48k 32 8 20K
	expect_match "$output" "^active=0 limiter=more shared memory per block than sm.max_shmem_per_block "
}

# ---- the carve-out (formula 7) -------------------------------------------

@test "carve-out: no shared memory gets the largest L1" {
	# volta-v100: option 0, L1 128K = 4 sets * 256 ways
	run_status 0 gpu-test carveout volta-v100 256 32 0
	expect_eq "$output" "shmem=0 l1=128K sets=4 ways=256 active=8 used=0"
	# hopper-h100: 256K = 4 * 512 ways; ampere-a100: 192K = 4 * 384
	run_status 0 gpu-test carveout hopper-h100 256 32 0
	expect_eq "$output" "shmem=0 l1=256K sets=4 ways=512 active=8 used=0"
	run_status 0 gpu-test carveout ampere-a100 256 32 0
	expect_eq "$output" "shmem=0 l1=192K sets=4 ways=384 active=8 used=0"
	# turing-rtx2060: the smallest option is 32K, so 64K = 4 * 128 ways
	run_status 0 gpu-test carveout turing-rtx2060 256 32 0
	expect_eq "$output" "shmem=32K l1=64K sets=4 ways=128 active=4 used=0"
}

@test "carve-out: the smallest option that keeps the active blocks" {
	# 2 blocks * 48K = 96K: option 96K, L1 32K = 4 * 64 ways
	run_status 0 gpu-test carveout volta-v100 256 32 48K
	expect_eq "$output" "shmem=96K l1=32K sets=4 ways=64 active=2 used=96K"
	# 10K per block: 96K/10K = 9 >= 8 active (threads); 8 * 10K = 80K;
	# 64K holds only 6, so option 96K
	run_status 0 gpu-test carveout volta-v100 256 32 10K
	expect_eq "$output" "shmem=96K l1=32K sets=4 ways=64 active=8 used=80K"
	# 4K per block: 8 * 4K = 32K exactly: option 32K, L1 96K = 4 * 192 ways
	run_status 0 gpu-test carveout volta-v100 256 32 4K
	expect_eq "$output" "shmem=32K l1=96K sets=4 ways=192 active=8 used=32K"
	# ampere-a100, one block of 100K: option 164K, L1 28K = 4 * 56 ways
	run_status 0 gpu-test carveout ampere-a100 256 32 100K
	expect_eq "$output" "shmem=164K l1=28K sets=4 ways=56 active=1 used=100K"
}

@test "carve-out: seed 003's TITAN V keeps 4 ways and changes the sets" {
	# no shared memory: 128K / (4 * 128) = 256 sets
	run_status 0 gpu-test carveout volta-titanv 256 32 0
	expect_eq "$output" "shmem=0 l1=128K sets=256 ways=4 active=8 used=0"
	# 8 blocks * 2K = 16K: option 16K, L1 112K = 224 sets * 4 ways
	run_status 0 gpu-test carveout volta-titanv 256 32 2K
	expect_eq "$output" "shmem=16K l1=112K sets=224 ways=4 active=8 used=16K"
}

@test "carve-out: Fermi's split is fixed" {
	run_status 0 gpu-test carveout fermi-gtx470-16k 256 20 0
	expect_eq "$output" "shmem=48K l1=16K sets=32 ways=4 active=6 used=0"
	run_status 0 gpu-test carveout fermi-gtx470-48k 128 16 12K
	expect_eq "$output" "shmem=16K l1=48K sets=64 ways=6 active=1 used=12K"
}

# ---- bad files -----------------------------------------------------------

@test "bad values are errors with file:line" {
	bad_gpu unknown-key.gpu ":3: unknown key 'l1.way'"
	bad_gpu bad-integer.gpu ":3: bad value 'fourteen' for key 'sm.count' (expected an integer from 1 to 65535)"
	bad_gpu out-of-range.gpu ":3: bad value '128' for key 'sm.warp_size' (expected an integer from 1 to 64)"
	bad_gpu not-power-of-two.gpu ":3: bad value '96' for key 'l1.line' (expected a power of two from 4 to 4096)"
	bad_gpu bad-size.gpu ":3: bad value '48KB' for key 'sm.shmem' (expected a size in bytes from 0 to 1G; K, M, G multiply by 1024)"
	bad_gpu bad-enum.gpu ":3: bad value 'plru' for key 'l1.replacement' (expected one of lru, fifo, random (or L, F))"
	bad_gpu bad-yes-no.gpu ":3: bad value 'true' for key 'l1.skip_global' (expected yes or no)"
	bad_gpu bad-real.gpu ":3: bad value '-5' for key 'miss.sigma' (expected a number from 0 to 1000000)"
	bad_gpu bad-cc.gpu ":3: bad value '7' for key 'cc' (expected MAJOR.MINOR such as 7.0)"
	bad_gpu bad-name.gpu ":3: bad value 'my gpu' for key 'name' (expected a name of letters, digits, '.', '_' and '-', at most 63)"
	bad_gpu bad-options.gpu ":3: bad value '48K,16K' for key 'sm.shmem_options' (expected none, or up to 16 ascending sizes separated by commas: 16K does not follow 48K)"
	bad_gpu bad-mapping.gpu ":3: bad value 'dramid@8;RRRR.BBBB' for key 'l2.mapping' (expected [dramid@BIT;] then 64 bit symbols of D, B, R, C, S, 0: found 8 bit symbols, not 64)"
}

@test "bad cache strings are errors with file:line" {
	bad_gpu bad-cache-line.gpu ":3: bad value 'S:4:96:64,L:T:m:L:L,A:512:8,16:0,32' for key 'l1.cache' (expected a GPGPU-Sim cache string: line '96' is not a power of two from 4 to 4096)"
	bad_gpu bad-cache-short.gpu ":3: bad value 'S:32:128:24,L:B:m:L' for key 'l2.cache' (expected a GPGPU-Sim cache string: too few fields (at least <geometry>,<policies>,<mshr>))"
	bad_gpu custom-index.gpu ":3: bad value 'N:32:128:4,L:L:m:N:C,A:64:8,8' for key 'l1.cache' (expected a GPGPU-Sim cache string: set index C (custom) is not implemented (GPGPU-Sim maps everything to set 0))"
	bad_gpu cache-conflict.gpu ":4: key 'l1.ways' is also set by 'l1.cache' on line 3"
}

@test "syntax errors are errors with file:line" {
	bad_gpu duplicate-key.gpu ":4: 'sm.count' already set on line 3"
	bad_gpu no-equals.gpu ":3: expected 'key = value'"
}

@test "inconsistent files are errors at the line that completes the conflict" {
	bad_gpu l1-size-mismatch.gpu ":4: l1.size 16K is not l1.sets * l1.ways * l1.line = 64 * 4 * 128 = 32K"
	bad_gpu sector-not-dividing.gpu ":3: l1.sector 256 does not divide l1.line 128"
	bad_gpu too-many-sectors.gpu ":4: l2.line 512 holds 16 sectors of 32 bytes; at most 8 are supported"
	bad_gpu l2-size-mismatch.gpu ":3: l2.size 768K is not l2.channels * l2.sub_partitions * l2.slice_size = 5 * 2 * 64K = 640K"
	bad_gpu carveout-sum.gpu ":3: l1.size 16K + sm.shmem 32K is not sm.unified_size 64K"
	bad_gpu option-too-big.gpu ":3: sm.shmem_options: 64K leaves no L1 in sm.unified_size 64K"
	bad_gpu adaptive-largest.gpu ":4: sm.shmem 48K is not the largest of sm.shmem_options (32K)"
	bad_gpu fermi-hash-sets.gpu ":4: l2.index fermi needs 32 or 64 sets of 128-byte lines, not 128 sets of 128 bytes"
	bad_gpu write-back-on-fill.gpu ":3: l2.alloc on-fill cannot be used with l2.write write-back"
	bad_gpu ipoly-partitions.gpu ":5: l2.partition_index ipoly needs 16, 32 or 64 sub-partitions after rounding l2.channels up to a power of two (64 * 2 = 128)"
	bad_gpu banks-mapping.gpu ":3: dram.banks 8 is not 2^4 (the B bits of l2.mapping)"
	bad_gpu mshr-per-warp.gpu ":3: l1.mshr_per_warp 128 is more than l1.mshr_entries 64"
	bad_gpu max-warps.gpu ":3: sm.max_threads 1536 is not sm.max_warps * sm.warp_size = 64 * 32"
}

@test "every file in gpus-bad has a test above" {
	# (this file read once into bash, each first line with read: no
	# grep, head or basename a file)
	local f name first me
	slurp me "$BATS_TEST_FILENAME"
	for f in "$FIX"/gpus-bad/*.gpu; do
		name=${f##*/}
		[[ $me == *"bad_gpu $name "* ]] || {
			echo "no test for $name" >&2
			return 1
		}
		first=
		IFS= read -r first <"$f" || true
		[[ $first == "# Must be rejected: "* ]] || {
			echo "$name does not say why it must be rejected" >&2
			return 1
		}
	done
}

@test "the performance keys: opcode latencies, issue width, NoC and memory latencies" {
	# SM7_QV100 trace.config: int 2,2  sp 2,2  dp 8,4  sfu 20,8
	# tensor 2,2  BRA (spec_op_1) 4,4; -gpgpu_num_sched_per_core 4
	expect_eq "$(get volta-v100 op.int.latency op.int.initiation op.sp.latency op.sp.initiation)" "2 2 2 2"
	expect_eq "$(get volta-v100 op.dp.latency op.dp.initiation op.sfu.latency op.sfu.initiation)" "8 4 20 8"
	expect_eq "$(get volta-v100 op.tensor.latency op.tensor.initiation)" "2 2"
	expect_eq "$(get volta-v100 op.branch.latency op.branch.initiation sm.issue_width)" "4 4 4"
	# 40 B * 1132 MHz * min(80 SMs, 64 sub-partitions) = 2897.92 GB/s;
	# L2 hit 20 + 160 + 5 = 185; a miss adds 100 + 24 * 1132 / 850 = 131.96
	expect_eq "$(get volta-v100 noc.bandwidth mem.llc_latency mem.dram_latency kernel.launch_latency)" \
		"2897.92 185 132 5000"
	# SM6_TITANX trace.config: int 4,1  sp 4,1  dp 20,8  sfu 20,4
	expect_eq "$(get pascal-gtx1080 op.int.latency op.int.initiation op.dp.latency op.dp.initiation)" "4 1 20 8"
	expect_eq "$(get pascal-gtx1080 op.sfu.latency op.sfu.initiation sm.issue_width)" "20 4 4"
	# 40 * 1607 * min(20, 16) = 1028.48; 82 + 120 + 5 = 207;
	# 100 + 32 * 1607 / 2500 = 120.57
	expect_eq "$(get pascal-gtx1080 noc.bandwidth mem.llc_latency mem.dram_latency)" "1028.48 207 121"
	# Turing: DP is a 64-cycle unit; the defaults (Fermi) issue from 2 schedulers
	expect_eq "$(get turing-rtx2060 op.dp.latency op.dp.initiation op.tensor.latency)" "64 64 16"
	expect_eq "$(get fermi-gtx470-16k sm.issue_width noc.bandwidth mem.llc_latency)" "2 243 130"
}

@test "the performance keys: a --gpu file sets them, a bad value names file, line and key" {
	printf 'op.int.latency = 6\nop.branch.initiation = 2\nnoc.bandwidth = 512.5\nmem.dram_latency = 300\n' >"$T/p.gpu"
	expect_eq "$(get "$T/p.gpu" op.int.latency op.int.initiation op.branch.initiation)" "6 1 2"
	expect_eq "$(get "$T/p.gpu" noc.bandwidth mem.llc_latency mem.dram_latency)" "512.5 130 300"
	# on top of a preset, as an option
	run_status 0 gpu-test set volta-v100 sm.issue_width=2 kernel.launch_latency=0
	expect_match "$output" "sm.issue_width = 2"
	expect_match "$output" "kernel.launch_latency = 0"
	printf 'name = p\nop.sfu.latency = 0\n' >"$T/bad.gpu"
	sh_status 2 "gpu-test load '$T/bad.gpu'"
	expect_eq "$(cat "$T/err")" "gpu-test: $T/bad.gpu:2: bad value '0' for key 'op.sfu.latency' (expected an integer from 1 to 100000)"
	printf 'noc.bandwidth = fast\n' >"$T/bad2.gpu"
	sh_status 2 "gpu-test load '$T/bad2.gpu'"
	expect_eq "$(cat "$T/err")" "gpu-test: $T/bad2.gpu:1: bad value 'fast' for key 'noc.bandwidth' (expected a number from 0.001 to 10000000)"
}

@test "the performance keys travel in a stage's header as gpu.* keys" {
	gc-gen table2 --gpu volta-v100 >"$T/a.gcs"
	expect_eq "$(hkey "$T/a.gcs" gpu.op.sfu.latency)" 20
	expect_eq "$(hkey "$T/a.gcs" gpu.sm.issue_width)" 4
	expect_eq "$(hkey "$T/a.gcs" gpu.noc.bandwidth)" 2897.92
	# and a stage downstream reads them back from there
	printf 'op.sfu.latency = 33\n' >"$T/s.gpu"
	gc-gen table2 --gpu "$T/s.gpu" | gc-sched >"$T/b.gcs"
	expect_eq "$(hkey "$T/b.gcs" gpu.op.sfu.latency)" 33
}

# ---- names, files, options -----------------------------------------------

@test "NAME is searched in GC_GPU_PATH; an unknown name is a usage error" {
	mkdir -p "$T/gpus"
	printf 'name = mine\nl1.ways = 8\nsm.unified_size = 80K\n' > "$T/gpus/mine.gpu"
	GC_GPU_PATH="$T/nothing:$T/gpus" run_status 0 gpu-test get mine l1.size sm.unified_size
	expect_eq "$output" "32K
80K"
	# a file without a name is named after itself
	printf 'l1.ways = 8\nsm.unified_size = 80K\n' > "$T/gpus/nameless.gpu"
	GC_GPU_PATH="$T/gpus" run_status 0 gpu-test get nameless name description
	expect_eq "$output" "nameless
nameless over the fermi-gtx470-16k defaults"
	sh_status 2 "gpu-test load no-such-gpu"
	expect_match "$(cat "$T/err")" "^gpu-test: --gpu: no preset or file named 'no-such-gpu'"
}

@test "a small file states only what differs from the defaults" {
	# the 48 KB Fermi split by hand: 64 sets * 6 ways, 16 KB shared memory
	printf 'l1.sets = 64\nl1.ways = 6\nsm.shmem = 16K\nsm.max_shmem_per_block = 16K\n' > "$T/f.gpu"
	expect_eq "$(get "$T/f.gpu" l1.size)" "48K"
	expect_same <(gpu-test dump "$T/f.gpu" | grep -v -e '^name' -e '^description') \
		<(gpu-test dump fermi-gtx470-48k | grep -v -e '^name' -e '^description')
	# and the sets follow a size given alone: 32K / (4 * 128) = 64 ... with
	# the fixed split adjusted
	printf 'l1.size = 32K\nsm.unified_size = 80K\n' > "$T/g.gpu"
	expect_eq "$(get "$T/g.gpu" l1.sets)" "64"
}

@test "options override a preset; the size follows the geometry" {
	# volta-v100 with 128 ways: 4 * 128 * 128 = 64K
	run_status 0 gpu-test set volta-v100 l1.ways=128
	expect_match "$output" "l1.size = 64K"
	# a cache string as an option replaces the geometry
	run_status 0 gpu-test set volta-v100 'l1.cache=S:8:128:32,L:T:m:L:L,A:256:8,16:0,32'
	expect_match "$output" "l1.size = 32K"
	expect_match "$output" "l1.sets = 8"
	sh_status 2 "gpu-test set volta-v100 l1.ways=0"
	expect_eq "$(head -1 "$T/err")" "gpu-test: l1.ways: bad value '0' for key 'l1.ways' (expected an integer from 1 to 65536)"
	# 32 sets * 8 ways * 128 = 32K no longer fits Fermi's fixed 64K split
	sh_status 2 "gpu-test set fermi-gtx470-16k l1.ways=8"
	expect_eq "$(cat "$T/err")" "gpu-test: options: l1.size 32K + sm.shmem 48K is not sm.unified_size 64K"
	[ ! -s "$T/out" ]
}

# ---- the stream header -----------------------------------------------------

@test "header text and stream header: every parameter of every preset round-trips, in the text and through a stream" {
	# one run of gpu-test header a preset: line 1 the text, line 2 the stream
	local p err l
	for p in $PRESETS; do
		gpu_status 0 "$p" header "$p"
		mapfile -t l <"$T/out"
		expect_eq "${l[0]}" "text: 115 keys round trip" "$p"
		expect_eq "${l[1]}" "stream: 115 keys round trip" "$p"
	done
}

# ---- the key table and the manual ------------------------------------------

@test "fibonacci: any set count, with a carve-out that scales sets; no cache-string letter" {
	# volta-titanv's L1 scales its sets with the carve-out: fibonacci takes
	# any count, as linear does; xor (powers of two) does not
	sed 's/^l1\.index = linear /l1.index = fibonacci /' "$GC_ROOT/share/gpus/volta-titanv.gpu" >"$T/f.gpu"
	expect_eq "$(get "$T/f.gpu" l1.index l1.sets l1.carveout_scales)" "fibonacci 64 sets"
	sed 's/^l1\.index = linear /l1.index = xor /' "$GC_ROOT/share/gpus/volta-titanv.gpu" >"$T/x.gpu"
	sh_status 2 "gpu-test load '$T/x.gpu'"
	expect_match "$(cat "$T/err")" "l1.carveout_scales sets needs l1.index linear or fibonacci"
	# the preset's L2: write-validate, warm
	expect_eq "$(get "$T/f.gpu" l2.write_alloc l2.kernel_flush)" "lazy-fetch-on-read no"
	# a cache string's set index is a GPGPU-Sim letter: F is none
	run_status 2 gpu-test cache S:64:128:4,L:T:m:W:F,A:512:8,16:0,32
	expect_match "$output" "set index 'F' is not L, X, H or P"
}

@test "the manual's KEYS section is the key table" {
	local man="$GC_ROOT/share/man/man5/gc-config.5"
	# UPDATE_GOLDEN=1 rewrites the section from the table (review the diff)
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		gpu-test man > "$T/keys"
		awk -v keys="$T/keys" '
			/^\.\\" END KEYS/ { while ((getline l < keys) > 0) print l; skip = 0 }
			!skip { print }
			/^\.\\" BEGIN KEYS/ { skip = 1 }' "$man" > "$T/man"
		cp "$T/man" "$man"
	fi
	expect_same <(sed -n '/^\.\\" BEGIN KEYS/,/^\.\\" END KEYS/p' "$man" | sed '1d;$d') <(gpu-test man)
	run_status 0 gpu-test keys
	expect_eq "${#lines[@]}" 117 "number of keys"
}

@test "the manual formats without warnings and names every preset" {
	local man="$GC_ROOT/share/man/man5/gc-config.5"
	if command -v groff >/dev/null; then
		run_status 0 groff -man -ww -z "$man"
		expect_empty "$output" "groff's warnings"
	fi
	# (the manual read once; each preset's ".B NAME" line, its hyphens
	# written \-, looked for in bash)
	local m
	slurp m "$man"
	m=$'\n'$m$'\n'
	for p in $PRESETS; do
		[[ $m == *$'\n'".B ${p//-/\\-}"$'\n'* ]] || {
			echo "$p is not described in $man" >&2
			return 1
		}
	done
}

@test "library self-test" {
	run_status 0 gpu-test selftest
	expect_eq "$output" "1..5
ok 1 keys
ok 2 values
ok 3 cache
ok 4 layers
ok 5 occupancy"
}
