// SPDX-License-Identifier: GPL-2.0
/*
 * damos-reboot: end the guest. The guest has no init system (no poweroff
 * binary) and the trimmed kernel may have no ACPI, so powering off could just
 * halt; a reboot works on any x86 config and QEMU, started with -no-reboot,
 * exits on it. sync() first: reboot(2) itself does not.
 */
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	perror("damos-reboot: reboot");
	return 1;
}
