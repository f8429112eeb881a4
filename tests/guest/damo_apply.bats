#!/usr/bin/env bats
# damo's kdamonds specs (tests/host/fixtures/damo-3.3.0, what damo v3.3.0
# prints for six command lines) applied by "damoctl apply FILE" give the
# sysfs tree the spec describes, on the kernel's own files.  The expected
# files come from the spec by damo's meaning of its values, computed here
# in Python from the JSON (thousands separators, units, "max", percentages
# of the samples of an aggregation interval), not by damoctl; the fields
# compared are those both models know.  Filters: this kernel has no
# "allow" file (it came after 6.12), so damo's allow filter, the last one,
# is the reject filter of the opposite match.

load helpers/common

FIXTURES=$BATS_TEST_DIRNAME/fixtures/damo-3.3.0

setup() {
	damon_off
	log_mark
}

teardown() {
	damon_off
	assert_kernel_log_clean
}

# expected FILE K: "relative/path value" lines for kdamond K's context 0
expected() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys

ULONG_MAX = 2**64 - 1
UINT_MAX = 2**32 - 1

def num(s):
    return float(s.replace(',', '').split()[0])

def size(s):
    if s == 'max':
        return ULONG_MAX
    units = {'B': 1, 'KiB': 2**10, 'MiB': 2**20, 'GiB': 2**30, 'TiB': 2**40}
    v, u = s.replace(',', '').split()
    return int(float(v) * units[u])

def us(s):
    if s == 'max':
        return None
    units = {'ns': 0.001, 'us': 1, 'ms': 1000, 's': 10**6, 'm': 60 * 10**6,
             'h': 3600 * 10**6}
    v, u = s.replace(',', '').split()
    return int(float(v) * units[u])

def pct(s):
    return float(s.replace(',', '').split()[0])

spec = json.load(open(sys.argv[1]))
c = spec['kdamonds'][int(sys.argv[2])]['contexts'][0]
out = []
def put(rel, v):
    out.append('%s %s' % (rel, v))

it = c['intervals']
sample, aggr = us(it['sample_us']), us(it['aggr_us'])
put('operations', c['ops'])
put('monitoring_attrs/intervals/sample_us', sample)
put('monitoring_attrs/intervals/aggr_us', aggr)
put('monitoring_attrs/intervals/update_us', us(it['ops_update_us']))
put('monitoring_attrs/nr_regions/min', int(num(c['nr_regions']['min'])))
put('monitoring_attrs/nr_regions/max', int(num(c['nr_regions']['max'])))
put('targets/nr_targets', len(c['targets']))
for i, t in enumerate(c['targets']):
    if t['pid'] is not None:
        put('targets/%d/pid_target' % i, t['pid'])
    put('targets/%d/regions/nr_regions' % i, len(t['regions']))
    for j, r in enumerate(t['regions']):
        put('targets/%d/regions/%d/start' % (i, j), int(num(r['start'])))
        put('targets/%d/regions/%d/end' % (i, j), int(num(r['end'])))
max_nr = aggr // sample
put('schemes/nr_schemes', len(c['schemes']))
for i, s in enumerate(c['schemes']):
    d = 'schemes/%d/' % i
    ap = s['access_pattern']
    put(d + 'action', s['action'])
    put(d + 'access_pattern/sz/min', size(ap['sz_bytes']['min']))
    put(d + 'access_pattern/sz/max', size(ap['sz_bytes']['max']))
    for k in ('min', 'max'):
        p = pct(ap['nr_accesses'][k])
        # a rate of 100% or more is no bound: the field's maximum
        put(d + 'access_pattern/nr_accesses/' + k,
            UINT_MAX if p > 100 else int(p * max_nr / 100))
    for k in ('min', 'max'):
        a = us(ap['age'][k])
        put(d + 'access_pattern/age/' + k, UINT_MAX if a is None else a // aggr)
    put(d + 'apply_interval_us', us(s['apply_interval_us']))
    if 'target_nid' in s and s['target_nid'] is not None:
        put(d + 'target_nid', s['target_nid'])
    q = s['quotas']
    put(d + 'quotas/ms', us(q['time_ms']) // 1000)
    put(d + 'quotas/bytes', size(q['sz_bytes']))
    r = us(q['reset_interval_ms'])
    put(d + 'quotas/reset_interval_ms', ULONG_MAX if r is None else r // 1000)
    w = q['weights']
    for k in ('sz_permil', 'nr_accesses_permil', 'age_permil'):
        put(d + 'quotas/weights/' + k, round(pct(w[k]) * 10))
    put(d + 'quotas/goals/nr_goals', len(q['goals']))
    for j, g in enumerate(q['goals']):
        put(d + 'quotas/goals/%d/target_metric' % j, g['metric'])
        put(d + 'quotas/goals/%d/target_value' % j, int(num(g['target_value'])))
        put(d + 'quotas/goals/%d/current_value' % j, int(num(g['current_value'])))
    wm = s['watermarks']
    put(d + 'watermarks/metric', wm['metric'])
    if wm['metric'] != 'none':
        put(d + 'watermarks/interval_us', us(wm['interval_us']))
        for k in ('high', 'mid', 'low'):
            put(d + 'watermarks/' + k, round(pct(wm[k + '_permil']) * 10))
    put(d + 'filters/nr_filters', len(s['filters']))
    for j, f in enumerate(s['filters']):
        put(d + 'filters/%d/type' % j, f['filter_type'])
        put(d + 'filters/%d/matching' % j,
            'Y' if f['matching'] != f['allow'] else 'N')
        if f['memcg_path'] is not None:
            put(d + 'filters/%d/memcg_path' % j, f['memcg_path'])
print('\n'.join(out))
PY
}

# The spec as JSON with damo's spacing; a last allow filter as the reject
# filter of the opposite match (this kernel has no allow file).
canon() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in d['kdamonds']:
    for c in k['contexts']:
        for s in c['schemes']:
            for f in s['filters']:
                if f['allow']:
                    f['matching'], f['allow'] = not f['matching'], False
print(json.dumps(d, indent=4))
PY
}

@test "damo's specs applied by damoctl give the sysfs files the specs describe, and export back" {
	runs_on_debian_612 sysfs
	need sysfs paddr
	local f rel want got n=0 bad=0 files=0 k nk kds=0
	for f in "$FIXTURES"/*.json; do
		damon_off
		# damoctl makes kdamond 0 and its context when there is none;
		# a spec of two kdamonds (damo's --nr_ctxs 1 1) makes both
		run "$DAMOCTL" --interface sysfs apply "$f"
		# a kernel without a field the spec sets (6.1: apply_interval,
		# target_nid, goals) refuses it, naming the field and the kernel
		if [ "$status" -ne 0 ]; then
			assert_output --regexp "(Linux [0-9.]+)"
			echo "# $(basename "$f"): refused on $(uname -r): $output" >&3
			continue
		fi
		files=$((files + 1))
		nk=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kdamonds"]))' "$f")
		got=$(cat "$SYSFS/kdamonds/nr_kdamonds")
		[ "$nk" -eq 1 ] || [ "$got" -eq "$nk" ] ||
			{ echo "$(basename "$f"): nr_kdamonds $got, want $nk"; bad=$((bad + 1)); }
		for ((k = 0; k < nk; k++)); do
			kds=$((kds + 1))
			while read -r rel want; do
				c=$SYSFS/kdamonds/$k/contexts/0
				if [ ! -e "$c/$rel" ]; then
					# a later kernel's file at its default is no difference
					case $want in 0|none|-1) continue ;; esac
					echo "$(basename "$f"): kdamond $k: $rel: missing, want $want"
					bad=$((bad + 1))
					continue
				fi
				got=$(cat "$c/$rel")
				n=$((n + 1))
				if [ "$got" != "$want" ]; then
					echo "$(basename "$f"): kdamond $k: $rel: $got, want $want"
					bad=$((bad + 1))
				fi
			done < <(expected "$f" "$k")
		done
		# and back: what damoctl reads of the kernel is damo's spec
		"$DAMOCTL" export damo > "$BATS_TEST_TMPDIR/export.json"
		if ! diff -u <(canon "$f") <(canon "$BATS_TEST_TMPDIR/export.json") > "$BATS_TEST_TMPDIR/diff"; then
			echo "$(basename "$f"): export damo differs:"; head -20 "$BATS_TEST_TMPDIR/diff"
			bad=$((bad + 1))
		fi
	done
	echo "# $(uname -r): $files specs applied ($kds kdamonds) and exported back, $n files compared, $bad differ" >&3
	[ "$bad" -eq 0 ]
	[ "$files" -ge 1 ]
	[ "$n" -ge 100 ]
}
