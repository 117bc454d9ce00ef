#!/usr/bin/env bats
# gc-stats --merge: many --stats JSON files into one CSV table.

load helpers

setup() {
	T=$BATS_TEST_TMPDIR
	cat >"$T/a.json" <<'J'
{"requests": 10, "hits": 4, "hit_rate": 0.4, "name": "a,b \"x\"",
 "per_sm": [{"hits": 1}, {"hits": 3}], "l1": {"size": 16384, "ok": true}}
J
	cat >"$T/b.json" <<'J'
{"requests": 20, "misses": 5, "hits": 15,
 "l1": {"size": 32768, "ok": false, "extra": null}, "s": "\u00e9\n"}
J
}

@test "gc-stats --merge: one row per file, columns in order of first appearance" {
	cd "$T"
	run_status 0 gc-stats --merge a.json b.json
	expect_eq "${lines[0]}" 'file,requests,hits,hit_rate,name,l1.size,l1.ok,misses,l1.extra,s'
	expect_eq "${lines[1]}" 'a.json,10,4,0.4,"a,b ""x""",16384,true,,,'
	expect_eq "${lines[2]}" "b.json,20,15,,,32768,false,5,null,\"$(printf '\303\251')"
	expect_eq "${lines[3]}" '"'
}

@test "gc-stats --merge --arrays: array elements get their index in the path" {
	cd "$T"
	run_status 0 gc-stats --merge --arrays a.json
	expect_eq "${lines[0]}" 'file,requests,hits,hit_rate,name,per_sm.0.hits,per_sm.1.hits,l1.size,l1.ok'
	expect_eq "${lines[1]}" 'a.json,10,4,0.4,"a,b ""x""",1,3,16384,true'
}

@test "gc-stats --merge: the --stats of real runs, values as gc-stats --json printed them" {
	gc-gen -n 1000 vecadd >"$T/v.gc"
	gc-gen -n 3000 copy >"$T/c.gc"
	gc-stats --stats "$T/v.json" "$T/v.gc" >/dev/null
	gc-stats --stats "$T/c.json" "$T/c.gc" >/dev/null
	run_status 0 gc-stats --merge -o "$T/m.csv" "$T/v.json" "$T/c.json"
	# column of "loads" in the header, then that field of each row
	col=$(head -1 "$T/m.csv" | tr , '\n' | grep -nx loads | cut -d: -f1)
	[ -n "$col" ]
	expect_eq "$(sed -n 2p "$T/m.csv" | cut -d, -f"$col")" 2000
	expect_eq "$(sed -n 3p "$T/m.csv" | cut -d, -f"$col")" 3000
}

@test "gc-stats --merge: bad JSON names the file, line and column; nothing on stdout" {
	printf '{"a": [1,\n 2' >"$T/bad.json"
	sh_status 1 "gc-stats --merge '$T/a.json' '$T/bad.json'"
	expect_empty "$(cat "$T/out")" stdout
	expect_match "$(cat "$T/err")" "^gc-stats: .*bad.json: line 2, column 3: "
	printf '{"a": 01}' >"$T/bad2.json"
	sh_status 1 "gc-stats --merge '$T/bad2.json'"
	printf '{"a": 1} x' >"$T/bad3.json"
	sh_status 1 "gc-stats --merge '$T/bad3.json'"
	expect_match "$(cat "$T/err")" "data after the document"
	sh_status 1 "gc-stats --merge '$T/nosuch.json'"
	expect_match "$(cat "$T/err")" "nosuch.json: No such file"
}

@test "gc-stats --merge: usage errors" {
	run_status 2 gc-stats --merge
	run_status 2 gc-stats --merge --json "$T/a.json"
	run_status 2 gc-stats --arrays "$T/a.json"
}

@test "gc-stats --merge: a full disk is an error" {
	run_status 1 sh -c "gc-stats --merge '$T/a.json' >/dev/full"
}

@test "gc-stats --merge --long: a row per kernel (file, kernel, name, its keys)" {
	cd "$T"
	cat >c.json <<'J'
{"tool": "gc-l1", "hits": 9, "kernels": [
 {"id": 1, "name": "k<a,b>", "hits": 3, "sectors": {"hits": 5}, "grid": [2, 1, 1]},
 {"id": 2, "name": "k2", "misses": 4}]}
J
	printf '{"tool": "gc-l2", "kernel_count": 2}\n' >d.json
	printf '{"kernels": [{"name": "x", "id": 7, "hits": 1}]}\n' >e.json
	run_status 0 gc-stats --merge --long c.json d.json e.json
	expect_eq "${#lines[@]}" 4 rows
	expect_eq "${lines[0]}" 'file,kernel,name,hits,sectors.hits,misses'
	expect_eq "${lines[1]}" 'c.json,1,"k<a,b>",3,5,'
	expect_eq "${lines[2]}" 'c.json,2,k2,,,4'
	expect_eq "${lines[3]}" 'e.json,7,x,1,,'
	run_status 0 gc-stats --merge --long --arrays c.json
	expect_eq "${lines[0]}" 'file,kernel,name,hits,sectors.hits,grid.0,grid.1,grid.2,misses'
	expect_eq "${lines[1]}" 'c.json,1,"k<a,b>",3,5,2,1,1,'
	sh_status 2 "gc-stats --long c.json"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --long goes with --merge"
}

@test "gc-stats --merge --long: gc-l1's kernels of the BFS trace add up to its totals" {
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" | gc-sched --gpu fermi-gtx470-16k | gc-coalesce |
		gc-l1 --gpu volta-v100 --stats "$T/l1.json" >/dev/null
	gc-stats --merge --long "$T/l1.json" >"$T/long.csv"
	gc-stats --merge "$T/l1.json" >"$T/wide.csv"
	# 16 launches, ids 1 to 16 in order, each with its name
	expect_eq "$(tail -n +2 "$T/long.csv" | cut -d, -f2 | tr '\n' ' ')" "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 "
	expect_eq "$(tail -n +2 "$T/long.csv" | cut -d, -f3 | sort | uniq -c | tr -s ' ')" \
		" 8 _Z6KernelP4NodePiPbS2_S2_S1_i
 8 _Z7Kernel2PbS_S_S_i"
	# the kernels' requests, hits and misses sum to the totals of the wide row
	sums=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ r += $c["requests"]; h += $c["hits"]; m += $c["misses"] } END { print r, h, m }' "$T/long.csv")
	tot=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["requests"], $c["hits"], $c["misses"] }' "$T/wide.csv")
	expect_eq "$sums" "$tot"
	expect_eq "$tot" "69908 60794 9114"
	# (48917 and 20991 while a store missed a sector a partial store left)
	# kernel 1: 201 requests, 136 hits, 65 misses; 804 sectors, 544 hits
	expect_eq "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["kernel"] == 1 { print $c["requests"], $c["hits"], $c["misses"], $c["sectors.requested"], $c["sectors.hits"] }' "$T/long.csv")" \
		"201 136 65 804 544"
}
