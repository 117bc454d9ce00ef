#!/usr/bin/env bats
# gc-plot: CSV tables to SVG pictures.

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	cat >"$T/t.csv" <<'C'
kernel,param,factor,miss_rate,note
bfs,ways,0.25,0.61,"a ""quoted"", note"
bfs,ways,0.5,0.55,
bfs,ways,1,0.5,
bfs,ways,2,0.48,
bfs,size,2,0.3,
bfs,size,0.25,0.8,
bfs,size,0.5,0.7,
bfs,size,1,0.5,
mm,size,1,0.9,
C
}

@test "gc-plot: --help prints the usage on stdout and exits 0" {
	run_status 0 gc-plot --help
	expect_match "${lines[0]}" "^Usage: gc-plot"
}

@test "gc-plot: --version names the tool" {
	run_status 0 gc-plot --version
	expect_match "${lines[0]}" "^gc-plot"
}

@test "gc-plot: usage errors exit 2 and name the option" {
	run_status 2 gc-plot --bogus "$T/t.csv"
	run_status 2 gc-plot --y miss_rate "$T/t.csv"
	expect_match "$output" "--x COLUMN is required"
	run_status 2 gc-plot --x factor --y nope "$T/t.csv"
	expect_match "$output" "--y: no column 'nope' in "
	run_status 2 gc-plot --kind pie --x factor --y miss_rate "$T/t.csv"
	run_status 2 gc-plot --kind heat --x factor --y param "$T/t.csv"
	run_status 2 gc-plot --x factor --y miss_rate --size 10x10 "$T/t.csv"
	run_status 2 gc-plot --x factor --y miss_rate --where nothing "$T/t.csv"
	run_status 2 gc-plot --x param --y miss_rate --logx "$T/t.csv"
}

@test "gc-plot: a line per --by value, points sorted by x, a legend" {
	run_status 0 gc-plot --x factor --y miss_rate --by param --where kernel=bfs "$T/t.csv"
	expect_eq "$(grep -c 'class="series"' <<<"$output")" 2
	expect_eq "$(grep -c 'class="point"' <<<"$output")" 8
	expect_eq "$(grep -c 'class="legend"' <<<"$output")" 4
	# The size series, sorted by x, starts at (0.25, 0.8).  The x axis runs
	# over ticks 0.2..2.0 (step 0.2) from 72 px to 720-20-(28+0.62*11*4)-10
	# = 634.72 px (the legend: a line, a gap, the 4-letter name at 11 px):
	# 72 + 0.05/1.8*562.72 = 87.63; the y axis 0.3..0.8 (step 0.1) from
	# 384 px up to 16 px: 0.8 is the top.
	pts=$(grep 'class="series"' <<<"$output" | sed -n 2p | sed 's/.*points="\([^"]*\)".*/\1/')
	expect_eq "${pts%% *}" "87.63,16.00"
}

@test "gc-plot: x values that are not numbers are categories in table order" {
	run_status 0 gc-plot --x kernel --y miss_rate "$T/t.csv"
	expect_eq "$(grep -o 'class="xtick cat">[^<]*' <<<"$output" | tr '\n' ' ')" \
		'class="xtick cat">bfs class="xtick cat">mm '
}

@test "gc-plot: grouped bars, one per series and category, with tooltips" {
	run_status 0 gc-plot --kind bar --x factor --y miss_rate --by param --where kernel=bfs "$T/t.csv"
	expect_eq "$(grep -c 'class="bar"' <<<"$output")" 8
	grep -q '<title>size, 0.25: 0.8</title>' <<<"$output"
}

@test "gc-plot: a heat-map has a cell per (x, y) and its values" {
	run_status 0 gc-plot --kind heat --x factor --y param --z miss_rate --where kernel=bfs "$T/t.csv"
	expect_eq "$(grep -c 'class="cell"' <<<"$output")" 8
	grep -q '<title>factor=2 param=size miss_rate=0.3</title>' <<<"$output"
	run_status 1 gc-plot --kind heat --x factor --y param --z miss_rate "$T/t.csv"
	expect_match "$output" "t.csv:10: a second miss_rate for factor=1, param=size"
}

@test "gc-plot: the SVG is well-formed XML and the same bytes every time" {
	gc-plot --x factor --y miss_rate --by param --title 'a <b> & "c"' "$T/t.csv" >"$T/a.svg"
	gc-plot --x factor --y miss_rate --by param --title 'a <b> & "c"' "$T/t.csv" >"$T/b.svg"
	cmp "$T/a.svg" "$T/b.svg"
	grep -q '<title>a &lt;b&gt; &amp; &quot;c&quot;</title>' "$T/a.svg"
	if command -v xmllint >/dev/null; then xmllint --noout "$T/a.svg"; fi
	expect_eq "$(tail -1 "$T/a.svg")" "</svg>"
}

@test "gc-plot: stdin, a file and - give the same picture; gzip too" {
	gc-plot --x factor --y miss_rate "$T/t.csv" >"$T/f.svg"
	gc-plot --x factor --y miss_rate <"$T/t.csv" >"$T/s.svg"
	gc-plot --x factor --y miss_rate - <"$T/t.csv" >"$T/d.svg"
	gzip -c "$T/t.csv" >"$T/t.csv.gz"
	gc-plot --x factor --y miss_rate "$T/t.csv.gz" >"$T/z.svg"
	cmp "$T/f.svg" "$T/s.svg"
	cmp "$T/f.svg" "$T/d.svg"
	cmp "$T/f.svg" "$T/z.svg"
}

@test "gc-plot: bad data names file, line and column; nothing on stdout" {
	printf 'a,b\n1,2\n3,x\n' >"$T/bad.csv"
	sh_status 1 "gc-plot --x a --y b '$T/bad.csv'"
	expect_empty "$(cat "$T/out")" stdout
	expect_match "$(cat "$T/err")" "bad.csv:3: column b: 'x' is not a number"
	printf 'a,b\n1,2,3\n' >"$T/bad2.csv"
	sh_status 1 "gc-plot --x a --y b '$T/bad2.csv'"
	expect_match "$(cat "$T/err")" "bad2.csv:2: more fields than the header row"
	printf 'a,b\n1,"2\n' >"$T/bad3.csv"
	sh_status 1 "gc-plot --x a --y b '$T/bad3.csv'"
	expect_match "$(cat "$T/err")" "unterminated quoted field"
	: >"$T/empty.csv"
	sh_status 1 "gc-plot --x a --y b '$T/empty.csv'"
	sh_status 1 "gc-plot --x factor --y miss_rate --where kernel=none '$T/t.csv'"
	expect_match "$(cat "$T/err")" "none matches --where"
}

@test "gc-plot: a full disk is an error" {
	run_status 1 sh -c "gc-plot --x factor --y miss_rate '$T/t.csv' >/dev/full"
}

@test "gc-plot: draws a gc-rd miss-ratio curve from its CSV" {
	gc-gen -n 4096 gather >"$T/g.gcs"
	gc-rd --mrc "$T/g.gcs" >"$T/mrc.csv"
	x=$(head -1 "$T/mrc.csv" | cut -d, -f1)
	y=$(head -1 "$T/mrc.csv" | cut -d, -f2)
	run_status 0 gc-plot --x "$x" --y "$y" --logx "$T/mrc.csv"
	expect_eq "$(grep -c 'class="series"' <<<"$output")" 1
}

@test "gc-plot: --stats: the table read, the rows kept and the series drawn" {
	printf 'x,y,s\n1,2,a\n2,4,b\n3,5,a\n' >"$T/t.csv"
	gc-plot --x x --y y --by s --stats "$T/a.json" "$T/t.csv" >"$T/a.svg"
	gc-plot --x x --y y --by s --where s=a --stats "$T/b.json" "$T/t.csv" >"$T/b.svg"
	gc-plot --x x --y y --stats "$T/c.json" -o "$T/c.svg" "$T/t.csv" >"$T/out"
	expect_empty "$(cat "$T/out")"
	gc-stats --merge "$T/a.json" "$T/b.json" "$T/c.json" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["tool"], $c["config.kind"], $c["rows"], $c["rows_kept"], $c["series"] }' >"$T/got"
	printf '%s\n' "gc-plot line 3 3 2" "gc-plot line 3 2 1" "gc-plot line 3 3 1" >"$T/want"
	diff "$T/want" "$T/got"
	# the picture is the same with and without --stats
	gc-plot --x x --y y --by s "$T/t.csv" | cmp - "$T/a.svg"
}

# The man page's examples, as written there (roff escapes undone): a
# sweep of three L1 sizes over two gc-gen traces, then gc-plot on its table.
@test "gc-plot: the man page's examples run verbatim on examples/sweep output" {
	man="$GC_ROOT/share/man/man1/gc-plot.1"
	cd "$T"
	ln -s "$GC_ROOT/examples" examples
	gc-gen -n 1000 vecadd >v.gcs
	gc-gen -n 32 matmul >m.gcs
	printf 'vecadd v.gcs\nmatmul m.gcs\n' >traces
	unroff() { sed -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e$/\\/'; }
	sed -n '/^\$ cat configs$/,/^\$ examples/p' "$man" | sed '1d;$d' | unroff >configs
	expect_eq "$(wc -l <configs)" 3 "configuration lines"
	# each command: a "$ " line and the lines its backslashes continue
	awk '/^\$ (examples|gc-plot)/ { on = 1 } on { print; if ($0 !~ /\\e$/) on = 0 }' "$man" |
		unroff | sed 's/^\$ //' >cmds
	expect_eq "$(grep -c '^examples/sweep\|^gc-plot' cmds)" 3 "commands"
	run_status 0 sh -e cmds
	# vecadd's 96 requests miss at every size (all compulsory); matmul's
	# hit rate from gc-l1 itself at 16K, 32K, 64K
	expect_eq "$(cut -d, -f1,2 sweep.out/results.csv | tr '\n' ' ')" \
		"trace,config vecadd,16 vecadd,32 vecadd,64 matmul,16 matmul,32 matmul,64 "
	expect_eq "$(grep -c 'class="series"' l1.svg)" 2
	expect_eq "$(grep -c 'class="point"' l1.svg)" 6
	expect_eq "$(grep -o 'class="xtick">[^<]*' l1.svg | sed 's/.*>//' | tr '\n' ' ')" "10 20 50 100 "
	grep -q '>L1 size (KB)<' l1.svg
	expect_eq "$(grep -c 'class="cell"' l1-heat.svg)" 6
	run_status 0 sh "$GC_ROOT/tests/svgcheck" l1.svg l1-heat.svg
}

@test "gc-plot: a log axis over 0.25-4 has ticks at 1-2-5 (0.2 to 5); over 4 decades, powers of ten" {
	printf 'f,v\n0.25,1\n0.5,2\n1,3\n2,4\n4,5\n' >"$T/f.csv"
	gc-plot --x f --y v --logx "$T/f.csv" >"$T/f.svg"
	expect_eq "$(grep -o 'class="xtick">[^<]*' "$T/f.svg" | sed 's/.*>//' | tr '\n' ' ')" "0.2 0.5 1 2 5 "
	# 0.2 at the left edge (72), 5 at the right (720-20 = 700); 1 at
	# 72 + log10(1/0.2)/log10(25) * 628 = 72 + 0.5 * 628 = 386
	grep -q '<text x="386.00" y="[0-9.]*" text-anchor="middle" font-size="11.0" class="xtick">1</text>' "$T/f.svg"
	printf 'f,v\n0.5,1\n5000,2\n' >"$T/w.csv"
	gc-plot --x f --y v --logx "$T/w.csv" >"$T/w.svg"
	expect_eq "$(grep -o 'class="xtick">[^<]*' "$T/w.svg" | sed 's/.*>//' | tr '\n' ' ')" "0.1 1 10 100 1000 10K "
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/f.svg" "$T/w.svg"
}

@test "gc-plot: series that coincide differ in dash pattern and marker shape" {
	printf 'f,a,b,c\n1,1,1,1\n2,2,2,2\n3,3,3,3\n' >"$T/c.csv"
	gc-plot --x f --y a,b,c "$T/c.csv" >"$T/c.svg"
	expect_eq "$(grep -c 'class="series"' "$T/c.svg")" 3
	# the first solid, the others dashed, each differently
	expect_eq "$(grep 'class="series"' "$T/c.svg" | grep -o 'stroke-dasharray="[^"]*"' | tr '\n' ' ')" \
		'stroke-dasharray="8,4" stroke-dasharray="2,3" '
	# markers: a's circles, b's and c's paths (square, triangle), 3 each
	expect_eq "$(grep -c '<circle .*class="point"' "$T/c.svg")" 3
	expect_eq "$(grep -c '<path d="M[^"]* h[^"]*Z" .*class="point"' "$T/c.svg")" 3
	expect_eq "$(grep -c '<path d="M[^"]* L[^"]* L[^"]* Z" .*class="point"' "$T/c.svg")" 3
	expect_eq "$(grep -c 'class="legend-marker"' "$T/c.svg")" 3
}

@test "gc-plot: 300 points get a marker every 10th, each series from its own point" {
	awk 'BEGIN { print "i,a,b"; for (i = 1; i <= 300; i++) print i "," i % 7 "," i % 7 }' >"$T/m.csv"
	gc-plot --x i --y a,b "$T/m.csv" >"$T/m.svg"
	expect_eq "$(grep -c 'class="point"' "$T/m.svg")" 60
	# k = 10: a's markers at points 0, 10, ... (x = 1, 11, ...), b's at 5,
	# 15, ... (x = 6, 16, ...); the x axis 0..300 from 72 to 720-20-(28+0.62*11)-10
	# = 655.18 px: x 1 at 73.94, x 6 at 83.66
	expect_eq "$(grep '<circle .*class="point"' "$T/m.svg" | head -1 | sed 's/.*cx="\([^"]*\)".*/\1/')" 73.94
	expect_eq "$(grep '<path .*class="point"' "$T/m.svg" | head -1 | sed 's/.*d="M\([^,]*\),.*/\1/')" 80.16
	printf 'i,a\n1,1\n2,2\n' >"$T/s.csv"
	gc-plot --x i --y a "$T/s.csv" >"$T/s.svg"
	expect_eq "$(grep -c 'class="point"' "$T/s.svg")" 2
}

@test "gc-plot: an all-zero bar chart draws its zero bars, a 0-1 axis and a note" {
	printf 'k,v,w\nx,0,0\ny,0,0\n' >"$T/z.csv"
	gc-plot --kind bar --x k --y v,w "$T/z.csv" >"$T/z.svg"
	expect_eq "$(grep -c 'height="1.50"[^>]*class="bar"' "$T/z.svg")" 4
	expect_eq "$(grep -c 'class="bar"' "$T/z.svg")" 4
	grep -q 'class="note">every value is 0</text>' "$T/z.svg"
	expect_eq "$(grep -o 'class="ytick">[^<]*' "$T/z.svg" | sed 's/.*>//' | tr '\n' ' ')" "0 0.2 0.4 0.6 0.8 1 "
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/z.svg"
}

@test "gc-plot: a heat-map's long row names and colour-bar title stay inside the picture, clear of the axis label" {
	{
		echo "config,trace,gc-l2.sector_hit_rate_of_the_trace"
		for c in l1-16k-4way-lru l1-32k-8way-lru l1-128k-fully-assoc; do
			for t in bfs-rodinia-volta-long-name matmul-pascal; do
				echo "$c,$t,0.25"
			done
		done
		echo "x,y,0.123456"
	} >"$T/h.csv"
	gc-plot --kind heat --x config --y trace --z gc-l2.sector_hit_rate_of_the_trace "$T/h.csv" >"$T/h.svg"
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/h.svg"
	# the colour bar's title upright at the right
	grep -q 'transform="rotate(-90.0 [0-9.]* [0-9.]*)" class="scale">gc-l2.sector_hit_rate_of_the_trace<' "$T/h.svg"
}

@test "gc-plot: a title too long for the picture gets a smaller font, inside the picture" {
	t="G-MAP: l1 miss rate of the proxy against the original's, one point per configuration"
	gc-plot --x factor --y miss_rate --title "$t" "$T/t.csv" >"$T/t.svg"
	# 84 characters at 0.62 em in 720 - 16 px: 704 / (0.62 * 84) = 13.5 px
	grep -q "font-size=\"13.5\" class=\"title\">$t<" "$T/t.svg"
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/t.svg"
	gc-plot --x factor --y miss_rate --title "short" "$T/t.csv" | grep -q 'font-size="14.0" class="title">short<'
}
