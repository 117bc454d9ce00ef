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
	# over ticks 0.2..2.0 (step 0.2) from 72 px to 720-20-(30+6.5*4)-10 =
	# 634 px: 72 + 0.05/1.8*562 = 87.61; the y axis 0.3..0.8 (step 0.1)
	# from 384 px up to 16 px: 0.8 is the top.
	pts=$(grep 'class="series"' <<<"$output" | sed -n 2p | sed 's/.*points="\([^"]*\)".*/\1/')
	expect_eq "${pts%% *}" "87.61,16.00"
}

@test "gc-plot: x values that are not numbers are categories in table order" {
	run_status 0 gc-plot --x kernel --y miss_rate "$T/t.csv"
	expect_eq "$(grep -o 'class="xtick">[^<]*' <<<"$output" | tr '\n' ' ')" \
		'class="xtick">bfs class="xtick">mm '
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
