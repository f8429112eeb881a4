# man: damoctl(8).

INSTALL_TARGETS += install-man

.PHONY: install-man
install-man:
	install -d $(DESTDIR)$(MANDIR)/man8
	install -m 644 man/damoctl.8 $(DESTDIR)$(MANDIR)/man8/
