# Sourced by ./tablescan and .ci/run: sets JAVA_HOME to a JDK of version 21 or newer, or fails with one line.
# Looks at JAVA_HOME, the usual JVM folders and the java on PATH; prefers the newest.

java_major() { # prints the major version of the java binary $1, or 0
  local v release
  # A JDK's release file names its version: reading it spares starting a JVM per candidate (~60 ms each).
  release="$(dirname "$(dirname "$1")")/release"
  v=$(sed -n 's/^JAVA_VERSION="\([0-9.]*\).*/\1/p' "$release" 2>/dev/null | head -n 1)
  [ -n "$v" ] || v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  case "$v" in 1.*) v=${v#1.} ;; esac
  v=${v%%.*}
  [[ "$v" =~ ^[0-9]+$ ]] && echo "$v" || echo 0
}

find_jdk() {
  local best="" best_major=0 candidate major
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for dir in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$dir" ] && candidates+=("$dir")
  done
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for candidate in "${candidates[@]}"; do
    [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(java_major "$candidate/bin/java")
    if [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate"; best_major="$major"
    fi
  done
  [ -n "$best" ] && echo "$best"
}

if ! TABLESCAN_JDK=$(find_jdk); then
  echo "tablescan: no JDK 21 or newer found (set JAVA_HOME to one)" >&2
  return 1 2>/dev/null || exit 1
fi
export JAVA_HOME="$TABLESCAN_JDK"
TABLESCAN_JDK_MAJOR=$(java_major "$JAVA_HOME/bin/java")
# netty (in the Azure SDK) uses sun.misc.Unsafe and native access; newer JDKs warn about both at start-up.
TABLESCAN_JVM_FLAGS="--enable-native-access=ALL-UNNAMED"
if [ "$TABLESCAN_JDK_MAJOR" -ge 23 ]; then
  TABLESCAN_JVM_FLAGS="$TABLESCAN_JVM_FLAGS --sun-misc-unsafe-memory-access=allow"
fi
