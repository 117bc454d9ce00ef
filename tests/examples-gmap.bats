#!/usr/bin/env bats
# examples/gmap-validate (issue 18, seed 002 §5): its statistics on a table
# worked by hand, the identity check (a proxy that is the original gives
# error 0 and correlation 1 through the whole sweep), and a --quick run of
# the real gc-profile | gc-clone.

load helpers

GV="$GC_ROOT/examples/gmap-validate"

@test "gmap-validate --score: mean and max error in points, Pearson's r, flat and constant series, as worked by hand" {
	cat >"$T/pairs.csv" <<'EOF'
trace,variant,group,config,metric,original,proxy
a,proxy,l1,c1,l1,0.10,0.12
a,proxy,l1,c2,l1,0.20,0.19
a,proxy,l1,c3,l1,0.30,0.33
a,proxy,l1,c4,l1,0.40,0.40
a,proxy,l2,c1,l2,0.5,0.6
a,proxy,l2,c2,l2,0.5,0.4
a,proxy,l2,c3,l2,0.505,0.5
b,proxy,l1,c1,l1,0.1,0.3
b,proxy,l1,c2,l1,0.3,0.1
b,proxy,l2,c1,l2,0.1,0.3
b,proxy,l2,c2,l2,0.5,0.3
b,proxy,l2,c3,l2,0.4,
b,s0.5,l2,c1,l2,0.1,0.1
EOF
	run_status 0 "$GV" --score "$T/pairs.csv"
	# a/l1: |d| = 2, 1, 3, 0 points: mean 1.50, max 3.00.  x - mean(x) =
	# -.15 -.05 .05 .15, y - mean(y) (.26) = -.14 -.07 .07 .14:
	# sum dx dy = .049, sum dx^2 = .05, sum dy^2 = .049, r = .049 /
	# sqrt(.05 * .049) = 0.98995.
	# a/l2: the original spans 0.5 point (< 1): flat; |d| = 10, 10, 0.5:
	# mean 6.83, max 10.00.
	# b/l1: the proxy runs the other way: r = -1; |d| 20 and 20.
	# b/l2: the proxy is constant, the original is not: r = 0; the row
	# with no proxy value is left out (n = 2).
	# b/s0.5: one point, the original's range 0: flat.
	expect_eq "$output" "trace,variant,group,metric,n,mean_pp,max_pp,corr
a,proxy,l1,l1,4,1.50,3.00,0.9899
a,proxy,l2,l2,3,6.83,10.00,flat
b,proxy,l1,l1,2,20.00,20.00,-1.0000
b,proxy,l2,l2,2,20.00,20.00,0.0000
b,s0.5,l2,l2,1,0.00,0.00,flat"
}

@test "gmap-validate --proxy-is-original: error 0 and r 1 in every group, the sweep's sizes, the tables and pictures" {
	cd "$T"
	run_status 0 "$GV" --quick --proxy-is-original -j 2 -w g
	expect_match "$output" "every proxy is the original stream"
	expect_match "$output" "6 L1s, 6 L2s, 3 L1s under GTO and LRR, 4 DRAMs"
	expect_match "$output" "L1 miss rate +L2 miss rate +L1, LRR +L1, GTO +DRAM row hits +busiest chan"
	expect_match "$output" "2 of 2 traces PASS"
	expect_match "$output" "wall time: [0-9]+ s"
	# The quick set: the vectoradd trace and a small stencil.
	expect_eq "$(cut -d, -f1,2,21 g/gmap.csv | tr '\n' ' ')" "trace,variant,verdict vectoradd,proxy,PASS stencil2d,proxy,PASS "
	# Every point of every group, at every scale: original = proxy.
	expect_empty "$(awk -F, 'NR > 1 && $6 != $7' g/pairs.csv)"
	# Per trace: the proxy's 6 L1s, 6 L2s, 3 GTO, 4 DRAMs x 2 metrics, and
	# its rows again as 3 LRR, 3 l1s and 3 l2s; the quarter proxy's 3 l1s
	# and 3 l2s.
	expect_eq "$(($(wc -l <g/pairs.csv) - 1))" $((2 * (6 + 6 + 3 + 8 + 3 + 3 + 3 + 3 + 3)))
	expect_eq "$(sed 1d g/pairs.csv | cut -d, -f2,3 | sort | uniq -c | awk '{ printf "%s %s; ", $2, $1 }')" \
		"proxy,dram 16; proxy,gto 6; proxy,l1 12; proxy,l1s 6; proxy,l2 12; proxy,l2s 6; proxy,lrr 6; s0.25,l1s 6; s0.25,l2s 6; "
	# Errors 0, and r 1 wherever the original varies (the stencil's L1;
	# vectoradd's 300 accesses miss everywhere: flat).
	expect_empty "$(awk -F, 'NR > 1 && ($6 != "0.00" || $7 != "0.00" || ($8 != "1.0000" && $8 != "flat"))' g/summary.csv)"
	expect_eq "$(awk -F, '$1 == "stencil2d" && $2 == "proxy" && $3 == "l1" { print $5, $8 }' g/summary.csv)" "6 1.0000"
	expect_eq "$(awk -F, '$1 == "vectoradd" && $2 == "proxy" && $3 == "l1" { print $8 }' g/summary.csv)" "flat"
	# The vector addition reads each of its 8 lines of A and B once (100
	# floats each): every load request misses, in every L1.
	expect_eq "$(awk -F, '$1 == "vectoradd.orig" && $2 == "l1" { print $5 }' g/metrics.csv | sort | uniq -c | tr -s ' ')" " 6 1.000000"
	# Miniaturization: each scale of each trace, the proxy's size.
	expect_eq "$(cut -d, -f1,2,5 g/mini.csv | tr '\n' ' ')" \
		"trace,scale,size_pct vectoradd,1,100.00 vectoradd,0.25,100.00 stencil2d,1,100.00 stencil2d,0.25,100.00 "
	if command -v gc-plot >/dev/null 2>&1; then
		for f in fig6-errors fig6-l1 fig6-l2 fig8-l1 fig8-l2; do
			grep -q '^<svg ' "g/$f.svg"
		done
		# two traces' bars for three errors each
		expect_eq "$(grep -c 'class="bar"' g/fig6-errors.svg)" 6
		# rendered to PNG, labels inside, ticks at 1-2-5 (tests/svgcheck)
		sh "$GC_ROOT/tests/svgcheck" g/fig6-errors.svg g/fig6-l1.svg g/fig6-l2.svg \
			g/fig8-l1.svg g/fig8-l2.svg
	fi
	# The proxies are not kept; the profiles are (empty here).
	expect_empty "$(ls g/streams)"
}

@test "gmap-validate --quick: gc-profile | gc-clone on a stencil, the table and the miniaturization" {
	cd "$T"
	# One trace (the identity test above runs the quick set's two): the
	# stencil, whose idle border threads give it runs of profiles.
	run_status 0 "$GV" --quick -j 2 -w g "stencil2d:-n 64"
	expect_match "$output" "trace +mean +max +r +mean"
	expect_match "$output" "stencil2d +[0-9.]+ +[0-9.]+ +[-0-9.flat]+ .* (PASS|MISS)"
	expect_match "$output" "of 1 traces PASS"
	# its profile, smaller than the stream
	grep -q '^gc-profile 1$' g/profiles/stencil2d.gcp
	expect_eq "$(awk -F, 'NR > 1 && $4 > 0 && $4 < $2 { n++ } END { print n }' g/sizes.csv)" 1
	# The stencil at a quarter: a quarter of the blocks, about a quarter of
	# the accesses; the full proxy about as many as the original.
	expect_eq "$(awk -F, '$1 == "stencil2d" && $2 == 1 { print ($5 > 95 && $5 < 105) }' g/mini.csv)" 1
	expect_eq "$(awk -F, '$1 == "stencil2d" && $2 == 0.25 { print ($5 > 15 && $5 < 35) }' g/mini.csv)" 1
	# The quarter's errors are in the table and the picture.
	expect_num "$(awk -F, '$1 == "stencil2d" && $2 == 0.25 { print $6 }' g/mini.csv)"
	if command -v gc-plot >/dev/null 2>&1; then
		grep -q '^<svg ' g/fig8-l1.svg
		sh "$GC_ROOT/tests/svgcheck" g/fig6-errors.svg g/fig6-l1.svg g/fig8-l1.svg
	fi
}

@test "gmap-validate: --help, bad arguments are usage errors" {
	run_status 0 "$GV" --help
	expect_match "$output" "Usage: examples/gmap-validate "
	run_status 2 "$GV" --bogus
	expect_match "$output" "unknown option"
	run_status 2 "$GV" -w
	run_status 2 "$GV" --scales 0,1
	expect_match "$output" "--scales: '0' is not a number above 0"
	run_status 2 "$GV" --scales 2
	run_status 2 "$GV" -j x
	run_status 2 "$GV" --score
	run_status 2 "$GV" -w "$T/x" --proxy-is-original no-such-kernel-or-file
	expect_match "$output" "neither a gc-gen kernel nor a readable file"
	run_status 2 "$GV" -w "$T/x" --proxy-is-original "a.b=vecadd"
	expect_match "$output" "trace name 'a.b'"
}
