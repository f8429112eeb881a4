# /etc/profile.d/damos.sh in the guest (copied there at every boot).
# The project's binaries and man pages live under /usr/local.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PAGER=less LESS=-R
# make run: the host terminal's TERM and size (serial lines know neither)
[ -r /etc/damos-term ] && . /etc/damos-term
# The host's TERM may be unknown to the guest's terminfo: fall back.
if [ -n "${TERM:-}" ] && [ ! -e "/usr/share/terminfo/${TERM:0:1}/$TERM" ] &&
	[ ! -e "/lib/terminfo/${TERM:0:1}/$TERM" ]; then
	export TERM=vt100
fi
