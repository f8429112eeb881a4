#!/usr/bin/env python3
# kerneldoc.py HEADER MANPAGE: what scripts/kernel-doc -Wall checks, for
# every DAMOS_API declaration of HEADER: a /** comment of its own right
# above it, titled "name() - ", with an "@param:" line per parameter and,
# unless it returns void, a "Return:" section; for every struct and enum
# of HEADER with a body: a /** comment right above it, titled
# "struct name - " or "enum name - ", with an "@member:" line per member
# (per value of an enum).  And that MANPAGE's SYNOPSIS names exactly the
# functions.  One line per fault; exit status 1 if there is any.
import re
import sys

hdr = open(sys.argv[1]).read().split('\n')
man = open(sys.argv[2]).read()
faults = []
api = set()


def doc_above(i):
    """The /** ... */ comment ending right above line i, or None."""
    j = i - 1
    if hdr[j] != ' */':
        return None
    while j > 0 and not hdr[j].startswith('/*'):
        j -= 1
    return hdr[j:i]


def members(body, enum):
    """The names a struct declares or an enum's values."""
    body = re.sub(r'/\*.*?\*/', ' ', body, flags=re.S)
    if enum:
        return [re.match(r'\s*(\w+)', v).group(1)
                for v in body.split(',') if v.strip()]
    names = []
    for decl in body.split(';'):
        if not decl.strip():
            continue
        for part in decl.split(','):
            names.append(re.search(r'(\w+)\s*(\[[^]]*\])?\s*$', part).group(1))
    return names


i = 0
while i < len(hdr):
    m = re.match(r'(struct|enum) (\w+) \{', hdr[i])
    if m:
        kind, name = m.group(1), m.group(2)
        k = i
        while not hdr[k].startswith('};'):
            k += 1
        doc = doc_above(i)
        what = '%s %s' % (kind, name)
        if doc is None:
            faults.append('%s: no comment right above it' % what)
        elif doc[0] != '/**':
            faults.append('%s: its comment is not kernel-doc (/**)' % what)
        elif not doc[1].startswith(' * %s - ' % what):
            faults.append('%s: its comment is titled "%s"' % (what, doc[1][3:]))
        else:
            for mem in members('\n'.join(hdr[i + 1:k]), kind == 'enum'):
                if not any(l.startswith(' * @%s: ' % mem) for l in doc):
                    faults.append('%s: member @%s not described' % (what, mem))
        i = k + 1
        continue
    if not hdr[i].startswith('DAMOS_API'):
        i += 1
        continue
    k = i
    while not hdr[k].rstrip().endswith(';'):
        k += 1
    decl = ' '.join(hdr[i:k + 1])
    m = re.search(r'^DAMOS_API\s+(.*?)\b(dam[a-z]+_\w+)\s*\((.*)\)\s*;', decl)
    ret, name, args = m.group(1).strip(), m.group(2), m.group(3).strip()
    api.add(name)
    params = [] if args == 'void' else \
        [re.search(r'(\w+)\s*(\[\])?$', a.strip()).group(1) for a in args.split(',')]
    doc = doc_above(i)
    if doc is None:
        faults.append('%s: no comment right above it' % name)
    else:
        if doc[0] != '/**':
            faults.append('%s: its comment is not kernel-doc (/**)' % name)
        elif not doc[1].startswith(' * %s() - ' % name):
            faults.append('%s: its comment is titled "%s"' % (name, doc[1][3:]))
        for p in params:
            if not any(l.startswith(' * @%s: ' % p) for l in doc):
                faults.append('%s: parameter @%s not described' % (name, p))
        if ret != 'void' and not any(l.startswith(' * Return: ') for l in doc):
            faults.append('%s: returns %s, no "Return:" section' % (name, ret))
    i = k + 1
in_man = set(re.findall(r'\\fB(dam[a-z]+_\w+)\\fR\(', man))
for f in sorted(api - in_man):
    faults.append('%s: not in %s' % (f, sys.argv[2]))
for f in sorted(in_man - api):
    faults.append('%s: in %s, not in %s' % (f, sys.argv[2], sys.argv[1]))
print('\n'.join(faults))
sys.exit(1 if faults else 0)
