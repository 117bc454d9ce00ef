#!/usr/bin/env bats
# examples/seed004-fig12 --small: the BFS trace through the caches once
# (volta-v100), then gc-perf over SMs 4 8 80 120 x DRAM bandwidth 0.5 1 2
# times the preset's, and MSHRs 16 128 512 x NoC bandwidth 0.5 1 2 times.
# The BFS kernels have 8 blocks each, so gc-perf occupies min(SMs, 8) SMs:
# 8, 80 and 120 SMs are the same point of the model, 4 SMs a slower one.

load helpers

# cyc TABLE X FACTOR: the cycles of a point of $T/s/fig12.csv (X the SMs
# of sm-dram, the MSHRs of mshr-noc; FACTOR the bandwidth's).
cyc() {
	awk -F, -v t="$1" -v x="$2" -v f="$3" '$1 == "bfs" && $2 == t &&
		(t == "sm-dram" ? $3 == x && $5 == f : $6 == x && $8 == f) { print $9; n++ }
		END { exit n != 1 }' "$T/s/fig12.csv"
}

# rising TABLE: the points of TABLE whose cycles rise with more bandwidth
# at the same SMs (MSHRs), as "X: F1 C1 < F2 C2"; none expected.
rising() {
	awk -F, -v t="$1" '$1 == "bfs" && $2 == t {
		x = t == "sm-dram" ? $3 : $6; f = t == "sm-dram" ? $5 : $8
		n++; X[n] = x; F[n] = f; C[n] = $9
	}
	END {
		for (i = 1; i <= n; i++)
			for (j = 1; j <= n; j++)
				if (X[i] == X[j] && F[i] < F[j] && C[i] < C[j])
					print X[i] ": " F[i] " " C[i] " < " F[j] " " C[j]
	}' "$T/s/fig12.csv"
}

@test "seed004-fig12 --small: the grids, 1 at the preset, gc-perf's own cycles, never slower with more bandwidth, the heat-maps" {
	cd "$T"
	run_status 0 "$GC_ROOT/examples/seed004-fig12" --small -j 2 -w s
	csv=s/fig12.csv
	expect_eq "$(head -1 $csv)" \
		"trace,table,sms,dram_bandwidth,dram_factor,mshrs,noc_bandwidth,noc_factor,cycles,cycles_norm,perf_norm,md_intervals,intervals"
	# rows x columns as configured, each point once, nothing else
	expect_eq "$(awk -F, 'NR > 1 { print $1, $2 }' $csv | sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ' ')" \
		"9 bfs mshr-noc 12 bfs sm-dram "
	expect_eq "$(awk -F, '$2 == "sm-dram" { print $3 }' $csv | sort -un | tr '\n' ' ')" "4 8 80 120 "
	expect_eq "$(awk -F, '$2 == "sm-dram" { print $5 }' $csv | sort -un | tr '\n' ' ')" "0.5 1 2 "
	expect_eq "$(awk -F, '$2 == "sm-dram" { print $3, $5 }' $csv | sort -u | wc -l)" 12
	expect_eq "$(awk -F, '$2 == "mshr-noc" { print $6 }' $csv | sort -un | tr '\n' ' ')" "16 128 512 "
	expect_eq "$(awk -F, '$2 == "mshr-noc" { print $8 }' $csv | sort -un | tr '\n' ' ')" "0.5 1 2 "
	expect_eq "$(awk -F, '$2 == "mshr-noc" { print $6, $8 }' $csv | sort -u | wc -l)" 9
	# the parameters gc-perf echoed: the preset's times the factor, the
	# other table's axes at the preset (80 SMs, 870.4 GB/s; 512 MSHRs,
	# 2897.92 GB/s)
	expect_empty "$(awk -F, '$2 == "sm-dram" && ($4 != $5 * 870.4 || $6 != 512 || $7 != 2897.92 || $8 != 1)' $csv)"
	expect_empty "$(awk -F, '$2 == "mshr-noc" && ($7 != $8 * 2897.92 || $3 != 80 || $4 != 870.4 || $5 != 1)' $csv)"
	# exactly 1 at each table's preset point, and that point is one run
	# of gc-perf: the same cycles in both tables
	expect_eq "$(awk -F, '$2 == "sm-dram" && $3 == 80 && $5 == 1 { print $10, $11 }' $csv)" "1.0000 1.0000"
	expect_eq "$(awk -F, '$2 == "mshr-noc" && $6 == 512 && $8 == 1 { print $10, $11 }' $csv)" "1.0000 1.0000"
	expect_eq "$(cyc sm-dram 80 1)" "$(cyc mshr-noc 512 1)"
	# normalized: cycles over the preset's, performance its inverse
	base=$(cyc sm-dram 80 1)
	expect_empty "$(awk -F, -v b="$base" 'NR > 1 && (sprintf("%.4f", $9 / b) != $10 || sprintf("%.4f", b / $9) != $11)' $csv)"
	# the cycles are gc-perf's own on the chain run here apart from the
	# sweep: the preset, and 4 SMs at half the DRAM bandwidth
	gc-import --intervals "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" |
		gc-sched --gpu volta-v100 | gc-coalesce | gc-l1 | gc-l2 --emit all >l2.gcs
	gc-perf --stats p.json l2.gcs >/dev/null
	expect_eq "$(gc-stats --merge p.json | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "total.cycles") k = i } NR == 2 { print $k }')" "$base"
	gc-perf --sms 4 --dram-bandwidth 435.2 --stats q.json l2.gcs >/dev/null
	expect_eq "$(gc-stats --merge q.json | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "total.cycles") k = i } NR == 2 { print $k }')" "$(cyc sm-dram 4 0.5)"
	# never more cycles with more DRAM bandwidth at the same SMs, nor with
	# more NoC bandwidth at the same MSHRs; fewer from 0.5x to 2x at the
	# preset (BFS does wait on DRAM and the NoC a little)
	expect_empty "$(rising sm-dram)" "DRAM bandwidth rising"
	expect_empty "$(rising mshr-noc)" "NoC bandwidth rising"
	awk -v a="$(cyc sm-dram 80 0.5)" -v b="$(cyc sm-dram 80 2)" 'BEGIN { exit !(a > b) }'
	awk -v a="$(cyc mshr-noc 512 0.5)" -v b="$(cyc mshr-noc 512 2)" 'BEGIN { exit !(a > b) }'
	# 8 blocks a kernel: 8, 80 and 120 SMs are one point; 4 SMs are slower
	for f in 0.5 1 2; do
		expect_eq "$(cyc sm-dram 120 $f)" "$(cyc sm-dram 8 $f)"
		expect_eq "$(cyc sm-dram 80 $f)" "$(cyc sm-dram 8 $f)"
		awk -v a="$(cyc sm-dram 4 $f)" -v b="$(cyc sm-dram 8 $f)" 'BEGIN { exit !(a > b) }'
	done
	# 16 MSHRs batch BFS's misses: slower than 128 at every NoC bandwidth
	for f in 0.5 1 2; do
		awk -v a="$(cyc mshr-noc 16 $f)" -v b="$(cyc mshr-noc 128 $f)" 'BEGIN { exit !(a > b) }'
	done
	# MD intervals (eq. 2: read misses x W > MSHRs): none at the preset's
	# 512 MSHRs, some at 16, never more with more MSHRs; the intervals
	# themselves are the representative warps', the same at every point
	expect_eq "$(awk -F, 'NR > 1 { print $13 }' $csv | sort -u | wc -l)" 1
	expect_num "$(awk -F, 'NR == 2 { print $13 }' $csv)"
	expect_empty "$(awk -F, '$2 == "sm-dram" && $12 != 0' $csv)"
	for f in 0.5 1 2; do
		md=$(awk -F, -v f=$f '$2 == "mshr-noc" && $8 == f { printf "%s ", $12 }' $csv)
		expect_match "$md" "^[1-9][0-9]* [0-9]+ 0 $"
		awk -v a="${md%% *}" -v b="$(echo "$md" | cut -d' ' -f2)" 'BEGIN { exit !(a >= b) }'
	done
	expect_match "$output" "^bfs, sm-dram"
	expect_match "$output" "1\.000\*"
	# a well-formed heat-map per table, a cell per point, the table's values
	expect_eq "$(ls s/*.svg | tr '\n' ' ')" "s/fig12-bfs-mshr-noc.svg s/fig12-bfs-sm-dram.svg "
	for f in s/fig12-bfs-sm-dram.svg s/fig12-bfs-mshr-noc.svg; do
		grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$f"
		expect_eq "$(tail -1 "$f")" "</svg>"
		if command -v xmllint >/dev/null; then xmllint --noout "$f"; fi
	done
	sh "$GC_ROOT/tests/svgcheck" s/fig12-bfs-sm-dram.svg s/fig12-bfs-mshr-noc.svg
	expect_eq "$(grep -c 'class="cell"' s/fig12-bfs-sm-dram.svg)" 12
	expect_eq "$(grep -c 'class="cell"' s/fig12-bfs-mshr-noc.svg)" 9
	grep -q '<title>sms=80 dram_factor=1 perf_norm=1</title>' s/fig12-bfs-sm-dram.svg
	grep -q '<title>mshrs=512 noc_factor=1 perf_norm=1</title>' s/fig12-bfs-mshr-noc.svg
	v=$(awk -F, '$2 == "sm-dram" && $3 == 4 && $5 == 0.5 { printf "%g", $11 }' s/fig12.csv)
	expect_num "$v"
	grep -q "<title>sms=4 dram_factor=0.5 perf_norm=$v</title>" s/fig12-bfs-sm-dram.svg
}

@test "seed004-fig12: --help, and bad arguments are usage errors" {
	run_status 0 "$GC_ROOT/examples/seed004-fig12" -h
	expect_match "${lines[0]}" "seed004-fig12 - a design-space study like seed 004 Figs. 11-12"
	run_status 2 "$GC_ROOT/examples/seed004-fig12" --bogus
	expect_match "$output" "unknown argument '--bogus'"
	run_status 2 "$GC_ROOT/examples/seed004-fig12" -w
	run_status 2 "$GC_ROOT/examples/seed004-fig12" --model mdm2
	expect_match "$output" "--model: 'mdm2' is not one of"
}
