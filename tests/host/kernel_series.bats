#!/usr/bin/env bats
# The kernel series as files (kernel/patches/VERSION/): what a reviewer
# reads and what `make kernel` applies agree.  kernel-lint checks each
# patch's code (checkpatch, bisectable build); this checks the posting:
# the series file lists exactly the patch files, in order; every patch is
# numbered k/N of the series and carries the cover letter's version
# prefix ("PATCH v2"); every patch is signed off; the cover letter lists
# every patch's subject.  Only reads files of the repository.

KP=$BATS_TEST_DIRNAME/../../kernel/patches

versions() { (cd "$KP" && ls -d */ | tr -d /); }

# subject FILE: the patch's Subject, its continuation lines joined
subject() {
	sed -n '/^Subject: /{s/^Subject: //;h;:a;n;/^ /{s/^ //;H;ba};x;s/\n/ /g;p;q}' "$1"
}

@test "kernel series: there is a series for 6.1 and for 6.12" {
	# whole lines: "6.12" must not stand for "6.1"
	versions | grep -qx '6\.1'
	versions | grep -qx '6\.12'
}

@test "kernel series: the series file lists exactly the patch files, in order" {
	local v
	for v in $(versions); do
		run diff <(cd "$KP/$v" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') \
			<(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KP/$v/series")
		[ "$status" = 0 ] || { echo "$v: $output"; return 1; }
	done
}

@test "kernel series: every patch is k/N with the cover letter's prefix, and signed off" {
	local v p prefix n k subj
	for v in $(versions); do
		prefix=$(subject "$KP/$v/0000-cover-letter.patch" | sed -n 's/^\[\(PATCH[^]]*\) 0*0\/[0-9]*\].*/\1/p')
		[ -n "$prefix" ] || { echo "$v: no [PATCH ... 00/N] cover letter subject"; return 1; }
		n=$(grep -cv '^[[:space:]]*\(#\|$\)' "$KP/$v/series")
		subj=$(subject "$KP/$v/0000-cover-letter.patch")
		[[ $subj == "[$prefix $(printf '%02d' 0)/$n] "* ]] ||
			{ echo "$v: cover letter says '$subj', the series has $n patches"; return 1; }
		k=0
		while read -r p; do
			k=$((k + 1))
			subj=$(subject "$KP/$v/$p")
			[[ $subj == "[$prefix $(printf '%02d/%02d' "$k" "$n")] "* ]] ||
				{ echo "$v/$p: '$subj' is not [$prefix $k/$n]"; return 1; }
			grep -q '^Signed-off-by: .* <.*@.*>$' "$KP/$v/$p" ||
				{ echo "$v/$p: no Signed-off-by"; return 1; }
		done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KP/$v/series")
	done
}

@test "kernel series: the cover letter lists every patch's subject" {
	local v p subj cover
	for v in $(versions); do
		# the shortlog wraps long subjects: compare with blanks squeezed
		cover=$(sed -n '/^[^ ].* ([0-9]*):$/,/^$/p' "$KP/$v/0000-cover-letter.patch" |
			tr -s ' \n' '  ')
		while read -r p; do
			subj=$(subject "$KP/$v/$p" | sed 's/^\[[^]]*\] //')
			[[ $cover == *"$subj"* ]] ||
				{ echo "$v: the cover letter's list lacks '$subj'"; return 1; }
		done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KP/$v/series")
	done
}
