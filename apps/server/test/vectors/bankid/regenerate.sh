#!/bin/sh
# Remakes the independent BankID envelope vectors (one folder per shape: shapes.ts), or only the folders
# named (./regenerate.sh static-in-envelope). Needs Java 17 and Bouncy Castle (Debian: apt-get install -y
# libbcprov-java libbcutil-java). CI only reads the committed files.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
cd "$root"
./node_modules/.bin/node "$here/make-inputs.ts" "$@"
classes=$(mktemp -d)
jars=/usr/share/java/bcprov.jar:/usr/share/java/bcutil.jar
javac -cp "$jars" -d "$classes" "$here/BankIdEnvelope.java"
for shape in "$here"/.work-shape.txt "$here"/*/.work-shape.txt; do
  [ -f "$shape" ] || continue
  dir=$(dirname "$shape")
  java -cp "$classes:$jars" BankIdEnvelope "$dir"
  rm -f "$dir"/.work-*
done
rm -rf "$classes"
