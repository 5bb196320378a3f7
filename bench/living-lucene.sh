#!/usr/bin/env bash
# Lucene 8's side of bench/living.sh step 2, for calibration: the same
# seeded dump as 20 segments of DOCS/20 docs with every tenth doc deleted
# (ids 0, 10, 20, ...), beside the same index force-merged to one (the
# deletes purged), with the same query sets, modes, rounds and least
# medians: how much more the 20 segments cost Lucene, beside what they cost
# fts (a dictionary lookup, a cursor and a tail per term and segment).
#
#   bench/living-lucene.sh [--docs N] [--out DIR] [--sets "and or ..."] [--reps N] [--rounds N]
# Defaults as living.sh's (OUT=/tmp/fts-living: the dump is shared with it).
# The harness is ../shared/peers/lucene/LuceneHarness.java with its build
# changed (no merges, a flush every DOCS/20 docs, an `ord` key to delete by,
# and a `merge` command), patched into OUT/lucene-living at each run. Needs
# liblucene8-java and a JDK, as bench/compare.sh's Lucene. WARMUP_S seconds
# of warm-up per query file (default 10). Run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
DOCS=1000000 OUT=/tmp/fts-living SETS="" REPS=5 ROUNDS=3 WARMUP_S=${WARMUP_S:-10}
while [ $# -gt 0 ]; do
  case "$1" in
    --docs) DOCS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) echo "usage: $0 [--docs N] [--out DIR] [--sets LIST] [--reps N] [--rounds N]" >&2; exit 2 ;;
  esac
done
. bench/lib.sh  # time_segments_against_merged (no fts build: bench_setup is not called)
SHARED=${SHARED:-$(cd .. && pwd)/shared}
[ -d "$SHARED/queries" ] || { echo "living-lucene.sh: $SHARED/queries not found (set SHARED)" >&2; exit 1; }
[ -n "$SETS" ] || SETS=$(valid_query_sets)
mkdir -p "$OUT"
main=$OUT/zipf$DOCS.xml.gz
[ -f "$main" ] || python3 "$SHARED/corpus/make-zipf-dump.py" "$DOCS" "$main" --seed 42 >&2

work=$OUT/lucene-living
mkdir -p "$work/classes"
lucene_jar() {  # as peers/lucene/build.sh finds them
  for j in /usr/share/java/lucene8-"$1".jar /usr/share/java/lucene-"$1"-8*.jar; do
    if [ -f "$j" ]; then echo "$j"; return 0; fi
  done
  echo "living-lucene.sh: Lucene 8 jar '$1' not found (apt-get install liblucene8-java)" >&2
  exit 1
}
core=$(lucene_jar core)  # apart: in one assignment only the last substitution's failure would stop the script
common=$(lucene_jar analyzers-common)
cp=$core:$common
python3 - "$SHARED/peers/lucene/LuceneHarness.java" "$work/LivingHarness.java" "$DOCS" <<'PY'
import sys
src, dst, docs = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(src).read().replace("LuceneHarness", "LivingHarness")
def patch(old, new):
    global s
    if old not in s:
        sys.exit(f"living-lucene.sh: the shared harness changed, cannot patch: {old.strip()[:60]}")
    s = s.replace(old, new, 1)
patch("import org.apache.lucene.document.TextField;",
      "import org.apache.lucene.document.TextField;\nimport org.apache.lucene.document.StringField;\n"
      "import org.apache.lucene.index.NoMergePolicy;")
patch("            cfg.setRAMBufferSizeMB(ramMb);\n", "")
patch("""            LogByteSizeMergePolicy mp = new LogByteSizeMergePolicy();
            mp.setNoCFSRatio(0.0);
            cfg.setMergePolicy(mp);""",
      f"""            cfg.setMaxBufferedDocs({(docs + 19) // 20});
            cfg.setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH);
            cfg.setMergePolicy(NoMergePolicy.INSTANCE);""")
patch("""                    d.add(new NumericDocValuesField("id", ord));""",
      """                    d.add(new NumericDocValuesField("id", ord));
                    d.add(new StringField("ord", Integer.toString(ord), Field.Store.NO));""")
patch("""                if (forceMerge) w.forceMerge(1);
                w.commit();""",
      """                w.commit();
                for (int i = 0; i < n; i += 10) w.deleteDocuments(new Term("ord", Integer.toString(i)));
                w.commit();""")
patch("""        } else if (args.length == 2 && args[0].equals("analyze")) {""",
      """        } else if (args.length == 2 && args[0].equals("merge")) {
            try (Directory dir = FSDirectory.open(Paths.get(args[1]));
                 IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new HarnessAnalyzer())
                         .setOpenMode(IndexWriterConfig.OpenMode.APPEND).setUseCompoundFile(false))) {
                w.forceMerge(1);
                w.commit();
            }
            rc = 0;
        } else if (args.length == 2 && args[0].equals("analyze")) {""")
open(dst, "w").write(s)
PY
javac -nowarn -encoding UTF-8 -cp "$cp" -d "$work/classes" "$work/LivingHarness.java"
lucene() { java -Xmx4g -Xss8m -Dharness.forceMerge=false -cp "$work/classes:$cp" LivingHarness "$@"; }

seg=$work/index-20seg merged=$work/index-merged
rm -rf "$seg" "$merged"
lucene build "$main" "$seg" >"$work/build.json"
cp -r "$seg" "$merged"
lucene merge "$merged"
echo "lucene: $(grep -o '"segments":[0-9]*' "$work/build.json"), every tenth doc deleted; merged to one"
lucene_query() { lucene query "$1" "$2" --mode "$3" --reps "$REPS" --warmup-s "$WARMUP_S"; }
time_segments_against_merged "$seg" "$merged" "$work/rounds" lucene_query
