# tests: C unit tests (cmocka) and bats tests of damoctl against fake trees.
#
#   make check-host        unit tests, then the bats host suite
#   make check-sanitize    the same, built with ASan + UBSan in $(BUILD)/san
#   make update-golden     regenerate tests/host/golden/ (review the diff)

DEPS += libcmocka-dev bats bats-assert bats-support bats-file
CHECK_HOST_TARGETS += check-unit check-bats

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

$(BUILD)/tests/%: tests/unit/%.c $(LIB_A) lib/damos.h
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) -Wno-missing-prototypes -Ilib -o $@ $< $(LIB_A) \
		$(DAMOS_LDFLAGS) -lcmocka

.PHONY: check-unit check-bats check-sanitize update-golden
check-unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do \
		DAMOS_SRCDIR=$(CURDIR) $$t || fail=1; \
	done; exit $$fail

check-bats: $(BUILD)/damoctl
	DAMOCTL=$(abspath $(BUILD)/damoctl) bats tests/host

SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
check-sanitize:
	$(MAKE) BUILD=$(BUILD)/san EXTRA_CFLAGS="$(SAN_FLAGS)" \
		EXTRA_LDFLAGS="$(SAN_FLAGS)" check-host

update-golden: $(BUILD)/damoctl
	UPDATE_GOLDEN=1 DAMOCTL=$(abspath $(BUILD)/damoctl) bats tests/host
