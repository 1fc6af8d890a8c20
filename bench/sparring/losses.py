#!/usr/bin/env python3
"""Writes the games of a PDN file that the named player lost (to sift them)."""
import re, sys
path, name = sys.argv[1], sys.argv[2]
games = re.split(r'\n(?=\[Event )', open(path).read().strip())
for g in games:
    tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
    lost = (tags.get('White') == name and tags.get('Result') == '0-2') or \
           (tags.get('Black') == name and tags.get('Result') == '2-0')
    if lost:
        print(g + '\n')
