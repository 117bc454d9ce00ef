#!/usr/bin/env bats
# One vocabulary (issue 19): every key that a tool's --stats writes and
# every long option that its --help lists is in gc(7), section VOCABULARY.
# The list is read from the man page source, so adding a key or an option
# means documenting it there; an undocumented one fails here.

load helpers

BFS="$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g"
TOOLS="gc-import gc-gen gc-sched gc-coalesce gc-l1 gc-l2 gc-dram gc-perf gc-stats gc-rd gc-profile gc-clone gc-plot gc-config"

# The BFS chain once, every tool with --stats (several modes where a mode
# adds keys), into $BATS_FILE_TMPDIR/TOOL.N.json.
setup_file() {
	local d=$BATS_FILE_TMPDIR
	PATH="$GC_BIN:$GC_TESTBIN:$PATH"
	cd "$d" || return 1
	gc-import --stats gc-import.1.json "$BFS" >a.gcs
	gc-sched --stats gc-sched.1.json a.gcs >s.gcs
	gc-sched --policy pself --stats gc-sched.2.json a.gcs >/dev/null
	gc-coalesce --stats gc-coalesce.1.json s.gcs >c.gcs
	gc-l1 --stats gc-l1.1.json c.gcs >r.gcs
	gc-l1 --timing --stats gc-l1.2.json c.gcs >/dev/null
	gc-l2 --stats gc-l2.1.json r.gcs >d.gcs
	gc-l2 --emit all r.gcs >all.gcs
	gc-l1 --ways-sweep 1,4 --stats gc-l1.5.json c.gcs >/dev/null
	gc-l2 --ways-sweep 1,4 --stats gc-l2.3.json r.gcs >/dev/null
	gc-l1 --prefetch mta --timing --stats gc-l1.3.json c.gcs >/dev/null
	gc-l1 --prefetch stride --stats gc-l1.4.json c.gcs >p.gcs
	gc-l2 --prefetch stream --stats gc-l2.2.json p.gcs >/dev/null
	gc-stats --stats gc-stats.9.json p.gcs >/dev/null
	gc-dram --stats gc-dram.1.json d.gcs >/dev/null
	gc-dram --queueing --mapping ChRaBaRoCo --stats gc-dram.2.json d.gcs >/dev/null
	gc-perf --stats gc-perf.1.json all.gcs >/dev/null 2>&1
	gc-stats --stats gc-stats.1.json a.gcs >/dev/null
	gc-stats --stats gc-stats.2.json r.gcs >/dev/null
	local n=3 b
	for b in kernel sm pc warp; do
		gc-stats --by $b --stats gc-stats.$n.json all.gcs >/dev/null
		n=$((n + 1))
	done
	gc-rd --annotate c.gcs | gc-stats --by pc --stats gc-stats.$n.json >/dev/null
	gc-rd --stats gc-rd.1.json c.gcs >/dev/null
	gc-rd --prefetches exclude --stats gc-rd.6.json p.gcs >/dev/null
	gc-rd --stats gc-rd.7.json a.gcs >/dev/null 2>&1 # the stream's rules: no GPU
	gc-rd --sample 64 --sets 4 --ways 4 --lines 64 --stats gc-rd.2.json c.gcs >/dev/null
	n=3
	for b in sm kernel pc; do
		gc-rd --by $b --ways 4 --lines 64 --stats gc-rd.$n.json c.gcs >/dev/null
		n=$((n + 1))
	done
	gc-profile --stats gc-profile.1.json a.gcs >p.gcp
	gc-clone --stats gc-clone.1.json p.gcp >/dev/null
	gc-gen --stats gc-gen.1.json vecadd >/dev/null
	gc-config --from "$GC_ROOT/tests/fixtures/gpgpusim-configs/SM7_QV100" --stats gc-config.1.json >/dev/null
	printf 'x,y,s\n1,2,a\n2,4,b\n' >t.csv
	gc-plot --x x --y y --by s --stats gc-plot.1.json t.csv >/dev/null
	gc-plot --kind heat --x x --y s --z y --stats gc-plot.2.json t.csv >/dev/null
	# Every tool's --help, and its keys (below), once for the file's tests.
	mkdir help
	for t in $TOOLS; do
		"$t" --help >"help/$t"
		keys "$t"
	done >keys
}

# vocab: "GROUP NAME" for every name of gc(7)'s VOCABULARY section (a .B
# line right after .TP, names separated by commas); GROUP is the tool of a
# .SS gc-TOOL subsection, "options" for .SS Options, else "*" (every tool).
vocab() {
	awk '
	/^\.SH/ { on = $0 ~ /^\.SH "?VOCABULARY/; next }
	!on { next }
	/^\.SS/ {
		g = $0; sub(/^\.SS "?/, "", g); sub(/"$/, "", g)
		grp = g ~ /^gc-/ ? g : g ~ /^Options/ ? "options" : "*"
		sub(/[ ,].*/, "", grp)
		next
	}
	/^\.TP/ { tp = 1; next }
	tp && /^\.B / {
		s = substr($0, 4); gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/"/, "", s)
		n = split(s, a, /, */)
		for (i = 1; i <= n; i++) print grp, a[i]
	}
	{ tp = 0 }' "$GC_ROOT/share/man/man7/gc.7"
}

# keys TOOL: "TOOL PATH" for every scalar path its --stats files hold,
# array indices as [] (gc-stats --merge --arrays flattens them).
# setup_file writes them all to $BATS_FILE_TMPDIR/keys.  gc-stats --merge
# of all of a tool's files heads its table with the union of their paths.
keys() {
	gc-stats --merge --arrays "$BATS_FILE_TMPDIR/$1".*.json | head -1 | tr , '\n' | tail -n +2 |
		sed 's/\.[0-9][0-9]*\././g; s/\.[0-9][0-9]*$//' | sort -u | sed "s/^/$1 /"
}

# undocumented: from "TOOL PATH" lines on stdin, those with a component
# that is not in the vocabulary (of that tool or of every tool); below a
# name documented as NAME.* nothing is checked.
undocumented() {
	awk 'NR == FNR { v[$1 " " $2] = 1; next }
	{
		n = split($2, c, ".")
		for (i = 1; i <= n; i++) {
			if (v[$1 " " c[i] ".*"] || v["* " c[i] ".*"])
				break
			if (!v[$1 " " c[i]] && !v["* " c[i]]) {
				print $1 ": " $2 ": " c[i]
				break
			}
		}
	}' <(vocab) -
}

@test "vocabulary: gc(7) has the section, with common keys, tool keys and options" {
	run_status 0 groff -man -ww -z "$GC_ROOT/share/man/man7/gc.7"
	expect_empty "$output"
	vocab >"$T/v"
	for name in "* tool" "* input" "* gpu" "* config" "* kernels" "* kernel_count" \
		"* registers" "options --kernel-boundary" "options --index" "gc-l1 pcs"; do
		grep -qxF "$name" "$T/v" || { echo "not in gc(7): $name" >&2; return 1; }
	done
	# no name twice in one group
	expect_empty "$(sort "$T/v" | uniq -d)"
}

@test "vocabulary: every key of every tool's --stats is in gc(7)" {
	local t f keys
	for t in $TOOLS; do
		f=("$BATS_FILE_TMPDIR/$t".*.json)
		[ -e "${f[0]}" ] || { echo "$t: no --stats file" >&2; return 1; }
	done
	keys=$(<"$BATS_FILE_TMPDIR/keys")
	# the chain wrote what it should: a few paths of each kind
	for p in "gc-l1 config.kernel_boundary" "gc-l2 kernel_count" "gc-stats kernels.registers" \
		"gc-sched kernels.limits.registers" "gc-l1 classes.partial_write" "gc-plot config.kind"; do
		[[ $'\n'$keys$'\n' == *$'\n'"$p"$'\n'* ]] || { echo "no key $p" >&2; return 1; }
	done
	expect_empty "$(undocumented <"$BATS_FILE_TMPDIR/keys")"
}

@test "vocabulary: every long option of every tool's --help is in gc(7)" {
	for t in $TOOLS; do
		grep -oE -- '--[a-z][a-z0-9-]*' "$BATS_FILE_TMPDIR/help/$t" | sort -u | sed "s/^/$t /"
	done >"$T/opts"
	grep -qxF "gc-plot --stats" "$T/opts"
	grep -qxF "gc-plot --progress" "$T/opts"
	grep -qxF "gc-l2 --kernel-boundary" "$T/opts"
	expect_empty "$(awk 'NR == FNR { if ($1 == "options") v[$2] = 1; next }
		!v[$2] { print $1 ": " $2 }' <(vocab) "$T/opts")"
}

@test "vocabulary: the names the contract fixes" {
	local d=$BATS_FILE_TMPDIR f t l keys
	keys=$'\n'$(<"$d/keys")$'\n'
	# every --stats starts with tool and input; gpu (where --gpu) before config
	for f in "$d"/*.json; do
		t=${f##*/}
		t=${t%%.*}
		mapfile -t -n 3 l <"$f"
		expect_eq "${l[1]}" "  \"tool\": \"$t\"," "$f: first key"
		expect_match "${l[2]}" '^  "input": ' "$f: second key"
	done
	# gpu third in every tool that takes --gpu: the preset it ran with, or
	# (a tool that starts a stream, gc-rd without a GPU's rules) null
	local gt=0 h
	for t in $TOOLS; do
		[[ $(<"$d/help/$t") == *"--gpu "* ]] || continue
		gt=$((gt + 1))
		for f in "$d/$t".*.json; do
			h=$(gc-stats --merge "$f")
			IFS=, read -r -a l <<<"${h%%$'\n'*}"
			expect_eq "${l[3]}" gpu "$f: third key"
		done
		[[ $keys != *$'\n'"$t config.gpu"$'\n'* ]] || { echo "$t: config.gpu" >&2; return 1; }
	done
	expect_eq $gt 10 "tools with --gpu"
	expect_eq "$(grep -h '^  "gpu": ' "$d"/gc-{import,sched,coalesce,l1,l2,dram,perf,rd}.1.json |
		sort | uniq -c | tr -s ' ')" ' 8 "gpu": "volta-v100",'
	expect_eq "$(grep -h '^  "gpu": ' "$d"/gc-{gen,clone,rd}.*.json | sort | uniq -c | tr -s ' ')" \
		"$(printf ' 6 "gpu": "volta-v100",\n 3 "gpu": null,')"
	for t in gc-l1 gc-l2 gc-dram gc-sched gc-perf gc-coalesce; do
		[[ $keys == *$'\n'"$t config."* ]] || { echo "$t: no config" >&2; return 1; }
	done
	# kernels is a list wherever it appears: never a number
	expect_empty "$(grep -lE '^ *"kernels": [0-9]' "$d"/*.json)" "kernels as a number"
	# PCs are "0x..." strings
	grep -q '"pc": "0x[0-9a-f]*"' "$d/gc-stats.5.json"
	grep -q '"pc": "0x[0-9a-f]*"' "$d/gc-l1.1.json"
	grep -q '"pc": "0x[0-9a-f]*"' "$d/gc-rd.5.json"
	expect_empty "$(grep -h '"pc": [0-9]' "$d"/*.json)"
	# the old names are gone
	expect_empty "$(grep -hE '"(per_kernel|regs|l1|partial-write|by_class|by_result|hash|miss_ratio|parameters)":' "$d"/*.json)"
}
