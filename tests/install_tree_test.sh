#!/usr/bin/env bash
# The installed package is the public API and nothing more:
#   - include/ holds exactly include/fts/*.h (and the generated version.h),
#     each compiling alone against the install tree, none including a header
#     outside <fts/...> and the standard library;
#   - libfts.so has a SONAME and exports only fts:: names of the public API;
#   - with PYTHON given (the build has the Python module), the module is
#     installed into the site packages under the prefix, loads the installed
#     libfts, and `import fts` from there indexes and searches.
#   install_tree_test.sh SOURCE_DIR BUILD_DIR [PYTHON]
set -euo pipefail
src=$1 build=$2 python=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
fail() { echo "install_tree_test: $*" >&2; exit 1; }

expected=$( (cd "$src/include" && ls fts/*.h; echo fts/version.h) | sort -u)
installed=$(cd "$tmp/prefix/include" && find . -type f | sed 's|^\./||' | sort)
[ "$expected" = "$installed" ] || fail "installed headers differ from include/fts/:"$'\n'"$(diff <(echo "$expected") <(echo "$installed"))"

for h in $installed; do
  bad=$(grep -h '^#include "' "$tmp/prefix/include/$h" | grep -v '^#include "fts/' || true)
  [ -z "$bad" ] || fail "$h includes a header outside fts/: $bad"
  echo "#include <$h>" | g++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I"$tmp/prefix/include" -x c++ - \
    || fail "$h does not compile alone against the install tree"
done

lib=$(find "$tmp/prefix" -name 'libfts.so.*.*' | head -1)
[ -n "$lib" ] || fail "no libfts.so.X.Y installed"
soname=$(objdump -p "$lib" | awk '/SONAME/ {print $2}')
[[ "$soname" =~ ^libfts\.so\.[0-9]+$ ]] || fail "libfts has SONAME '$soname', want libfts.so.MAJOR"

# Every fts:: name in an exported symbol is a public class, function or
# value type; the nested implementation types (Impl, Shared) stay hidden.
public='Error|IndexError|QuerySyntaxError|DumpError|LockError|IoError|ArgumentError|TimeoutError|CancelledError|Index|Query|IndexWriter|Stopwords'
public+='|add_dump|Document|DumpOptions|SearchOptions|IndexWriterOptions|BuildStats|Results|Hit|Highlight|CacheStats|ExplainNode'
names=$(nm -D --defined-only -C "$lib" | cut -d' ' -f3- | grep -o 'fts::[A-Za-z_]*\(::[A-Za-z_]\+\)*' | sort -u)
leaks=$(echo "$names" | grep -Ev "^fts::($public)(::[A-Za-z_]+)?$" || true)
leaks+=$(echo "$names" | grep -E '::(Impl|Shared)(::|$)' || true)
[ -z "$leaks" ] || fail "libfts exports internals:"$'\n'"$leaks"
echo "install tree: $(echo "$installed" | wc -l) public headers, SONAME $soname, exports only the API"

[ -n "$python" ] || exit 0
module=$(find "$tmp/prefix" -name 'fts.cpython-*.so')
[ "$(echo "$module" | grep -c .)" = 1 ] || fail "want one Python module fts.cpython-*.so installed, found: '$module'"
site=$(dirname "$module")
[[ "$site" =~ /(site|dist)-packages$ ]] || fail "Python module installed into $site, not site packages"
resolved=$(ldd "$module" | awk '/libfts\.so/ {print $3}')
[ -n "$resolved" ] && [ "$(realpath "$resolved")" = "$(realpath "$lib")" ] || fail "installed module loads libfts from '$resolved', not the install tree"
(cd "$tmp" && PYTHONPATH="$site" "$python" - "$site" "$tmp/py-index" "$src/data/sample.xml") <<'PY' || fail "import fts from the install tree failed"
import sys
site, index_dir, sample = sys.argv[1:]
import fts
assert fts.__file__.startswith(site), fts.__file__
with fts.IndexWriter(index_dir) as writer:
    writer.add_dump(sample)
hits = fts.Index(index_dir).search("wild cat", limit=1)
assert hits.total_hits == 17 and hits[0].title == "Wild cat", hits
PY
echo "install tree: import fts works from $site"
