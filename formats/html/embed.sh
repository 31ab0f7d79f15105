#!/bin/sh
# Turn a file into a C byte array: embed.sh NAME FILE > NAME.c
# (od and awk only: no xxd on a bare machine).
set -e
name=$1
file=$2
printf '/* Generated from %s by formats/html/embed.sh: do not edit. */\n' "$file"
printf 'const unsigned char %s[] = {\n' "$name"
od -An -v -tu1 "$file" | awk '{ s = ""; for (i = 1; i <= NF; i++) s = s $i ","; print "\t" s }'
printf '\t0\n};\n'
