#!/bin/sh
# Remakes the independent Diia OCSP vectors (one folder per answer: vectors.ts). Needs Java 17 and Bouncy
# Castle with its PKIX part (Debian: apt-get install -y libbcprov-java libbcutil-java libbcpkix-java). CI only
# reads the committed files.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
cd "$root"
./node_modules/.bin/node "$here/make-inputs.ts"
classes=$(mktemp -d)
jars=/usr/share/java/bcprov.jar:/usr/share/java/bcutil.jar:/usr/share/java/bcpkix.jar
javac -cp "$jars" -d "$classes" "$here/DiiaOcsp.java"
for vector in "$here"/*/.work-vector.txt; do
  dir=$(dirname "$vector")
  java -cp "$classes:$jars" DiiaOcsp "$dir"
  rm -f "$dir"/.work-*
done
rm -rf "$classes"
