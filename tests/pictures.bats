#!/usr/bin/env bats
# The pictures: tests/svgcheck itself (it must catch what issue 19 found:
# a clipped label, labels on each other, ticks at max/4, a cut-off line
# through its label, a broken SVG), the committed pictures of the README,
# and the demo's first result and picture.  The pictures of the examples
# are checked where their quick runs make them (tests/examples-*.bats).

load helpers

# svg FILE: a 200 x 100 picture as report/svg.h writes it, the body from
# stdin.
svg() {
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n'
		printf '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="200" height="100" viewBox="0 0 200 100">\n'
		cat
		printf '</svg>\n'
	} >"$1"
}

@test "svgcheck: a good picture passes; each fault of issue 19 is named" {
	svg "$T/good.svg" <<'E'
<text x="40.00" y="20.00" text-anchor="end" font-size="11.0" class="ytick">0.1</text>
<text x="40.00" y="40.00" text-anchor="end" font-size="11.0" class="ytick">0.05</text>
<text x="40.00" y="60.00" text-anchor="end" font-size="11.0" class="ytick">0</text>
<text x="50.00" y="90.00" text-anchor="middle" font-size="11.0" class="xtick">1</text>
<text x="100.00" y="90.00" text-anchor="middle" font-size="11.0" class="xtick">2</text>
<text x="150.00" y="90.00" text-anchor="middle" font-size="11.0" class="xtick">5</text>
<text x="12.00" y="50.00" text-anchor="middle" font-size="12.0" transform="rotate(-90.0 12.00 50.00)" class="ylabel">a rate</text>
E
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/good.svg"
	expect_empty "$output"
	# a label past the right edge: 30 characters at 11 px from x 150
	svg "$T/clip.svg" <<'E'
<text x="150.00" y="20.00" text-anchor="start" font-size="11.0" class="cutoff-label">cache of 128 lines: hits left,</text>
E
	run_status 1 sh "$GC_ROOT/tests/svgcheck" "$T/clip.svg"
	expect_match "$output" 'clip.svg: label "cache of 128 lines: hits left," \(class cutoff-label\) spans x 150.0..354.6, y 11.8..22.4: outside the viewBox 0 0 200 100$'
	# two labels on each other
	svg "$T/over.svg" <<'E'
<text x="50.00" y="20.00" text-anchor="start" font-size="11.0" class="legend">abcdef</text>
<text x="70.00" y="24.00" text-anchor="start" font-size="11.0" class="legend">ghi</text>
E
	run_status 1 sh "$GC_ROOT/tests/svgcheck" "$T/over.svg"
	expect_eq "$output" "svgcheck: $T/over.svg: labels \"abcdef\" and \"ghi\" overlap"
	# ticks at max/4 (gc-rd before issue 19)
	svg "$T/ticks.svg" <<'E'
<text x="60.00" y="80.00" text-anchor="end" font-size="11.0" class="tick-label">0</text>
<text x="60.00" y="60.00" text-anchor="end" font-size="11.0" class="tick-label">0.0465</text>
<text x="60.00" y="40.00" text-anchor="end" font-size="11.0" class="tick-label">0.093</text>
<text x="60.00" y="20.00" text-anchor="end" font-size="11.0" class="tick-label">0.1395</text>
E
	run_status 1 sh "$GC_ROOT/tests/svgcheck" "$T/ticks.svg"
	expect_eq "$output" "svgcheck: $T/ticks.svg: ticks not at 1-2-5 steps: 0 0.0465 0.093 0.1395"
	# quarter steps are not 1-2-5 either; powers of two and 1Ki are
	sed 's/0.0465/0.25/; s/0.093/0.5/; s/0.1395/0.75/' "$T/ticks.svg" >"$T/q.svg"
	run_status 1 sh "$GC_ROOT/tests/svgcheck" "$T/q.svg"
	sed 's/>0</>256</; s/0.0465/512/; s/0.093/1Ki/; s/0.1395/2Ki/' "$T/ticks.svg" >"$T/p2.svg"
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/p2.svg"
	# the cut-off line through its label (anchored at its end, right of it)
	svg "$T/cut.svg" <<'E'
<line x1="120.00" y1="10.00" x2="120.00" y2="90.00" stroke="black" stroke-width="1.50" stroke-dasharray="6,4" class="cutoff"/>
<text x="124.00" y="30.00" text-anchor="end" font-size="11.0" class="cutoff-label">128 lines</text>
E
	run_status 1 sh "$GC_ROOT/tests/svgcheck" "$T/cut.svg"
	expect_eq "$output" "svgcheck: $T/cut.svg: the cut-off line crosses the label \"128 lines\""
	# not SVG at all, or cut short: rsvg-convert refuses it
	head -n 3 "$T/good.svg" >"$T/cut-short.svg"
	run_status 1 sh "$GC_ROOT/tests/svgcheck" --render-only "$T/cut-short.svg"
	expect_match "$output" "cut-short.svg: rsvg-convert failed"
	run_status 0 sh "$GC_ROOT/tests/svgcheck" --render-only "$T/clip.svg"
	run_status 2 sh "$GC_ROOT/tests/svgcheck"
}

@test "pictures: every committed picture renders and passes the geometry checks" {
	n=0
	for f in "$GC_ROOT"/examples/pictures/*.svg; do
		run_status 0 sh "$GC_ROOT/tests/svgcheck" "$f"
		n=$((n + 1))
	done
	[ "$n" -ge 1 ]
}

@test "pictures: the README's picture is what its command draws today" {
	cd "$GC_ROOT"
	# the command under the picture in the README, as written there
	cmd=$(awk '/^!\[BFS reuse-distance/ { on = 1; next } on && /^    / { print substr($0, 5) }
		on && /^## / { exit }' README | tr '\n' ' ')
	expect_match "$cmd" "^gc-import .* \| +gc-sched .*\| gc-coalesce \| gc-rd .*--plot bfs-reuse-distance.svg"
	(cd "$T" && ln -s "$GC_ROOT/tests" tests && sh -c "$cmd" >/dev/null)
	cmp "$T/bfs-reuse-distance.svg" examples/pictures/bfs-reuse-distance.svg
}

@test "demo: the first result comes first, without the header's gpu keys; its picture passes" {
	run_status 0 sh "$GC_ROOT/examples/demo"
	# the banner (2 lines and a blank), the command, then gc-stats' report
	expect_match "${lines[2]}" '^\$ gc-gen matmul -n 64 \| tee matmul.gcs \| .* \| gc-stats$'
	expect_eq "${lines[3]}" "input             stdin"
	expect_match "${lines[8]}" "^header            [0-9]+ keys \(gc-stats -v lists them\)$"
	expect_eq "${lines[10]}" "kernels           1"
	expect_eq "$(grep -c 'gpu\.' <<<"$output")" 0
	# its gc-rd picture, drawn again here (the demo works in a temporary folder)
	gc-gen matmul -n 64 | gc-sched --gpu volta-v100 | gc-coalesce | gc-rd --plot "$T/rd.svg" >/dev/null
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/rd.svg"
}
