# man: damoctl(8), damoctl.conf(5), libdamos(3); make check-man lints them.

INSTALL_TARGETS += install-man

.PHONY: install-man
install-man:
	install -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man3
	install -m 644 man/damoctl.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 man/damoctl.conf.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 man/libdamos.3 $(DESTDIR)$(MANDIR)/man3/

DEPS += mandoc
CHECK_HOST_TARGETS += check-man
.PHONY: check-man
check-man:
	mandoc -Tlint -Wwarning man/damoctl.8 man/damoctl.conf.5 man/libdamos.3
