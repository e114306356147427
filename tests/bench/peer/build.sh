#!/bin/sh
# Build the peer of issue #38 (mchung94/solitaire-player's Pyramid solver) from its own source:
#   tests/bench/peer/build.sh PEER_SRC OUT
# PEER_SRC is a checkout of github.com/mchung94/solitaire-player (not kept in this repository);
# OUT receives peer-pyramid.jar (its package com.secondthorn.solitaireplayer.solvers.pyramid and
# its Pyramid/Pyramid.json) and lib/ (the two libraries that package uses). Then
# PYRAMIDE_PEER=OUT python -m tests.bench shortest runs it beside ours (tests/bench/bench_peer.py).
#
# Its Gradle build is not used: it asks for SikuliX (a snapshot), JNA and a jcenter() that no
# longer serves, all for the screen-reading player, which the solver does not use. The solver
# needs Trove 3.0.3 (the version its build names) and Jackson databind (2.9.9.3 there; Debian's
# 2.14 here, which only reads Pyramid.json at start-up, outside the times measured).
set -eu
SRC=${1:?usage: build.sh PEER_SRC OUT}
OUT=${2:?usage: build.sh PEER_SRC OUT}
PKG=src/main/java/com/secondthorn/solitaireplayer/solvers/pyramid
[ -d "$SRC/$PKG" ] || { echo "no $PKG under $SRC: is it a checkout of mchung94/solitaire-player?" >&2; exit 1; }
LIBS="trove4j jackson-databind jackson-core jackson-annotations"
for lib in $LIBS; do
    [ -f "/usr/share/java/$lib.jar" ] || { echo "missing /usr/share/java/$lib.jar: apt-get install libtrove3-java libjackson2-databind-java" >&2; exit 1; }
done
command -v javac >/dev/null || { echo "missing javac (a JDK 11 or later)" >&2; exit 1; }
rm -rf "$OUT/classes" "$OUT/lib" "$OUT/peer-pyramid.jar"
mkdir -p "$OUT/classes/Pyramid" "$OUT/lib"
for lib in $LIBS; do cp "/usr/share/java/$lib.jar" "$OUT/lib/"; done
CP=$(for lib in $LIBS; do printf '%s:' "$OUT/lib/$lib.jar"; done)
javac -nowarn -encoding UTF-8 -d "$OUT/classes" -cp "$CP" "$SRC/$PKG"/*.java
cp "$SRC/src/main/resources/Pyramid/Pyramid.json" "$OUT/classes/Pyramid/"
(cd "$OUT/classes" && jar cf ../peer-pyramid.jar .)
rm -rf "$OUT/classes"
if command -v git >/dev/null && git -C "$SRC" rev-parse HEAD >/dev/null 2>&1; then
    git -C "$SRC" rev-parse HEAD > "$OUT/SOURCE_COMMIT"
fi
echo "built $OUT/peer-pyramid.jar; run: PYRAMIDE_PEER=$OUT python -m tests.bench shortest"
