# cli: damoctl, linked against the static libdamos so that it runs from
# the build directory and in the guest without installing the library.

CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(CLI_SRCS:cli/%.c=$(BUILD)/cli/%.o)
DAMOCTL := $(BUILD)/damoctl

ALL_TARGETS += $(DAMOCTL)
INSTALL_TARGETS += install-cli

$(BUILD)/cli/%.o: cli/%.c cli/cli.h lib/damos.h cli/cli.mk
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) -DDAMOS_VERSION='"$(VERSION)"' -Ilib -c -o $@ $<

$(DAMOCTL): $(CLI_OBJS) $(LIB_A)
	$(CC) -o $@ $(CLI_OBJS) $(LIB_A) $(DAMOS_LDFLAGS)

.PHONY: install-cli
install-cli: $(DAMOCTL)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(DAMOCTL) $(DESTDIR)$(BINDIR)/
