# Sourced by ./tablescan and .ci/run: sets JAVA_HOME to a JDK of version 21 or newer, or fails with one line.
# Looks at JAVA_HOME, the usual JVM folders and the java on PATH; prefers the newest. Bash built-ins where it can:
# every command's start runs this, and each program it would start costs a millisecond or more.

release_value() { # sets RELEASE_VALUE to the value of $2 in the release file of the JDK in folder $1, or ""
  local line
  RELEASE_VALUE=""
  [ -r "$1/release" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in "$2="*) RELEASE_VALUE="${line#*=}"; RELEASE_VALUE="${RELEASE_VALUE//\"/}"; return 0 ;; esac
  done < "$1/release"
}

java_major() { # sets JAVA_MAJOR to the major version of the JDK in folder $1, or 0
  local v
  # A JDK's release file names its version: reading it spares starting a JVM per candidate (~60 ms each).
  release_value "$1" JAVA_VERSION
  v="$RELEASE_VALUE"
  [ -n "$v" ] || v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  case "$v" in 1.*) v=${v#1.} ;; esac
  v=${v%%[!0-9]*}
  if [[ "$v" =~ ^[0-9]+$ ]]; then JAVA_MAJOR=$v; else JAVA_MAJOR=0; fi
}

find_jdk() { # sets TABLESCAN_JDK and TABLESCAN_JDK_MAJOR to the newest JDK >= 21, or fails
  local candidate java
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$candidate" ] && candidates+=("$candidate")
  done
  if java=$(command -v java); then
    java=$(readlink -f "$java")
    candidates+=("${java%/bin/java}")
  fi
  TABLESCAN_JDK="" TABLESCAN_JDK_MAJOR=0
  for candidate in "${candidates[@]}"; do
    [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    java_major "$candidate"
    if [ "$JAVA_MAJOR" -ge 21 ] && [ "$JAVA_MAJOR" -gt "$TABLESCAN_JDK_MAJOR" ]; then
      TABLESCAN_JDK="$candidate"; TABLESCAN_JDK_MAJOR="$JAVA_MAJOR"
    fi
  done
  [ -n "$TABLESCAN_JDK" ]
}

if ! find_jdk; then
  echo "tablescan: no JDK 21 or newer found (set JAVA_HOME to one)" >&2
  return 1 2>/dev/null || exit 1
fi
export JAVA_HOME="$TABLESCAN_JDK"
# netty (in the Azure SDK) uses sun.misc.Unsafe and native access; newer JDKs warn about both at start-up.
TABLESCAN_JVM_FLAGS="--enable-native-access=ALL-UNNAMED"
if [ "$TABLESCAN_JDK_MAJOR" -ge 23 ]; then
  TABLESCAN_JVM_FLAGS="$TABLESCAN_JVM_FLAGS --sun-misc-unsafe-memory-access=allow"
fi
