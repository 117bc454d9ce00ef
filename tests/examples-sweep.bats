#!/usr/bin/env bats
# examples/sweep: a trace list x a configuration list -> one CSV, through
# GNU parallel (the local path), a Slurm array (run here by hand, one task
# after another) and --collect.

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	SWEEP="$GC_ROOT/examples/sweep"
	gc-gen -n 1000 vecadd >"$T/v.gcs"
	gc-gen -n 32 matmul | gzip -c >"$T/m.gcs.gz"
	printf '# name path\nvec %s\nmm %s\n' "$T/v.gcs" "$T/m.gcs.gz" >"$T/traces"
	printf 'plain gc-stats\nl64   gc-stats --line 64 --sector 64\n' >"$T/configs"
}

@test "sweep: one row per trace x configuration, in list order, values from each stage's --stats" {
	cd "$T"
	run_status 0 "$SWEEP" --front '' -j 2 traces configs
	expect_eq "$(cut -d, -f1,2 sweep.out/results.csv | tr '\n' ' ')" \
		"trace,config vec,plain vec,l64 mm,plain mm,l64 "
	# gc-stats.loads: vecadd 1000 elements -> 2000 loads; matmul 32^3 * 2
	col=$(head -1 sweep.out/results.csv | tr , '\n' | grep -nx gc-stats.loads | cut -d: -f1)
	expect_eq "$(cut -d, -f"$col" sweep.out/results.csv | tr '\n' ' ')" "gc-stats.loads 2000 2000 65536 65536 "
	# distinct lines at 128 and at 64 bytes: vecadd's three arrays of 4000
	# bytes, 256-aligned, are 32 lines of 128 bytes each, or 63 of 64
	col=$(head -1 sweep.out/results.csv | tr , '\n' | grep -nx gc-stats.distinct_lines | cut -d: -f1)
	[ -n "$col" ]
	expect_eq "$(sed -n '2p;3p' sweep.out/results.csv | cut -d, -f"$col" | tr '\n' ' ')" "96 189 "
	[ ! -d sweep.out/front ]
}

@test "sweep: the Slurm array's tasks and --collect give the same table" {
	cd "$T"
	"$SWEEP" --front '' -w a traces configs
	run_status 0 "$SWEEP" --front '' --slurm -w b traces configs
	grep -q '^#SBATCH --array=1-4$' b/sweep.sbatch
	for i in 1 2 3 4; do
		SLURM_ARRAY_TASK_ID=$i sh b/sweep.sbatch
	done
	run_status 0 "$SWEEP" --collect -w b traces configs
	cmp a/results.csv b/results.csv
}

@test "sweep: bad lists and a failing job are errors" {
	cd "$T"
	printf 'vec %s\nvec %s\n' v.gcs v.gcs >twice
	run_status 1 "$SWEEP" --front '' twice configs
	expect_match "$output" "name 'vec' is repeated"
	printf 'vec nosuch.gcs\n' >missing
	run_status 1 "$SWEEP" --front '' missing configs
	expect_match "$output" "cannot read 'nosuch.gcs'"
	printf 'bad gc-stats --line 3\n' >badcfg
	run_status 1 "$SWEEP" --front '' traces badcfg
	expect_match "$output" "a job failed"
	run_status 2 "$SWEEP" traces
	run_status 2 "$SWEEP" --bogus traces configs
}

@test "sweep: a gc-l1 or gc-l2 --ways-sweep configuration gives a row per associativity, as --ways runs do" {
	cd "$T"
	printf 'ws gc-coalesce | gc-l1 --write-alloc write-allocate --ways-sweep 1,2,4\nw2 gc-coalesce | gc-l1 --write-alloc write-allocate --ways 2\n' >wcfg
	# the Fermi L2's 10 slices of 2 sets (write-back, write-allocate)
	printf 'ls gc-coalesce | gc-l1 | gc-l2 --sets 2 --ways-sweep 1,2\nl1 gc-coalesce | gc-l1 | gc-l2 --sets 2 --ways 1\n' >>wcfg
	printf 'mm %s\n' "$T/m.gcs.gz" >mm
	run_status 0 "$SWEEP" --front '' -j 2 mm wcfg
	expect_eq "$(cut -d, -f2 sweep.out/results.csv | tr '\n' ' ')" "config ws-w1 ws-w2 ws-w4 w2 ls-w1 ls-w2 l1 "
	# the sweep's 2-way row has the values of the --ways 2 run
	for k in gc-l1.config.ways gc-l1.config.size gc-l1.hits gc-l1.misses gc-l1.sectors.hits gc-coalesce.requests; do
		col=$(head -1 sweep.out/results.csv | tr , '\n' | grep -nx "$k" | cut -d: -f1)
		expect_eq "$(sed -n 3p sweep.out/results.csv | cut -d, -f"$col")" \
			"$(sed -n 5p sweep.out/results.csv | cut -d, -f"$col")" "$k"
	done
	# matmul -n 32 on the Fermi L1, 1, 2 and 4 ways (separate runs give
	# the same: 346, 221, 96; at 4 ways the second half-line store of a C
	# row finds the line a first one left partly written, a write hit)
	col=$(head -1 sweep.out/results.csv | tr , '\n' | grep -nx gc-l1.misses | cut -d: -f1)
	expect_eq "$(sed -n '2,4p' sweep.out/results.csv | cut -d, -f"$col" | tr '\n' ' ')" "346 221 96 "
	# the gc-l2 sweep's 1-way row has the values of the --ways 1 run:
	# gc-l2's from its table, gc-l1's from its --stats; 2 ways hit more
	for k in gc-l2.config.ways gc-l2.config.size gc-l2.hits gc-l2.line_misses gc-l2.sectors.hits \
		gc-l2.write_hits gc-l2.dram_reads gc-l1.misses; do
		col=$(head -1 sweep.out/results.csv | tr , '\n' | grep -nx "$k" | cut -d: -f1)
		[ -n "$col" ]
		expect_eq "$(sed -n 6p sweep.out/results.csv | cut -d, -f"$col")" \
			"$(sed -n 8p sweep.out/results.csv | cut -d, -f"$col")" "$k"
	done
	col=$(head -1 sweep.out/results.csv | tr , '\n' | grep -nx gc-l2.hits | cut -d: -f1)
	expect_eq "$(sed -n '6,7p' sweep.out/results.csv | cut -d, -f"$col" | tr '\n' ' ')" "8 32 "
}
