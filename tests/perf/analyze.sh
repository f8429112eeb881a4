#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turns bench.sh's raw results into the cover-letter table, the floor, a PNG
# of the ratios and, last, the one-line summary.  Runs on the host (plain
# user-space: awk, hotcold --trace-only, hcoracle, gnuplot).
#
# usage: analyze.sh OUTDIR [BINDIR]
set -eu -o pipefail

OUT=${1:?usage: analyze.sh OUTDIR [BINDIR]}
BIN=${2:-$(dirname "$0")}
RES=$OUT/results.txt
[ -s "$RES" ] || { echo "analyze: no results in $RES" >&2; exit 1; }

param() { sed -n "s/^$1=\([^ ]*\).*/\1/p" "$OUT/params.txt"; }
workload=$(sed -n 's/^workload=//p' "$OUT/params.txt")
peak=$(param peak_bytes)
program=$(param program)
program=${program:-hotcold}	# results from before fio was added

# ---- the floor: replay the trace against each pressured run's limits ----
# (hotcold only: fio's accesses are not traced, so fio's table has no floor)
: > "$OUT/oracle.txt"
if [ "$program" = hotcold ] && [ -x "$BIN/hotcold" ] && [ -x "$BIN/hcoracle" ]; then
	# shellcheck disable=SC2086 # the workload options are words
	"$BIN/hotcold" $workload --trace-only --trace "$OUT/trace.bin" > "$OUT/trace.out"
	npages=$(sed -n 's/.*[^_]pages=\([0-9]*\).*/\1/p' "$OUT/trace.out")
	overhead=$(( peak / 4096 > npages ? peak / 4096 - npages : 0 ))
	for d in "$OUT"/runs/*-[0-9]*; do
		run=${d##*/} cfg=${run%-*} round=${run##*-}
		[ "$cfg" = orig ] && continue
		[ -s "$d/progress.txt" ] && [ -s "$d/limits.txt" ] || continue
		echo "config=$cfg round=$round $("$BIN/hcoracle" -t "$OUT/trace.bin" \
			-P "$d/progress.txt" -l "$d/limits.txt" -o "$overhead")" >> "$OUT/oracle.txt"
	done
	rm -f "$OUT/trace.bin"
fi

order="orig orig-plrus mprs plrus-dbgfs plrus-sysfs lru_sort lru_sort-tuned"

awk -v order="$order" -v outdir="$OUT" -v program="$program" -v workload="$workload" -v hostload="$(cat "$OUT/host-load.txt" 2>/dev/null | tr '\n' ' ')" \
    -v guestenv="$(tr '\n' ' ' < "$OUT/env.txt" 2>/dev/null)" '
function kv(line, a,   n, i, f, k) {
	n = split(line, f, " ")
	for (i = 1; i <= n; i++) {
		k = index(f[i], "=")
		if (k) a[substr(f[i], 1, k - 1)] = substr(f[i], k + 1)
	}
}
function add(c, m, v) {
	if (v == "" || v == "na") return
	n[c, m]++; s[c, m] += v; ss[c, m] += v * v
}
function mean(c, m) { return n[c, m] ? s[c, m] / n[c, m] : "" }
function sd(c, m,   k, v) {
	k = n[c, m]
	if (k < 2) return 0
	v = (ss[c, m] - s[c, m] * s[c, m] / k) / (k - 1)
	return v > 0 ? sqrt(v) : 0
}
function cell(c, m,   mu) {
	if (!n[c, m]) return "-"
	mu = mean(c, m)
	return sprintf(fmt[m] "±%.0f%%", mu, mu ? 100 * sd(c, m) / mu : 0)
}
function ratio(c, m) {
	if (!n[c, m] || !n["mprs", m] || mean("mprs", m) == 0) return ""
	return mean(c, m) / mean("mprs", m)
}
# distance between two configurations in units of their combined standard
# error: below 2 is "within noise" (no more than a rough Welch test)
function zdiff(a, b, m,   se) {
	if (n[a, m] < 2 || n[b, m] < 2) return ""
	se = sqrt(sd(a, m) ^ 2 / n[a, m] + sd(b, m) ^ 2 / n[b, m])
	return se > 0 ? (mean(a, m) - mean(b, m)) / se : 0
}
FILENAME ~ /oracle.txt$/ {
	delete a; kv($0, a)
	add(a["config"], "floor", a["oracle_majflt"])
	fl[a["config"], a["round"]] = a["oracle_majflt"]
	add(a["config"], "lrufloor", a["pinned_lru_majflt"])
	next
}
{
	delete a; kv($0, a)
	c = a["config"]
	if (!(c in seen)) { seen[c] = 1; extra = extra " " c }
	if (a["failed"] != "" || a["status"] != 0 || a["oom_kill"] > 0 || a["runtime_s"] == "") {
		bad[c]++; next
	}
	add(c, "runtime_s", a["runtime_s"])
	add(c, "pgmajfaults", a["pgmajfault"])
	add(c, "memory_psi_some_us", a["psi_some_us"])
	add(c, "kdamond_cpu_pct", a["kdamond_cpu_pct"])
	add(c, "proc_majflt", a["majflt"])
	# the floor under the limits of this very run: normalizes away how many
	# pressure episodes a run happened to see
	if (fl[c, a["round"]] > 0) add(c, "majflt_over_floor", a["majflt"] / fl[c, a["round"]])
	add(c, "episodes", a["episodes"])
	add(c, "pressure_s", a["pressure_s"])
	add(c, "reclaim_wait_s", a["reclaim_wait_s"])
	add(c, "pswpin", a["pswpin"])
	if (a["prio_sz_applied"] != "") add(c, "prio_sz_applied_mb", a["prio_sz_applied"] / 1048576)
	if (a["deprio_sz_applied"] != "") add(c, "deprio_sz_applied_mb", a["deprio_sz_applied"] / 1048576)
	add(c, "loadavg", a["loadavg"])
}
END {
	nc = split(order, o, " ")
	ne = split(extra, e, " ")
	for (i = 1; i <= ne; i++) {
		for (j = 1; j <= nc; j++) if (o[j] == e[i]) break
		if (j > nc) o[++nc] = e[i]
	}
	k = 0
	for (j = 1; j <= nc; j++) if (o[j] in seen) cfg[++k] = o[j]
	nc = k
	nm = split("runtime_s pgmajfaults memory_psi_some_us kdamond_cpu_pct proc_majflt pswpin floor majflt_over_floor episodes pressure_s reclaim_wait_s prio_sz_applied_mb deprio_sz_applied_mb loadavg", met, " ")
	fmt["runtime_s"] = "%.2f"; fmt["kdamond_cpu_pct"] = "%.2f"; fmt["loadavg"] = "%.2f"
	fmt["majflt_over_floor"] = "%.2f"; fmt["episodes"] = "%.1f"
	fmt["pressure_s"] = "%.1f"; fmt["reclaim_wait_s"] = "%.1f"
	fmt["prio_sz_applied_mb"] = "%.0f"; fmt["deprio_sz_applied_mb"] = "%.0f"
	for (i = 1; i <= nm; i++) if (!(met[i] in fmt)) fmt[met[i]] = "%.0f"

	t = outdir "/table.txt"
	printf "damos PLRUS benchmark: mean±sd (%% of mean) over n runs per column\n" > t
	printf "workload: %s %s\n", program, workload > t
	printf "guest: %s\nhost load: %s\n\n", guestenv, hostload > t
	printf "%-22s", "metric" > t
	for (j = 1; j <= nc; j++) printf " %16s", cfg[j] > t
	printf "\n%-22s", "runs (failed)" > t
	for (j = 1; j <= nc; j++) printf " %16s", n[cfg[j], "runtime_s"] "(" bad[cfg[j]] + 0 ")" > t
	printf "\n" > t
	for (i = 1; i <= nm; i++) {
		printf "%-22s", met[i] > t
		for (j = 1; j <= nc; j++) printf " %16s", cell(cfg[j], met[i]) > t
		printf "\n" > t
	}
	printf "\n%-22s", "ratio to mprs" > t
	for (j = 1; j <= nc; j++) printf " %16s", cfg[j] > t
	printf "\n" > t
	nr = split("runtime_s pgmajfaults memory_psi_some_us proc_majflt majflt_over_floor", rm, " ")
	for (i = 1; i <= nr; i++) {
		printf "%-22s", rm[i] > t
		for (j = 1; j <= nc; j++) {
			r = ratio(cfg[j], rm[i])
			printf " %16s", r == "" ? "-" : sprintf("%.2f", r) > t
		}
		printf "\n" > t
	}

	if (program != "hotcold") {
		printf "\nfloor: none for %s (its accesses are not traced; hotcold has one)\n", program > t
	} else {
		printf "\nfloor: major faults of an oracle that keeps the hot set resident and\n" > t
		printf "evicts the page used farthest in the future, under each run'"'"'s limits\n" > t
		printf "(workload faults only; compare with proc_majflt)\n" > t
	}
	for (j = 1; j <= nc; j++) {
		c = cfg[j]
		if (!n[c, "floor"] || !n[c, "proc_majflt"]) continue
		f = mean(c, "floor")
		printf "  %-16s floor %10.0f  pinned-LRU %10.0f  measured %10.0f  measured/floor %s\n", c, f,
			mean(c, "lrufloor"), mean(c, "proc_majflt"),
			(f > 0 ? sprintf("%.2f", mean(c, "proc_majflt") / f) : "-") > t
	}

	# without /proc/vmstat event counters, fall back to the workload faults
	mf = "pgmajfaults"
	if (!n["mprs", mf] && n["mprs", "proc_majflt"]) {
		mf = "proc_majflt"
		printf "\nnote: the guest kernel has no pgmajfault in /proc/vmstat (CONFIG_VM_EVENT_COUNTERS=n):\n" > t
		printf "majfaults below are the workload'"'"'s own (getrusage), not system-wide\n" > t
	}
	best = ""
	for (j = 1; j <= nc; j++) {
		c = cfg[j]
		if (c !~ /^plrus/) continue
		r1 = ratio(c, "runtime_s"); r2 = ratio(c, mf); r3 = ratio(c, "memory_psi_some_us")
		if (r1 == "" || r2 == "" || r3 == "") continue
		g = (r1 * (r2 > 0 ? r2 : 1e-9) * (r3 > 0 ? r3 : 1e-9))
		if (best == "" || g < bestg) { best = c; bestg = g; b1 = r1; b2 = r2; b3 = r3 }
	}
	# the three metrics of the final line, for the z rows and the plot
	split("runtime_s " mf " memory_psi_some_us", pm, " ")
	printf "\neach configuration vs mprs (difference in combined standard errors; |z| < 2: within noise):\n" > t
	printf "  %-16s %10s %10s %10s\n", "", "runtime", "majfaults", "psi" > t
	for (j = 1; j <= nc; j++) {
		c = cfg[j]
		if (c == "mprs" || c ~ /^orig/) continue
		printf "  %-16s", c > t
		for (i = 1; i <= 3; i++) {
			z = zdiff(c, "mprs", pm[i])
			printf " %10s", z == "" ? "-" : sprintf("%+.2f", z) > t
		}
		printf "\n" > t
	}
	if (n["plrus-dbgfs", "runtime_s"] && n["plrus-sysfs", "runtime_s"]) {
		printf "\nplrus-dbgfs vs plrus-sysfs (difference in combined standard errors; |z| < 2: within noise):\n" > t
		for (i = 1; i <= nr; i++) {
			z = zdiff("plrus-dbgfs", "plrus-sysfs", rm[i])
			printf "  %-20s z=%s\n", rm[i], z == "" ? "- (need >= 2 runs each)" : sprintf("%+.2f", z) > t
		}
	}
	if (best != "") {
		printf "\nbest PLRUS run set: %s (lowest product of the three ratios)\n", best > t
		final = sprintf("plrus/mprs runtime=%.2f majfaults=%.2f psi=%.2f kdamond_cpu=%.2f%%",
			b1, b2, b3, mean(best, "kdamond_cpu_pct"))
	} else {
		final = "plrus/mprs: no complete plrus and mprs runs to compare"
	}
	close(t)
	print final > (outdir "/final.txt")

	p = outdir "/ratios.dat"
	printf "# config runtime runtime_sd majfaults majfaults_sd psi psi_sd (ratios to mprs)\n" > p
	for (j = 1; j <= nc; j++) {
		c = cfg[j]
		if (c == "mprs" || ratio(c, "runtime_s") == "") continue
		printf "%s", c > p
		for (i = 1; i <= 3; i++) {
			mu = mean("mprs", pm[i])
			printf " %.4f %.4f", ratio(c, pm[i]) + 0, mu ? sd(c, pm[i]) / mu : 0 > p
		}
		printf "\n" > p
	}
	close(p)
}' "$OUT/oracle.txt" "$RES"

cat "$OUT/table.txt"

if command -v gnuplot > /dev/null && [ "$(grep -vc '^#' "$OUT/ratios.dat")" -gt 0 ]; then
	gnuplot <<-EOF 2> "$OUT/gnuplot.log" || echo "analyze: gnuplot failed, see $OUT/gnuplot.log" >&2
	set terminal png size 900,520
	set output "$OUT/ratios.png"
	set title "Ratio to mprs (memory pressure, no LRU sorting); lower is better"
	set style data histograms
	set style histogram errorbars gap 2 lw 1
	set style fill solid 0.8 border -1
	set yrange [0:*]
	set grid ytics
	set key below
	set xtics noenhanced
	set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
	plot "$OUT/ratios.dat" using 2:3:xtic(1) title "runtime", \
	     "" using 4:5 title "major faults", \
	     "" using 6:7 title "memory PSI some"
	EOF
	[ -s "$OUT/ratios.png" ] && echo "plot: $OUT/ratios.png"
fi
echo "table: $OUT/table.txt"
cat "$OUT/final.txt"
