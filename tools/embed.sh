#!/bin/sh
# Writes a C file that holds FILE's bytes as the array NAME (and NAME_len).
# Usage: tools/embed.sh NAME FILE > out.c
set -eu
name=$1
file=$2
echo "/* generated from $file by tools/embed.sh; do not edit */"
echo "#include <stddef.h>"
echo "const unsigned char ${name}[] = {"
od -An -v -tx1 "$file" | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^/\t/'
echo "0x00 };"
echo "const size_t ${name}_len = sizeof(${name}) - 1;"
