#!/bin/sh
# Remakes the independent BankID envelope vector. Needs Java 17 and Bouncy Castle
# (Debian: apt-get install -y libbcprov-java libbcpkix-java). CI only reads the committed files.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../../.." && pwd)
cd "$root"
./node_modules/.bin/node "$here/make-inputs.ts"
classes=$(mktemp -d)
javac -cp /usr/share/java/bcprov.jar:/usr/share/java/bcutil.jar -d "$classes" "$here/BankIdEnvelope.java"
java -cp "$classes:/usr/share/java/bcprov.jar:/usr/share/java/bcutil.jar" BankIdEnvelope "$here"
rm -rf "$classes" "$here"/.work-*
