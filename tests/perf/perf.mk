# tests/perf: the PLRUS benchmark (see tests/perf/README.md).
#
#   make bench                  full run in the guest (~70-80 min under TCG)
#   make bench BENCH_QUICK=1    short smoke run (< 10 min)
#   make bench BENCH_PROGRAM=fio the same with fio as the workload
#
# The workload and the driver run in the guest on the patched kernel; the
# floor, the table and the plot are computed on the host from the results
# the guest leaves in $(BENCH_OUT).

PERF_DIR := tests/perf
PERF_BUILD := $(BUILD)/perf
PERF_CFLAGS ?= -O2 -g -Wall -Wextra
PERF_BINS := $(PERF_BUILD)/hotcold $(PERF_BUILD)/hcoracle $(PERF_BUILD)/tlbshake

BENCH_QUICK ?= 0
BENCH_ROUNDS ?= 5
BENCH_CONFIGS ?= orig mprs plrus-dbgfs plrus-sysfs lru_sort lru_sort-tuned
BENCH_VIA ?= auto
BENCH_PROGRAM ?= hotcold
# handed to bench.sh in the guest when set (see README.md)
BENCH_PASS := BENCH_TARGET_S BENCH_PRESSURE BENCH_WORKLOAD BENCH_DAMON_ATTRS BENCH_ZRAM_SIZE BENCH_TLBSHAKE_US BENCH_QUOTA_MS BENCH_HOT_PCT
BENCH_TIMEOUT ?= $(if $(filter 1,$(BENCH_QUICK)),900,7200)
ifeq ($(origin BENCH_OUT),undefined)
BENCH_OUT := $(PERF_BUILD)/results/$(shell date +%Y%m%d-%H%M%S)$(if $(filter 1,$(BENCH_QUICK)),-quick)$(if $(filter-out hotcold,$(BENCH_PROGRAM)),-$(BENCH_PROGRAM))
endif

DEPS += libc6-dev gnuplot-nox
CHECK_HOST_TARGETS += check-perf-host
CLEAN_FILES += $(PERF_BUILD)

.PHONY: perf bench check-perf-host bench-snapshot

perf: $(PERF_BINS)

# static: the binary rides on the guest's payload disk, whatever libc
# its image carries
$(PERF_BUILD)/hotcold: $(PERF_DIR)/hotcold.c $(PERF_DIR)/hctrace.h
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) -static -o $@ $<

$(PERF_BUILD)/tlbshake: $(PERF_DIR)/tlbshake.c
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) -static -o $@ $<

$(PERF_BUILD)/hcoracle: $(PERF_DIR)/hcoracle.c $(PERF_DIR)/hctrace.h
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) -o $@ $<

check-perf-host: $(PERF_BINS)
	$(PERF_DIR)/selftest.sh $(PERF_BUILD)

# One guest boot runs every configuration.  The bench rides on the guest's
# payload disk (guest-stage, then tests/perf's files added under perf/) and
# writes its raw results to /damos/results/bench, which run.sh brings back.
# The host load is noted before and after: other builds on the machine make
# the figures noisy.
bench: $(PERF_BINS) $(KERNEL_BZIMAGE) $(KERNEL_SRC_STAMP) $(GUEST_BENCH_IMAGE)
	@[ -n "$(KERNEL_BZIMAGE)" ] || { echo "bench: KERNEL_BZIMAGE is not set (make kernel, or pass KERNEL_BZIMAGE=...)" >&2; exit 1; }
	@$(MAKE) --no-print-directory guest-stage >&2
	@mkdir -p $(GUEST_STAGE)/perf $(BENCH_OUT)
	@cp $(PERF_DIR)/bench.sh $(PERF_BUILD)/hotcold $(PERF_BUILD)/tlbshake $(GUEST_STAGE)/perf/
	@echo "before: $$(cat /proc/loadavg)" > $(BENCH_OUT)/host-load.txt
	@echo "bench: guest run (quick=$(BENCH_QUICK), timeout $(BENCH_TIMEOUT) s); results in $(BENCH_OUT)"
	@echo 'BENCH_QUICK=$(BENCH_QUICK) BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_CONFIGS="$(BENCH_CONFIGS)" BENCH_VIA=$(BENCH_VIA) BENCH_PROGRAM=$(BENCH_PROGRAM) $(foreach v,$(BENCH_PASS),$(if $($(v)),$(v)="$($(v))")) /damos/perf/bench.sh -o /damos/results/bench' > $(PERF_BUILD)/guest-cmd
	@DAMOS_GUEST_TIMEOUT=$(BENCH_TIMEOUT) DAMOS_GUEST_INITRD=$(KERNEL_INITRD) guest-image/run.sh cmd $(KERNEL_BZIMAGE) $(GUEST_BENCH_IMAGE) \
		$(GUEST_STAGE) $(GUEST_OUT) $(PERF_BUILD)/guest-cmd; \
		rc=$$?; \
		cp -r $(GUEST_OUT)/results/bench/. $(BENCH_OUT)/ 2>/dev/null; \
		cp $(GUEST_OUT)/console.log $(BENCH_OUT)/guest-console.log 2>/dev/null; \
		echo "after: $$(cat /proc/loadavg)" >> $(BENCH_OUT)/host-load.txt; \
		[ $$rc = 0 ] || echo "bench: the guest run failed ($$rc); analysing what it left" >&2
	@$(PERF_DIR)/analyze.sh $(BENCH_OUT) $(PERF_BUILD)

# What transactions cost (tests/perf/txn_bench.sh): scheme add on fake trees
# of 1, 10 and 100 schemes, by this damoctl and by one built from
# TXN_BENCH_BASE (default: the last revision of main before transactions)
# in a copy of its own below $(BUILD).
TXN_BENCH_BASE ?= 60612db
TXN_BENCH_DIR := $(BUILD)/bench-txn/$(TXN_BENCH_BASE)
.PHONY: bench-txn
bench-txn: $(BUILD)/damoctl
	@if [ ! -x $(TXN_BENCH_DIR)/build/damoctl ]; then \
		echo "bench-txn: building damoctl of $(TXN_BENCH_BASE) in $(TXN_BENCH_DIR)" >&2; \
		rm -rf $(TXN_BENCH_DIR) && mkdir -p $(TXN_BENCH_DIR) && \
		git archive $(TXN_BENCH_BASE) | tar -x -C $(TXN_BENCH_DIR) && \
		$(MAKE) --no-print-directory -C $(TXN_BENCH_DIR) build/damoctl > $(TXN_BENCH_DIR).log 2>&1 || \
		{ echo "bench-txn: the build of $(TXN_BENCH_BASE) failed: $(TXN_BENCH_DIR).log" >&2; exit 1; }; \
	fi
	$(PERF_DIR)/txn_bench.sh $(abspath $(BUILD)/damoctl) $(abspath $(TXN_BENCH_DIR)/build/damoctl)

# What an access snapshot of 1,000 regions costs (report access, wss and
# heatmap take them): wall time and peak memory of damon_access_snapshot()
# and of damoctl's reports, on a fake tree on the host (no kernel, no
# guest).  BENCH_REGIONS, BENCH_RUNS change the size and the runs.
BENCH_REGIONS ?= 1000
BENCH_RUNS ?= 20
$(PERF_BUILD)/snapbench: $(PERF_DIR)/snapbench.c $(LIB_A) lib/damos.h
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) -Ilib -o $@ $< $(LIB_A) $(DAMOS_LDFLAGS)

bench-snapshot: $(PERF_BUILD)/snapbench $(DAMOCTL)
	@$(PERF_DIR)/snapshot_bench.sh $(BUILD) $(BENCH_REGIONS) $(BENCH_RUNS)

# What a refresh of the metrics textfile costs with the access telemetry
# (monitor status --format prometheus --output), 1,000 and 10,000 regions
# on a fake tree on the host (tests/perf/telemetry_bench.sh), by the test
# build, whose fake kernel answers the state commands as the kernel does.
.PHONY: bench-telemetry bench-record
bench-telemetry: $(DAMOCTL_TEST)
	@$(PERF_DIR)/telemetry_bench.sh $(abspath $(DAMOCTL_TEST))

# report heatmap|wss --input on records of 1,000 and 10,000 regions x 100
# snapshots, damoctl beside damo: DAMO=path of a damo script (its source,
# e.g. v3.3.0's src and damo from git archive, outside the repository; not
# needed by make check); without it, damoctl alone.
DAMO ?=
bench-record: $(DAMOCTL)
	@$(PERF_DIR)/record_bench.sh $(abspath $(DAMOCTL)) $(if $(DAMO),$(abspath $(DAMO)))
