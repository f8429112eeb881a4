# lib: libdamos, static and shared (soname libdamos.so.1, version script).

LIB_SOMAJOR := 1
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

$(BUILD)/lib/%.o: lib/%.c lib/damos.h lib/internal.h lib/lib.mk
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) -fPIC -fvisibility=hidden \
		-DDAMOS_VERSION='"$(VERSION)"' -Ilib -c -o $@ $<

$(LIB_A): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJS) lib/libdamos.map
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

.PHONY: install-lib
install-lib: $(LIB_A) $(LIB_SO) $(LIB_PC)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/libdamos.so.$(LIB_SOMAJOR)
	ln -sf libdamos.so.$(LIB_SOMAJOR) $(DESTDIR)$(LIBDIR)/libdamos.so
	install -m 644 lib/damos.h $(DESTDIR)$(INCLUDEDIR)/
	$(PC_SED) lib/libdamos.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libdamos.pc
