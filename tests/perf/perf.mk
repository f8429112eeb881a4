# tests/perf: the PLRUS benchmark (see tests/perf/README.md).
#
#   make bench                  full run in the guest (~30-40 min under TCG)
#   make bench BENCH_QUICK=1    short smoke run (< 10 min)
#
# The workload and the driver run in the guest on the patched kernel; the
# floor, the table and the plot are computed on the host from the results
# the guest leaves in $(BENCH_OUT).

PERF_DIR := tests/perf
PERF_BUILD := $(BUILD)/perf
PERF_CFLAGS ?= -O2 -g -Wall -Wextra
PERF_BINS := $(PERF_BUILD)/hotcold $(PERF_BUILD)/hcoracle

BENCH_QUICK ?= 0
BENCH_ROUNDS ?= 5
BENCH_CONFIGS ?= orig mprs plrus-dbgfs plrus-sysfs lru_sort lru_sort-tuned
BENCH_VIA ?= damoctl
# relative to the repository, so that the guest sees it under BENCH_GUEST_REPO;
# expanded once, or the timestamp would change between recipe lines
ifeq ($(origin BENCH_OUT),undefined)
BENCH_OUT := $(PERF_BUILD)/results/$(shell date +%Y%m%d-%H%M%S)$(if $(filter 1,$(BENCH_QUICK)),-quick)
endif
# Where the repository appears inside the guest (the runner's shared folder).
BENCH_GUEST_REPO ?= /mnt/damos

DEPS += libc6-dev gnuplot-nox
CHECK_HOST_TARGETS += check-perf-host
CLEAN_FILES += $(PERF_BUILD)

.PHONY: perf bench check-perf-host

perf: $(PERF_BINS)

# static: the guest gets the binary through a shared folder, whatever libc
# its image carries
$(PERF_BUILD)/hotcold: $(PERF_DIR)/hotcold.c $(PERF_DIR)/hctrace.h
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) -static -o $@ $<

$(PERF_BUILD)/hcoracle: $(PERF_DIR)/hcoracle.c $(PERF_DIR)/hctrace.h
	@mkdir -p $(@D)
	$(CC) $(PERF_CFLAGS) -o $@ $<

check-perf-host: $(PERF_BINS)
	$(PERF_DIR)/selftest.sh $(PERF_BUILD)

# One guest boot runs every configuration; the host load is noted before and
# after, since other builds on the machine make the figures noisy.
bench: $(PERF_BINS)
	@mkdir -p $(BENCH_OUT)
	@cp $(PERF_DIR)/bench.sh $(PERF_BUILD)/hotcold $(BENCH_OUT)/
	@echo "before: $$(cat /proc/loadavg)" > $(BENCH_OUT)/host-load.txt
	$(MAKE) --no-print-directory run CMD='BENCH_QUICK=$(BENCH_QUICK) BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_CONFIGS="$(BENCH_CONFIGS)" BENCH_VIA=$(BENCH_VIA) HOTCOLD=$(BENCH_GUEST_REPO)/$(BENCH_OUT)/hotcold $(BENCH_GUEST_REPO)/$(BENCH_OUT)/bench.sh -o $(BENCH_GUEST_REPO)/$(BENCH_OUT)'
	@echo "after: $$(cat /proc/loadavg)" >> $(BENCH_OUT)/host-load.txt
	@$(PERF_DIR)/analyze.sh $(BENCH_OUT) $(PERF_BUILD)
