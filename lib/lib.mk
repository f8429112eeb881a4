# lib: libdamos, static and shared (soname and version script from VERSION).

# The version story, from VERSION alone: release 0.N.x ships
# libdamos.so.(N-1) with one symbol node, LIBDAMOS_N.0 (0.1: .so.0 and
# LIBDAMOS_1.x; 0.2: .so.1 and LIBDAMOS_2.0).  The linker, dpkg and man
# read lib/libdamos.map, debian/control and the pages' .TH as files, so
# they (and lib/damos.h's comments) spell the numbers out; check-version (check-host) and the link
# refuse a tree where one disagrees with VERSION.
VERSION_MINOR := $(word 2,$(subst ., ,$(VERSION)))
LIB_SOMAJOR := $(shell echo $$(( $(VERSION_MINOR) - 1 )))
LIB_NODE := LIBDAMOS_$(VERSION_MINOR).0
# _FORTIFY_SOURCE as Debian's build flags have it (dpkg-buildflags): its
# warn_unused_result checks fail this build here, not first in make deb.
CFLAGS ?= -O2 -g -D_FORTIFY_SOURCE=2
DAMOS_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wformat=2 \
	-Wmissing-prototypes -Wstrict-prototypes -Wno-format-nonliteral \
	-D_GNU_SOURCE $(CFLAGS) $(EXTRA_CFLAGS)
DAMOS_LDFLAGS := $(LDFLAGS) $(EXTRA_LDFLAGS)

LIB_SRCS := $(wildcard lib/*.c)
LIB_OBJS := $(LIB_SRCS:lib/%.c=$(BUILD)/lib/%.o)
LIB_A := $(BUILD)/libdamos.a
LIB_SO := $(BUILD)/libdamos.so.$(VERSION)
LIB_PC := $(BUILD)/libdamos.pc

ALL_TARGETS += $(LIB_A) $(LIB_SO) $(LIB_PC)
INSTALL_TARGETS += install-lib

$(BUILD)/lib/%.o: lib/%.c lib/damos.h lib/damos-private.h lib/internal.h lib/lib.mk
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) -fPIC -fvisibility=hidden \
		-DDAMOS_VERSION='"$(VERSION)"' -Ilib -c -o $@ $<

$(LIB_A): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJS) lib/libdamos.map VERSION
	@grep -qx '$(LIB_NODE) {' lib/libdamos.map || { echo "lib/libdamos.map: its node is not $(LIB_NODE), which VERSION $(VERSION) makes" >&2; exit 1; }
	$(CC) -shared -Wl,-soname,libdamos.so.$(LIB_SOMAJOR) \
		-Wl,--version-script=lib/libdamos.map -Wl,--no-undefined \
		$(DAMOS_LDFLAGS) -o $@ $(LIB_OBJS)
	ln -sf $(@F) $(BUILD)/libdamos.so.$(LIB_SOMAJOR)
	ln -sf libdamos.so.$(LIB_SOMAJOR) $(BUILD)/libdamos.so

PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|'

# Rebuilt on every install too: PREFIX and LIBDIR may differ from the build.
$(LIB_PC): lib/libdamos.pc.in VERSION
	@mkdir -p $(@D)
	$(PC_SED) $< > $@

.PHONY: install-lib check-version
install-lib: $(LIB_A) $(LIB_SO) $(LIB_PC)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/libdamos.so.$(LIB_SOMAJOR)
	ln -sf libdamos.so.$(LIB_SOMAJOR) $(DESTDIR)$(LIBDIR)/libdamos.so
	install -m 644 lib/damos.h $(DESTDIR)$(INCLUDEDIR)/
	$(PC_SED) lib/libdamos.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libdamos.pc

# Every spelt-out copy of the version story agrees with VERSION.
CHECK_HOST_TARGETS += check-version
check-version:
	@grep -qx '$(LIB_NODE) {' lib/libdamos.map || { echo "check-version: lib/libdamos.map's node is not $(LIB_NODE)" >&2; exit 1; }
	@[ "$$(grep -c '^[A-Z_0-9.]* {' lib/libdamos.map)" = 1 ] || { echo "check-version: lib/libdamos.map has more than one node" >&2; exit 1; }
	@grep -qx 'Package: libdamos$(LIB_SOMAJOR)' debian/control || { echo "check-version: debian/control has no package libdamos$(LIB_SOMAJOR)" >&2; exit 1; }
	@test -f tests/abi/libdamos-$(VERSION_MINOR).0.abi || { echo "check-version: no ABI baseline tests/abi/libdamos-$(VERSION_MINOR).0.abi" >&2; exit 1; }
	@! grep -o 'LIBDAMOS_[0-9]*' lib/damos.h | grep -vqx 'LIBDAMOS_$(VERSION_MINOR)' || { echo "check-version: lib/damos.h names a node other than LIBDAMOS_$(VERSION_MINOR)" >&2; exit 1; }
	@for p in man/*.[0-9]; do grep -q '^\.TH .* "damos $(VERSION)"' $$p || { echo "check-version: $$p's .TH does not name damos $(VERSION)" >&2; exit 1; }; done
	@echo "check-version: $(VERSION): libdamos.so.$(LIB_SOMAJOR), $(LIB_NODE), package libdamos$(LIB_SOMAJOR), man pages"
