# cli: damoctl, linked against the static libdamos so that it runs from
# the build directory and in the guest without installing the library.

CLI_SRCS := $(wildcard cli/*.c)
# Command tables leave the trailing optional fields (flags, run) out.
CLI_CFLAGS := -Wno-missing-field-initializers
CLI_OBJS := $(CLI_SRCS:cli/%.c=$(BUILD)/cli/%.o)
DAMOCTL := $(BUILD)/damoctl

ALL_TARGETS += $(DAMOCTL)
INSTALL_TARGETS += install-cli

$(BUILD)/cli/%.o: cli/%.c cli/cli.h cli/conf.h lib/damos.h lib/damos-private.h cli/cli.mk
	@mkdir -p $(@D)
	$(CC) $(DAMOS_CFLAGS) $(CLI_CFLAGS) -DDAMOS_VERSION='"$(VERSION)"' -Ilib -c -o $@ $<

# GNU readline for the interactive shell (cli/shell.c).
DEPS += libreadline-dev
CLI_LIBS := -lreadline
# json-c for every --json document and for reading damo's specs: unlike
# jansson (signed json_int_t), it writes and parses a u64 exactly.
DEPS += libjson-c-dev
CLI_LIBS += -ljson-c
# zlib for damo's json_compressed records (cli/record.c)
DEPS += zlib1g-dev
CLI_LIBS += -lz

# Always the static library: damoctl uses libdamos' private functions
# (lib/damos-private.h), which libdamos.so does not export.
$(DAMOCTL): $(CLI_OBJS) $(LIB_A)
	$(CC) -o $@ $(CLI_OBJS) $(LIB_A) $(DAMOS_LDFLAGS) $(CLI_LIBS)

# the bash completion and the systemd unit that applies /etc/damoctl.conf
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system

.PHONY: install-cli
install-cli: $(DAMOCTL)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(DAMOCTL) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 644 cli/damoctl.bash-completion $(DESTDIR)$(BASHCOMPDIR)/damoctl
	sed 's|@BINDIR@|$(BINDIR)|g' cli/damoctl.service > $(DESTDIR)$(SYSTEMDUNITDIR)/damoctl.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/damoctl.service
	sed 's|@BINDIR@|$(BINDIR)|g' cli/damoctl-metrics.service > $(DESTDIR)$(SYSTEMDUNITDIR)/damoctl-metrics.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/damoctl-metrics.service
	install -m 644 cli/damoctl-metrics.timer $(DESTDIR)$(SYSTEMDUNITDIR)/
	sed 's|@BINDIR@|$(BINDIR)|g' cli/damoctl-tier.service > $(DESTDIR)$(SYSTEMDUNITDIR)/damoctl-tier.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/damoctl-tier.service
