# guest-image: Debian guest, QEMU runner, in-guest suites.
.PHONY: check-guest
check-guest:
	@echo "check-guest: the QEMU guest harness is not built yet" >&2; exit 1
